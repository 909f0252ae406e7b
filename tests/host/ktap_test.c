/*
 * ktap_test.c: the KTAP reporter (kernel/ktap.c) through the real console fan-out
 * (kernel/console.c) into a capturing backend: a test's output is held until it ends, then
 * printed as version line, `# Subtest:`, plan, the held lines, the per-test counts and the
 * result line (Linux Documentation/dev-tools/ktap.rst; docs/output.md); a failure without a
 * failed subtest gets `ran_to_completion`; a block larger than the hold buffer streams on
 * without a plan; ktap_abort ends the running test; the totals count test cases and
 * top-level tests.
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

static char out[KTAP_HOLD_BYTES * 2];
static size_t out_len;

static void cap_write(struct console_backend *be, const char *s, size_t n)
{
	(void)be;
	assert_true(out_len + n < sizeof(out));
	memcpy(out + out_len, s, n);
	out_len += n;
	out[out_len] = '\0';
}

static struct console_backend cap = { .name = "capture", .write = cap_write };

static int setup(void **state)
{
	(void)state;
	console_register(&cap);
	out_len = 0;
	out[0] = '\0';
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
	assert_int_equal(out_len, 0);	/* held while the test runs */
	ktap_result(&t, 2, kt_verdict(&t), NULL);
	assert_string_equal(out,
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
	assert_non_null(strstr(out, "not ok 2 paging\nafter\n"));
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
	assert_string_equal(out, "  # injecting: ud\n"
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
	assert_string_equal(out, "  KTAP version 1\n  # Subtest: apic\n  1..2\n"
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
	assert_true(out_len > 0);	/* streamed once the buffer was full */
	assert_true(!strncmp(out, "  KTAP version 1\n  # Subtest: load_l1\n  ok 1 pebs_source\n",
			     56));
	ktap_result(&t, 1, kt_verdict(&t), NULL);
	assert_null(strstr(out, "1.."));	/* no plan: the count was unknown when it mattered */
	assert_non_null(strstr(out, "# load_l1: pass:1 fail:0 skip:0 total:1\nok 1 load_l1\n"));
}

static void test_abort(void **state)
{
	DESC(d, "inject");
	struct ktest t = { .desc = &d };

	(void)state;
	ktap_abort("nothing running");
	assert_int_equal(out_len, 0);
	ktap_test_start(&t, 3);
	kt_check(&t, true, "before");
	ktap_abort("double fault");
	assert_string_equal(out, "  KTAP version 1\n  # Subtest: inject\n  1..2\n"
			    "  ok 1 before\n"
			    "  not ok 2 ran_to_completion # double fault\n"
			    "# inject: pass:1 fail:1 skip:0 total:2\n"
			    "not ok 3 inject # double fault\n");
	out_len = 0;
	ktap_abort("again");	/* the test has ended: nothing more */
	assert_int_equal(out_len, 0);
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
	out_len = 0;
	ktap_totals();
	snprintf(want, sizeof(want), "# Totals: pass:%u fail:%u skip:%u total:%u\n"
		 "# Top-level tests: pass:%u fail:%u skip:%u total:%u\n",
		 c0.pass + 2, c0.fail, c0.skip + 1, c0.pass + c0.fail + c0.skip + 3,
		 top0.pass + 1, top0.fail, top0.skip, top0.pass + top0.fail + top0.skip + 1);
	assert_string_equal(out, want);
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
