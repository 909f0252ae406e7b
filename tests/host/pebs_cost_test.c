/*
 * pebs_cost_test.c: the cost of PEBS (loads/pebs_cost.c), the pebs_overhead verdict
 * (loads/pebs_verdict.c) and the cost fields of the `pebs` line (loads/kpebs_print.c). First
 * the arithmetic on hand-made runs; then the whole path over the PMU model on its virtual
 * clock: every fed load costs 10 ticks, every assist a configured number of ticks; an unarmed
 * and an armed run of the same chunks through pebs/measure.c must give back exactly that cost
 * per record, the overhead it implies, and, when it is over 3 %, a retuned sav that brings it
 * to ~1 % (and says so).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "loads/kpebs_print.h"
#include "loads/pebs_cost.h"
#include "loads/pebs_verdict.h"
#include "model/pmu_fixture.h"
#include "model/pmu_model.h"
#include "pebs/measure.h"

static struct pebs_cost mk(uint64_t bt, uint64_t bs, uint64_t at, uint64_t as, uint64_t rec,
			   uint64_t pmis, uint64_t hz)
{
	struct pebs_cost_run b = { .ticks = bt, .steps = bs }, a = { .ticks = at, .steps = as };
	struct pebs_cost c = { 0 };

	pebs_cost_set(&c, &b, &a, rec, pmis, true, hz);
	return c;
}

static void test_arithmetic(void **state)
{
	struct pebs_cost c = mk(1000000, 1000000, 2060000, 2000000, 100, 4, 1000000000);
	char d[200];

	(void)state;
	assert_true(pebs_cost_valid(&c));
	assert_int_equal(pebs_cost_base_ns_x100(&c), 100);	/* 1 tick = 1 ns */
	assert_int_equal(pebs_cost_armed_ns_x100(&c), 103);
	assert_int_equal(pebs_cost_overhead_x100(&c), 300);
	assert_int_equal(pebs_cost_per_record_ns(&c), 600);	/* 60000 extra ticks / 100 */
	assert_int_equal(pebs_cost_per_pmi_ns(&c), 15000);
	assert_int_equal(pv_overhead(&c, 99, d, sizeof(d)), PV_PASS);
	assert_string_equal(d, "armed 1.03 vs unarmed 1.00 ns/step: +3.00%, limit 3%");
	c = mk(1000000, 1000000, 2062000, 2000000, 100, 4, 1000000000);
	assert_int_equal(pebs_cost_overhead_x100(&c), 310);
	assert_int_equal(pv_overhead(&c, 99, d, sizeof(d)), PV_FAIL);
	/* armed faster than unarmed (noise): negative overhead, no extra cost */
	c = mk(1000000, 1000000, 1990000, 2000000, 100, 4, 1000000000);
	assert_int_equal(pebs_cost_overhead_x100(&c), -50);
	assert_int_equal(pebs_cost_per_record_ns(&c), 0);
	assert_int_equal(pv_overhead(&c, 99, d, sizeof(d)), PV_PASS);
	assert_non_null(strstr(d, "-0.50%"));
	/* 3 GHz, DRAM-like: 300 ticks a step, 0.3 s of ticks */
	c = mk(300000000, 1000000, 909000000, 3000000, 3000, 10, 3000000000);
	assert_int_equal(pebs_cost_base_ns_x100(&c), 10000);
	assert_int_equal(pebs_cost_overhead_x100(&c), 100);
	assert_int_equal(pebs_cost_per_record_ns(&c), 1000);
	/* nothing measured: SKIP, '-' fields */
	c = mk(0, 0, 100, 10, 1, 1, 1000);
	assert_false(pebs_cost_valid(&c));
	assert_int_equal(pv_overhead(&c, 99, d, sizeof(d)), PV_SKIP);
	assert_int_equal(pv_overhead(NULL, 99, d, sizeof(d)), PV_SKIP);
}

static void test_retune(void **state)
{
	(void)state;
	assert_int_equal(pebs_cost_retune_sav(1009, 890), 8981);	/* 1009 * 8.9 | 1 */
	assert_int_equal(pebs_cost_retune_sav(1009, 100), 1009);
	assert_int_equal(pebs_cost_retune_sav(1000, 50), 1001);
	assert_int_equal(pebs_cost_retune_sav(500000, 900), PEBS_COST_SAV_MAX);
}

static char line[KP_LINE];

static void cap(void *ctx, const char *s)
{
	(void)ctx;
	snprintf(line, sizeof(line), "%s", s);
}

static void test_line_fields(void **state)
{
	struct pebs_cost c = mk(1000000, 1000000, 2060000, 2000000, 100, 4, 1000000000);
	struct pebs_agg agg;
	struct kp_pebs p = { .ev = PEBS_EV_LOAD, .ldlat = 3, .sav = 99, .pmis = 4,
			     .pmis_known = true, .agg = &agg, .cost = &c };

	(void)state;
	pebs_agg_init(&agg);
	kp_pebs_line(cap, NULL, "load_l1", &p, PEBS_LVL_L1, 480, true);
	assert_non_null(strstr(line, " pmis=4 "));
	assert_non_null(strstr(line, " clock=core unarmed_ns=1.00 armed_ns=1.03 overhead=3.00% "
				     "rec_ns=600 pmi_ns=15000 sav_tuned=-"));
	c.sav_first = 1009;
	c.pmis_known = false;
	p.pmis_known = false;
	kp_pebs_line(cap, NULL, "load_l1", &p, PEBS_LVL_L1, 480, true);
	assert_non_null(strstr(line, " pmis=- "));
	assert_non_null(strstr(line, " pmi_ns=- sav_tuned=1009"));
	p.cost = NULL;
	kp_pebs_line(cap, NULL, "load_l1", &p, PEBS_LVL_L1, 480, true);
	assert_non_null(strstr(line, "unarmed_ns=- armed_ns=- overhead=- rec_ns=- pmi_ns=- "
				     "sav_tuned=-"));
}

/* --- over the PMU model --- */
static struct pebs_caps caps;
static struct cpu_info ci;
static struct pebs_measure meas;

#define CHUNK 4096

static bool feed(void *ctx)
{
	struct model_load ld = { 0x200040, 0, 5, 0x401000 };
	uint64_t *left = ctx;

	(void)ctx;
	if (!*left)
		return false;
	model_feed(model_cpu()->ll_event, CHUNK, &ld);
	*left -= CHUNK;
	return *left > 0;
}

static uint64_t vclock(void *ctx)
{
	(void)ctx;
	return model_tsc();
}

struct armed_ctx {
	struct pebs_measure_cfg *cfg;
	uint64_t *left;
	unsigned runs;
};

static int armed(void *ctx, uint64_t sav, uint64_t *records, uint64_t *pmis, uint64_t *used)
{
	struct armed_ctx *a = ctx;

	a->cfg->pc.sav = sav;
	*a->left = 400ull * CHUNK;
	a->runs++;
	if (pebs_measure_run(&meas, &caps, a->cfg))
		return -1;
	*records = meas.agg.records;
	*pmis = meas.st.pmis;
	*used = meas.sav;
	return 0;
}

/* 10 ticks a load, `assist` ticks an assist, `pmi` a PMI: measured back through the runs. */
static void model_cost(uint64_t sav, uint64_t assist, uint64_t pmi, bool retune,
		       struct pebs_cost *c, unsigned *runs)
{
	uint64_t left;
	struct pebs_cost_run base = { .work = feed, .ctx = &left, .clock = vclock,
				      .steps_per_chunk = CHUNK }, run = base;
	struct pebs_measure_cfg cfg = { .work = pebs_cost_chunk, .work_ctx = &run,
					.target_records = 1000 };
	struct armed_ctx a = { .cfg = &cfg, .left = &left };

	pmu_fixture_probe(&model_skylake, &ci, &caps);
	model_set_costs(10, assist, pmi);
	pebs_config_init(&cfg.pc, PEBS_LOAD_LATENCY, NULL, NULL);
	left = 8 * CHUNK;
	pebs_cost_baseline(&base, 8);
	assert_int_equal(base.steps, 8 * CHUNK);
	assert_int_equal(base.ticks, 8 * CHUNK * 10);
	assert_int_equal(pebs_cost_measure(c, &base, &run, sav, retune, true, 1000000000, armed,
					   &a), 0);
	*runs = a.runs;
	pmu_fixture_assert_clean();
}

static void test_model_cost_recovered(void **state)
{
	struct pebs_cost c;
	unsigned runs;
	char d[200];

	(void)state;
	/* sav 999: a record every 1000 loads = 10000 ticks; 200 ticks an assist = 2 % */
	model_cost(999, 200, 0, true, &c, &runs);
	assert_int_equal(runs, 1);
	assert_int_equal(c.records, model_stats()->records_written);
	assert_int_equal(pebs_cost_per_record_ns(&c), 200);	/* 1 GHz: ticks = ns */
	assert_in_range(pebs_cost_overhead_x100(&c), 195, 200);
	assert_int_equal(pv_overhead(&c, 999, d, sizeof(d)), PV_PASS);
	assert_int_equal(c.sav_first, 0);
	/* PMIs cost too: 5000 ticks each, spread over the records of a buffer */
	model_cost(999, 200, 5000, true, &c, &runs);
	assert_true(c.pmis >= 1);
	assert_int_equal(pebs_cost_per_record_ns(&c), (200 * c.records + 5000 * c.pmis) /
			 c.records);
	assert_int_equal(pebs_cost_per_pmi_ns(&c), (200 * c.records + 5000 * c.pmis) / c.pmis);
}

static void test_model_retune(void **state)
{
	struct pebs_cost c;
	unsigned runs;
	char d[200];

	(void)state;
	/* 1000 ticks an assist at sav 999 = 10 %: too much; retuned to ~1 % and said so */
	model_cost(999, 1000, 0, true, &c, &runs);
	assert_int_equal(runs, 2);
	assert_int_equal(c.sav_first, 999);
	assert_in_range(c.overhead_first_x100, 990, 1000);
	assert_in_range(meas.sav, 9801, 9991);
	assert_in_range(pebs_cost_overhead_x100(&c), 95, 105);
	assert_int_equal(pv_overhead(&c, meas.sav, d, sizeof(d)), PV_PASS);
	assert_non_null(strstr(d, "; sav tuned 999 -> "));
	/* the user's sav (no retune): the verdict fails, naming the overhead */
	model_cost(999, 1000, 0, false, &c, &runs);
	assert_int_equal(runs, 1);
	assert_int_equal(pv_overhead(&c, meas.sav, d, sizeof(d)), PV_FAIL);
	assert_non_null(strstr(d, "limit 3%"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arithmetic),
		cmocka_unit_test(test_retune),
		cmocka_unit_test(test_line_fields),
		cmocka_unit_test(test_model_cost_recovered),
		cmocka_unit_test(test_model_retune),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
