/*
 * cntr_snap_test.c: pebs_counters=on end to end against the PMU model: on the Lion Cove row
 * (format 6, MSR_PEBS_DATA_CFG counter group) and on the architectural-PEBS rows (CFG_C
 * bits 35-37), every record carries the PEBS counter and core cycles (IA32_FIXED_CTR1); the
 * per-level reduction (pebs/cntr_snap.c) must give exactly the cycles the model's virtual
 * clock ran per sampled window ((sav + 1) events x 7 cycles). Also: the option's parsing, the
 * refusal before format 6, and IA32_FIXED_CTR_CTRL put back at teardown
 * (docs/arch-pebs.md "Counter snapshots").
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/cmdline.h"
#include "kernel/hw.h"
#include "model/pmu_fixture.h"
#include "model/pmu_model.h"
#include "model/pmu_model_hostile.h"
#include "pebs/cntr_snap.h"
#include "pebs/msr.h"
#include "pebs/pebs.h"

static char out[256];

static void out_line(void *ctx, const char *line)
{
	size_t have = strlen(out), n = strlen(line);

	(void)ctx;
	if (have + n + 1 < sizeof(out))
		memcpy(out + have, line, n), out[have + n] = '\n', out[have + n + 1] = '\0';
}

static struct pebs_caps caps;
static struct cpu_info ci;
static struct pebs_cntr_agg agg;
static uint64_t bad;

static void sink_fn(void *ctx, const uint8_t *rec, size_t len)
{
	const struct pebs_model *m = ctx;
	struct pebs_walker w;
	struct pebs_record r;
	struct pebs_dsrc d;

	pebs_walk_init(&w, rec, len, caps.pebs_fmt, PEBS_WALK_SPLIT_LATENCY);
	while (pebs_walk_next(&w, &r)) {
		if (r.err || !(r.valid & PEBS_F_COUNTERS))
			bad++;
		pebs_dsrc_decode(m, PEBS_EV_LOAD, r.aux, &d);
		pebs_cntr_agg_add(&agg, &r, d.level);
	}
}

static void run_skew(const struct model_cpu *mc, unsigned fam, unsigned mod, uint64_t l1_code,
		     uint64_t skew);

static void run(const struct model_cpu *mc, unsigned fam, unsigned mod, uint64_t l1_code)
{
	run_skew(mc, fam, mod, l1_code, 0);
}

static void run_skew(const struct model_cpu *mc, unsigned fam, unsigned mod, uint64_t l1_code,
		     uint64_t skew)
{
	const struct model_hostile h = { .snap_skew = skew };
	char d[160];
	const struct pebs_model *m = pebs_model_lookup(fam, mod, PEBS_CORE_P);
	struct model_load ld = { 0x200040, l1_code, 57, 0x401000 };	/* an L1 hit */
	struct pebs_session s;
	struct pebs_config cfg;

	pmu_fixture_probe(mc, &ci, &caps);
	model_hostile(&h);
	assert_non_null(m);
	pebs_config_init(&cfg, PEBS_LOAD_LATENCY, NULL, NULL);
	cfg.sav = 97;
	cfg.buf_bytes = 8192;
	cfg.counters = true;
	cfg.sink = sink_fn;
	cfg.sink_ctx = (void *)m;
	memset(&s, 0, sizeof(s));
	pebs_cntr_agg_init(&agg);
	bad = 0;
	assert_int_equal(wrmsr_safe(MSR_IA32_FIXED_CTR_CTRL, 0x3), 0);
	agg.rdpmc_ok = !rdpmc_safe(1u << 30 | PEBS_CNTR_CORE_CYCLES, &agg.rdpmc_start);
	if (pebs_start(&s, &caps, &cfg))
		fail_msg("%s: %s", mc->name, s.err);
	pmu_fixture_assert_clean();
	model_feed(mc->ll_event, 98 * 200, &ld);
	pebs_stop(&s);
	agg.rdpmc_ok = agg.rdpmc_ok &&
		       !rdpmc_safe(1u << 30 | PEBS_CNTR_CORE_CYCLES, &agg.rdpmc_end);
	/* issue 31: the snapshots against RDPMC of the same counter (pebs_cntr_check) */
	assert_true(agg.rdpmc_ok);
	if (pebs_cntr_check(&agg, d, sizeof(d)) != (skew ? 0 : 1))
		fail_msg("%s skew %llu: %s", mc->name, (unsigned long long)skew, d);
	if (skew)
		return;
	assert_int_equal(agg.backwards, 0);
	assert_int_equal(agg.prev - agg.first, 199 * 98 * 7);
	pmu_fixture_assert_clean();
	assert_int_equal(s.st.records, 200);
	assert_int_equal(bad, 0);
	assert_int_equal(agg.records, 200);
	assert_int_equal(agg.no_cycles, 0);
	assert_int_equal(agg.windows[PEBS_LVL_L1], 199);
	assert_int_equal(agg.cycles[PEBS_LVL_L1], 199 * 98 * 7);
	assert_int_equal(model_msr(MSR_IA32_FIXED_CTR_CTRL), 0x3);
	assert_int_equal(model_msr(MSR_IA32_PERF_GLOBAL_CTRL) & GLOBAL_FIXED(1), 0);
	out[0] = '\0';
	pebs_cntr_agg_lines(&agg, "load_l1", out_line, NULL);
	assert_string_equal(out, "load_l1: counters L1 windows=199 cycles/window=686\n");
}

static void test_lion_cove_format6(void **state)
{
	(void)state;
	run(&model_lion_cove, 6, 0xBD, 0x01);
}

static void test_arch_rows(void **state)
{
	(void)state;
	run(&model_ptl_p, 6, 0xCC, 0x01);
	run(&model_dmr, 0x13, 0x01, 0x02);	/* Panther Cove: 01 is L0, 02 L1 */
}

static void warn_fn(const char *msg) { (void)msg; }

/* The model's knob: snapshots that are not the counter's value fail the verdict. */
static void test_snapshot_not_the_counter(void **state)
{
	char d[160];

	(void)state;
	run_skew(&model_lion_cove, 6, 0xBD, 0x01, 1000000);
	run_skew(&model_ptl_p, 6, 0xCC, 0x01, 1000000);
	memset(&agg, 0, sizeof(agg));
	assert_int_equal(pebs_cntr_check(&agg, d, sizeof(d)), -1);	/* no RDPMC */
	assert_string_equal(d, "RDPMC of fixed counter 1 faulted: nothing to compare");
	agg.rdpmc_ok = true;
	assert_int_equal(pebs_cntr_check(&agg, d, sizeof(d)), -1);
	assert_string_equal(d, "0 core-cycle snapshots: no window");
}

static void test_option_and_refusal(void **state)
{
	struct cmdline cl;
	struct pebs_config cfg;
	struct pebs_session s;
	static const char on[] = "pebs_counters=on", bad_v[] = "pebs_counters=yes";

	(void)state;
	cmdline_parse(&cl, on, sizeof(on), option_table, warn_fn);
	pebs_config_init(&cfg, PEBS_LOAD_LATENCY, &cl, warn_fn);
	assert_true(cfg.counters);
	cmdline_parse(&cl, bad_v, sizeof(bad_v), option_table, warn_fn);
	pebs_config_init(&cfg, PEBS_LOAD_LATENCY, &cl, warn_fn);
	assert_false(cfg.counters);
	/* format 4 has no counter group: refused, nothing left enabled */
	pmu_fixture_probe(&model_icelake_sp, &ci, &caps);
	pebs_config_init(&cfg, PEBS_LOAD_LATENCY, NULL, NULL);
	cfg.counters = true;
	memset(&s, 0, sizeof(s));
	assert_int_equal(pebs_start(&s, &caps, &cfg), -1);
	assert_non_null(strstr(s.err, "pebs_counters=on needs PEBS format 6"));
	assert_int_equal(model_msr(MSR_IA32_PERF_GLOBAL_CTRL), 0);
	pmu_fixture_assert_clean();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lion_cove_format6),
		cmocka_unit_test(test_arch_rows),
		cmocka_unit_test(test_snapshot_not_the_counter),
		cmocka_unit_test(test_option_and_refusal),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);

	model_fini();
	return rc;
}
