/*
 * ktap_test.c: the KTAP reporter (kernel/ktap.c) through the real console fan-out
 * (kernel/console.c) into a capturing backend: a test's output is held until it ends, then
 * printed as version line, `# Subtest:`, plan, the held lines, the per-test counts and the
 * result line (Linux Documentation/dev-tools/ktap.rst; docs/output.md); a failure without a
 * failed subtest gets `ran_to_completion`; a block larger than the hold buffer streams on
 * without a plan; ktap_abort ends the running test; the totals count test cases and
 * top-level tests. Then the log=brief form (kernel/ktap_detail.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/console.h"
#include "kernel/ktap.h"
#include "tests/stubs/console_tap.h"


static int setup(void **state)
{
	(void)state;
	console_tap_reset();
	log_set_full(true);	/* every line; the log=brief form: ktap_detail_test.c */
	ktap_detail_reset();
	return 0;
}

#define DESC(var, nm) static const struct ktest_desc var = { .name = nm, .needs = NEED_NONE }

static void test_block_order(void **state)
{
	DESC(d, "paging");
	struct ktest t = { .desc = &d };

	(void)state;
	ktap_test_start(&t, 2);
	kt_info(&t, "about identity_map");
	kt_check(&t, true, "identity_map # %u KiB at 2 GiB", 2048u);
	kt_skip_sub(&t, "nx_on_data", "CPUID.80000001H:EDX.NX[20] = %u", 0u);
	kprintf("# EXCEPTION: printed by someone else\n");
	kt_check(&t, false, "guard_page # vector %d", 13);
	assert_int_equal(console_tap_len(), 0);	/* held while the test runs */
	ktap_result(&t, 2, kt_verdict(&t), NULL);
	assert_string_equal(console_tap_text(),
		"  KTAP version 1\n"
		"  # Subtest: paging\n"
		"  1..3\n"
		"  # about identity_map\n"
		"  ok 1 identity_map # 2048 KiB at 2 GiB\n"
		"  ok 2 nx_on_data # SKIP CPUID.80000001H:EDX.NX[20] = 0\n"
		"# EXCEPTION: printed by someone else\n"
		"  not ok 3 guard_page # vector 13\n"
		"# paging: pass:1 fail:1 skip:1 total:3\n"
		"not ok 2 paging\n");
	kprintf("after\n");	/* the hold ended with the result */
	assert_non_null(strstr(console_tap_text(), "not ok 2 paging\nafter\n"));
}

static void test_leaf_and_skip(void **state)
{
	DESC(d, "inject");
	DESC(e, "pmu");
	struct ktest t = { .desc = &d }, u = { .desc = &e };

	(void)state;
	ktap_test_start(&t, 1);
	kt_info(&t, "injecting: ud");
	ktap_result(&t, 1, KT_FAIL, "exception: #UD invalid opcode");
	ktap_result(&u, 2, KT_SKIP, "no PMU");	/* skipped by its needs: never started */
	assert_string_equal(console_tap_text(), "  # injecting: ud\n"
			    "not ok 1 inject # exception: #UD invalid opcode\n"
			    "ok 2 pmu # SKIP no PMU\n");
}

static void test_failure_without_failed_subtest(void **state)
{
	DESC(d, "apic");
	struct ktest t = { .desc = &d };

	(void)state;
	ktap_test_start(&t, 4);
	kt_check(&t, true, "mode_and_id");
	ktap_result(&t, 4, KT_FAIL, "TIMEOUT");
	assert_string_equal(console_tap_text(), "  KTAP version 1\n  # Subtest: apic\n  1..2\n"
			    "  ok 1 mode_and_id\n"
			    "  not ok 2 ran_to_completion # TIMEOUT\n"
			    "# apic: pass:1 fail:1 skip:0 total:2\n"
			    "not ok 4 apic # TIMEOUT\n");
}

static void test_overflow_streams(void **state)
{
	DESC(d, "load_l1");
	struct ktest t = { .desc = &d };
	static char line[201];
	unsigned lines = KTAP_HOLD_BYTES / 200 + 10;

	(void)state;
	memset(line, 'x', sizeof(line) - 1);
	ktap_test_start(&t, 1);
	kt_check(&t, true, "pebs_source");
	for (unsigned i = 0; i < lines; i++)
		kt_info(&t, "%s", line + 4);	/* "  # " + 196 + "\n" = 201 bytes */
	assert_true(console_tap_len() > 0);	/* streamed once the buffer was full */
	assert_true(!strncmp(console_tap_text(), "  KTAP version 1\n  # Subtest: load_l1\n  ok 1 pebs_source\n",
			     56));
	ktap_result(&t, 1, kt_verdict(&t), NULL);
	assert_null(strstr(console_tap_text(), "1.."));	/* no plan: the count was unknown when it mattered */
	assert_non_null(strstr(console_tap_text(), "# load_l1: pass:1 fail:0 skip:0 total:1\nok 1 load_l1\n"));
}

static void test_abort(void **state)
{
	DESC(d, "inject");
	struct ktest t = { .desc = &d };

	(void)state;
	ktap_abort("nothing running");
	assert_int_equal(console_tap_len(), 0);
	ktap_test_start(&t, 3);
	kt_check(&t, true, "before");
	ktap_abort("double fault");
	assert_string_equal(console_tap_text(), "  KTAP version 1\n  # Subtest: inject\n  1..2\n"
			    "  ok 1 before\n"
			    "  not ok 2 ran_to_completion # double fault\n"
			    "# inject: pass:1 fail:1 skip:0 total:2\n"
			    "not ok 3 inject # double fault\n");
	console_tap_reset();
	ktap_abort("again");	/* the test has ended: nothing more */
	assert_int_equal(console_tap_len(), 0);
}

static void test_totals(void **state)
{
	DESC(d, "t");
	struct ktest t = { .desc = &d };
	struct ktap_totals c0 = *ktap_get_cases(), top0 = *ktap_get_totals();
	char want[200];

	(void)state;
	ktap_test_start(&t, 1);
	kt_check(&t, true, "a");
	kt_check(&t, true, "b");
	kt_skip_sub(&t, "c", "r");
	ktap_result(&t, 1, kt_verdict(&t), NULL);
	assert_int_equal(ktap_get_cases()->pass, c0.pass + 2);
	assert_int_equal(ktap_get_cases()->skip, c0.skip + 1);
	assert_int_equal(ktap_get_totals()->pass, top0.pass + 1);
	console_tap_reset();
	ktap_totals();
	snprintf(want, sizeof(want), "# Totals: pass:%u fail:%u skip:%u total:%u\n"
		 "# Top-level tests: pass:%u fail:%u skip:%u total:%u\n",
		 c0.pass + 2, c0.fail, c0.skip + 1, c0.pass + c0.fail + c0.skip + 3,
		 top0.pass + 1, top0.fail, top0.skip, top0.pass + top0.fail + top0.skip + 1);
	assert_string_equal(console_tap_text(), want);
}

/* ---- log=brief (kernel/ktap_detail.h, docs/output.md "Log budget"): a detail line goes out
 * only before a `not ok` (or a test that fails without a result), a SKIP reason given before
 * becomes "same as <where>"; log=full prints them all; details past the hold buffer are
 * printed, never dropped unseen ---- */
static int setup_brief(void **state)
{
	setup(state);
	log_set_full(false);
	return 0;
}

static void run_probe_test(void)
{
	DESC(d, "paging");
	struct ktest t = { .desc = &d };

	ktap_test_start(&t, 2);
	kt_detail(&t, "probe 0x1000: want 4K WB, got 4K WB");
	kt_check(&t, true, "edges");
	kt_detail(&t, "probe 0x200000: want 2M WB, got 4K WB <- wrong");
	kt_info(&t, "always");
	kt_check(&t, false, "large_pages");
	kt_detail(&t, "before a skip");
	kt_skip_sub(&t, "buffer_1g", "only %u MiB free", 499u);
	ktap_result(&t, 2, kt_verdict(&t), NULL);
}

static void test_brief_details_only_before_failures(void **state)
{
	(void)state;
	run_probe_test();
	assert_string_equal(console_tap_text(),
		"  KTAP version 1\n  # Subtest: paging\n  1..3\n"
		"  ok 1 edges\n"
		"  # always\n"
		"  # probe 0x200000: want 2M WB, got 4K WB <- wrong\n"
		"  not ok 2 large_pages\n"
		"  ok 3 buffer_1g # SKIP only 499 MiB free\n"
		"# paging: pass:1 fail:1 skip:1 total:3\n"
		"not ok 2 paging\n");
}

static void test_full_prints_every_detail(void **state)
{
	(void)state;
	log_set_full(true);
	run_probe_test();
	assert_non_null(strstr(console_tap_text(), "  # probe 0x1000: want 4K WB, got 4K WB\n  ok 1 edges\n"));
	assert_non_null(strstr(console_tap_text(), "  # before a skip\n  ok 3 buffer_1g"));
}

/* a test that ends without a result for its details: shown when it failed (a fault) */
static void test_details_left_at_the_end(void **state)
{
	DESC(d, "apic");
	struct ktest t = { .desc = &d };

	(void)state;
	ktap_test_start(&t, 4);
	kt_check(&t, true, "mode");
	kt_detail(&t, "waiting for the timer");
	ktap_result(&t, 4, KT_FAIL, "TIMEOUT");
	assert_non_null(strstr(console_tap_text(), "  # waiting for the timer\n  not ok 2 ran_to_completion"));
	console_tap_reset();
	ktap_test_start(&t, 5);
	kt_check(&t, true, "mode");
	kt_detail(&t, "dropped");
	ktap_result(&t, 5, KT_PASS, NULL);
	assert_null(strstr(console_tap_text(), "dropped"));
}

static void test_overflow_prints(void **state)
{
	DESC(d, "paging");
	struct ktest t = { .desc = &d };
	unsigned n = KTAP_DETAIL_BYTES / 20 + 4;

	(void)state;
	ktap_test_start(&t, 1);
	for (unsigned i = 0; i < n; i++)
		kt_detail(&t, "detail %010u", i);	/* 4 + 17 + 1 = 22 bytes */
	kt_check(&t, true, "ok_anyway");
	ktap_result(&t, 1, kt_verdict(&t), NULL);
	assert_non_null(strstr(console_tap_text(), "  # detail 0000000000\n"));	/* out of room: printed */
}

static void test_repeated_skip_reason(void **state)
{
	DESC(a, "pmu");
	DESC(b, "load_l1");
	DESC(c, "load_hitm");
	DESC(e, "load_snoop");
	struct ktest t = { .desc = &a }, u = { .desc = &b }, v = { .desc = &c }, w = { .desc = &e };

	(void)state;
	ktap_test_start(&t, 1);
	kt_skip_sub(&t, "ibs_op_samples", "no IBS");
	kt_skip_sub(&t, "ibs_restored", "no IBS");
	kt_skip_sub(&t, "other", "another reason");
	ktap_result(&t, 1, kt_verdict(&t), NULL);
	ktap_test_start(&u, 2);
	kt_skip_sub(&u, "pebs_source", "no IBS");
	kt_check(&u, true, "chain_cycle");
	ktap_result(&u, 2, kt_verdict(&u), NULL);
	ktap_result(&w, 3, KT_SKIP, "one CPU online");
	ktap_result(&v, 4, KT_SKIP, "one CPU online");
	assert_non_null(strstr(console_tap_text(), "  ok 1 ibs_op_samples # SKIP no IBS\n"
				    "  ok 2 ibs_restored # SKIP same as pmu.ibs_op_samples\n"
				    "  ok 3 other # SKIP another reason\n"));
	assert_non_null(strstr(console_tap_text(), "  ok 1 pebs_source # SKIP same as pmu.ibs_op_samples\n"));
	assert_non_null(strstr(console_tap_text(), "ok 1 pmu # SKIP every subtest skipped\n"));
	assert_null(strstr(console_tap_text(), "# load_l1: pass:"));	/* counts only for a failed test */
	assert_non_null(strstr(console_tap_text(), "ok 3 load_snoop # SKIP one CPU online\n"
				    "ok 4 load_hitm # SKIP same as load_snoop\n"));

	/* log=full: every reason in full */
	console_tap_reset();
	ktap_detail_reset();
	log_set_full(true);
	ktap_result(&w, 3, KT_SKIP, "one CPU online");
	ktap_result(&v, 4, KT_SKIP, "one CPU online");
	assert_string_equal(console_tap_text(), "ok 3 load_snoop # SKIP one CPU online\n"
			    "ok 4 load_hitm # SKIP one CPU online\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_block_order, setup),
		cmocka_unit_test_setup(test_leaf_and_skip, setup),
		cmocka_unit_test_setup(test_failure_without_failed_subtest, setup),
		cmocka_unit_test_setup(test_overflow_streams, setup),
		cmocka_unit_test_setup(test_abort, setup),
		cmocka_unit_test_setup(test_totals, setup),
		cmocka_unit_test_setup(test_brief_details_only_before_failures, setup_brief),
		cmocka_unit_test_setup(test_full_prints_every_detail, setup_brief),
		cmocka_unit_test_setup(test_details_left_at_the_end, setup_brief),
		cmocka_unit_test_setup(test_overflow_prints, setup_brief),
		cmocka_unit_test_setup(test_repeated_skip_reason, setup_brief),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
