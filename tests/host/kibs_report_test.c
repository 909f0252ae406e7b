/*
 * kibs_report_test.c: the IBS step's report (loads/kibs_report.c) for every load target, over
 * a hand-filled aggregate: which level each target is judged on (load_remote: DRAM and the
 * RmtNode share, as the Intel path's pebs_source and pebs_remote; it used to judge level -1,
 * out of every table), every target inside the bounds of struct kibs_levels (ASan), and
 * pebs_rises across the levels.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/console.h"
#include "loads/kibs_report.h"

static struct ibs_measure m;
static char out[16384];
static size_t out_len;

static void capture(struct console_backend *be, const char *s, size_t n)
{
	(void)be;
	for (size_t i = 0; i < n && out_len + 1 < sizeof(out); i++)
		out[out_len++] = s[i];
	out[out_len] = '\0';
}

static struct console_backend cap = { .name = "capture", .write = capture };

/* n samples at level l with latency lat (remote: the RmtNode bit) */
static void fill(unsigned l, unsigned n, unsigned lat, bool remote)
{
	struct pebs_dsrc d = { .level = (uint8_t)l, .remote = remote ? PEBS_YES : PEBS_NO };

	for (unsigned i = 0; i < n; i++)
		pebs_agg_add_sample(&m.agg, &d, true, lat);
}

static const char *report(enum load_target tg, const char *name, struct kibs_levels *lv)
{
	const struct ktest_desc desc = { .name = name };
	struct ktest t = { .desc = &desc };
	struct pebs_cost cost = { 0 };

	out_len = 0;
	out[0] = '\0';
	kibs_report(&t, name, &m, NULL, &cost, tg, 30000, true, lv, KIBS_DUMP_NONE);
	return out;
}

static void test_remote_judged_on_dram(void **state)
{
	struct kibs_levels *lv = test_calloc(1, sizeof(*lv));	/* exact size: ASan's bounds */
	const char *text;

	(void)state;
	memset(&m, 0, sizeof(m));
	pebs_agg_init(&m.agg);
	m.period = 4096;
	fill(PEBS_LVL_RAM, 900, 300, true);
	fill(PEBS_LVL_L3, 100, 50, false);
	text = report(TGT_REMOTE, "load_remote", lv);
	if (!strstr(text, "  ok 2 ibs_source # RAM hit 90.0% >= 50%, of 1000\n") ||
	    !strstr(text, "  ok 3 ibs_remote # remote 90.0% >= 50%, of 1000 (IbsOpData2 "
		    "RmtNode)\n"))
		fail_msg("%s", text);
	assert_null(strstr(text, "ibs_latency"));	/* as the Intel path: source only */
	assert_null(strstr(text, "ibs_rises"));
	test_free(lv);
}

static void test_every_target_in_bounds(void **state)
{
	static const char *const names[] = { "load_l1", "load_l2", "load_l3", "load_dram",
					     "load_lfb", "load_store", "load_stlb", "load_remote" };
	struct kibs_levels *lv = test_calloc(1, sizeof(*lv));

	(void)state;
	for (unsigned tg = TGT_L1; tg <= TGT_REMOTE; tg++) {
		memset(&m, 0, sizeof(m));
		pebs_agg_init(&m.agg);
		m.period = 4096;
		fill(tg == TGT_STORE ? PEBS_LVL_L1 : tg == TGT_STLB ? PEBS_LVL_RAM :
		     (unsigned)kibs_target_level((enum load_target)tg), 1000, 40 + 60 * tg,
		     tg == TGT_REMOTE);
		report((enum load_target)tg, names[tg], lv);
	}
	assert_true(lv->have[TGT_DRAM] && lv->p50[TGT_L3] < lv->p50[TGT_DRAM]);
	test_free(lv);
}

int main(void)
{
	console_register(&cap);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_remote_judged_on_dram),
		cmocka_unit_test(test_every_target_in_bounds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
