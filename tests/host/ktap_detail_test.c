/*
 * ktap_detail_test.c: the log budget (kernel/ktap_detail.h, docs/output.md "Log budget")
 * through the KTAP reporter and the real console: under log=brief a detail line goes out only
 * before a `not ok` (or a test that fails without a result), a SKIP reason given before becomes
 * "same as <where>"; under log=full every detail and every reason is printed in full; details
 * past the hold buffer are printed, never dropped unseen.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/console.h"
#include "kernel/ktap.h"

static char out[64 * 1024];
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
	static int registered;

	(void)state;
	if (!registered++)
		console_register(&cap);
	out_len = 0;
	out[0] = '\0';
	log_set_full(false);
	ktap_detail_reset();
	return 0;
}

#define DESC(var, nm) static const struct ktest_desc var = { .name = nm, .needs = NEED_NONE }

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
	assert_string_equal(out,
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
	assert_non_null(strstr(out, "  # probe 0x1000: want 4K WB, got 4K WB\n  ok 1 edges\n"));
	assert_non_null(strstr(out, "  # before a skip\n  ok 3 buffer_1g"));
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
	assert_non_null(strstr(out, "  # waiting for the timer\n  not ok 2 ran_to_completion"));
	out_len = 0;
	ktap_test_start(&t, 5);
	kt_check(&t, true, "mode");
	kt_detail(&t, "dropped");
	ktap_result(&t, 5, KT_PASS, NULL);
	assert_null(strstr(out, "dropped"));
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
	assert_non_null(strstr(out, "  # detail 0000000000\n"));	/* out of room: printed */
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
	assert_non_null(strstr(out, "  ok 1 ibs_op_samples # SKIP no IBS\n"
				    "  ok 2 ibs_restored # SKIP same as pmu.ibs_op_samples\n"
				    "  ok 3 other # SKIP another reason\n"));
	assert_non_null(strstr(out, "  ok 1 pebs_source # SKIP same as pmu.ibs_op_samples\n"));
	assert_non_null(strstr(out, "ok 1 pmu # SKIP every subtest skipped\n"));
	assert_null(strstr(out, "# load_l1: pass:"));	/* counts only for a failed test */
	assert_non_null(strstr(out, "ok 3 load_snoop # SKIP one CPU online\n"
				    "ok 4 load_hitm # SKIP same as load_snoop\n"));

	/* log=full: every reason in full */
	out_len = 0;
	ktap_detail_reset();
	log_set_full(true);
	ktap_result(&w, 3, KT_SKIP, "one CPU online");
	ktap_result(&v, 4, KT_SKIP, "one CPU online");
	assert_string_equal(out, "ok 3 load_snoop # SKIP one CPU online\n"
			    "ok 4 load_hitm # SKIP one CPU online\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_brief_details_only_before_failures, setup),
		cmocka_unit_test_setup(test_full_prints_every_detail, setup),
		cmocka_unit_test_setup(test_details_left_at_the_end, setup),
		cmocka_unit_test_setup(test_overflow_prints, setup),
		cmocka_unit_test_setup(test_repeated_skip_reason, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
