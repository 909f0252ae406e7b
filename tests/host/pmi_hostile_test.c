/*
 * pmi_hostile_test.c: the PEBS driver (pebs/program.c, arch_program.c, pmi.c, cycles.c)
 * against the PMU model's hostile PMI delivery (tests/model/pmu_model_pmi.c): a PMI that
 * lands late, with the counters and the PEBS assist still running, or just before any one
 * MSR access of pebs_start / pebs_stop, or between two records of a drain. Each case names
 * the defect it guards (issue 27: H1 stop order, H6 threshold headroom, H11 core clock across
 * a PMI, H12 AAK100 PMCs cleared, H13 stale GLOBAL_STATUS).
 * The seeded scenario (pmi_scenario.c) runs here over a fixed set of seeds; `make soak`
 * (tests/soak.sh) runs it over many random ones: PMI_SEED=n runs seed n alone and says why
 * it failed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "host/pmi_scenario.h"
#include "apic/apic.h"
#include "kernel/hw.h"
#include "model/pmu_fixture.h"
#include "model/pmu_model.h"
#include "pebs/cycles.h"
#include "pebs/msr.h"
#include "pebs/pebs.h"

static struct pebs_caps caps;
static struct cpu_info ci;
static struct pebs_session s;
static struct pmi_sink k;
static const struct model_load LD = { 0x200040, 1, 57, 0x401000 };

/* Start a load-latency session on the CPU probed last. */
static int begin(uint64_t sav, uint64_t buf)
{
	struct pebs_config cfg;

	memset(&s, 0, sizeof(s));
	pebs_config_init(&cfg, PEBS_LOAD_LATENCY, NULL, NULL);
	cfg.sav = sav;
	cfg.buf_bytes = buf;
	pmi_sink_init(&k, &s);
	cfg.sink = pmi_sink_fn;
	cfg.sink_ctx = &k;
	if (pebs_start(&s, &caps, &cfg)) {
		print_error("%s: pebs_start: %s\n", model_cpu()->name, s.err);
		return -1;
	}
	return 0;
}

static int start(const struct model_cpu *m, uint64_t sav, uint64_t buf)
{
	pmu_fixture_probe(m, &ci, &caps);
	return begin(sav, buf);
}

static uint64_t headroom(void)
{
	return s.geom.nrec - s.geom.thresh_rec;
}

/* Every record the model wrote drained exactly once; PEBS off, GLOBAL_CTRL as expected. */
static void assert_stopped(const char *what, unsigned i, uint64_t ctrl)
{
	if (k.n != model_stats()->records_written || k.dup || s.st.records != k.n)
		fail_msg("%s %u: %llu records drained (%llu out of order or twice), %llu written",
			 what, i, (unsigned long long)k.n, (unsigned long long)k.dup,
			 (unsigned long long)model_stats()->records_written);
	if (model_msr(MSR_IA32_PERF_GLOBAL_CTRL) != ctrl)
		fail_msg("%s %u: GLOBAL_CTRL 0x%llx after stop, want 0x%llx", what, i,
			 (unsigned long long)model_msr(MSR_IA32_PERF_GLOBAL_CTRL),
			 (unsigned long long)ctrl);
	if (!s.arch && model_msr(MSR_IA32_PEBS_ENABLE))
		fail_msg("%s %u: PEBS_ENABLE 0x%llx after stop", what, i,
			 (unsigned long long)model_msr(MSR_IA32_PEBS_ENABLE));
	if (model_msr(MSR_IA32_PERFEVTSEL(s.counter)) & EVTSEL_EN)
		fail_msg("%s %u: PEBS counter %u still enabled after stop", what, i, s.counter);
	pmu_fixture_assert_clean();
}

/* Fill past the threshold with PMIs held back, leave `extra` more records in the buffer. */
static void pending_threshold(const struct model_cpu *m, uint64_t sav, uint64_t extra)
{
	model_pmi_delivery(false);
	model_feed(m->ll_event, (sav + 1) * (s.geom.thresh_rec + extra), &LD);
	assert_int_equal(model_stats()->pmis_delivered, 0);
	model_pmi_delivery(true);
}

/* The MSR accesses pebs_stop makes with no PMI in its way. */
static uint64_t stop_accesses(const struct model_cpu *m)
{
	uint64_t a;

	assert_int_equal(start(m, 97, 8192), 0);
	pending_threshold(m, 97, 1);
	model_pmi_hold_until_access(1000000);
	a = model_msr_accesses();
	pebs_stop(&s);
	return model_msr_accesses() - a;
}

/*
 * H1: the pending threshold PMI taken just before each MSR access of pebs_stop in turn (and
 * once after it), with one event counted before every access: nothing drained twice,
 * nothing lost, GLOBAL_CTRL and PEBS_ENABLE 0 afterwards, the counter off.
 */
static void sweep_stop(const struct model_cpu *m)
{
	uint64_t n = stop_accesses(m);

	for (uint64_t a = 1; a <= n + 1; a++) {
		assert_int_equal(start(m, 97, 8192), 0);
		pending_threshold(m, 97, 1);
		model_busy(m->ll_event, 1, &LD);
		model_pmi_hold_until_access(a);
		pebs_stop(&s);
		model_busy(0, 0, NULL);
		model_pmi_hold_until_access(0);
		model_pmi_flush();	/* a PMI still pending lands after the stop */
		model_feed(m->ll_event, 500, &LD);
		assert_stopped(m->name, (unsigned)a, 0);
	}
}

/*
 * The rows a sweep runs over: with PMI_SWEEP_ALL=1 (`make test` and `make soak` set it) every
 * modelled row, under a second; run directly without it, one of each programming path (legacy
 * format 1 with the AAK100 reset, format 3, architectural).
 */
static const struct model_cpu *const sweep_some[] = {
	&model_nehalem, &model_skylake, &model_ptl_p, NULL,
};

static void sweep_rows(void (*fn)(const struct model_cpu *m))
{
	const char *all = getenv("PMI_SWEEP_ALL");

	if (!all || strcmp(all, "1")) {
		for (unsigned c = 0; sweep_some[c]; c++)
			fn(sweep_some[c]);
		return;
	}
	for (unsigned c = 0; model_cpus[c]; c++)
		fn(model_cpus[c]);
	for (unsigned c = 0; model_arch_cpus[c]; c++)
		fn(model_arch_cpus[c]);
}

static void test_stop_sweep(void **state)
{
	(void)state;
	sweep_rows(sweep_stop);
}

/*
 * H1: the same PMI landing late, after j more steps (MSR accesses, the drain's records,
 * events): a PMI inside pebs_stop's own drain must not drain the same records again.
 */
static void test_stop_late_sweep(void **state)
{
	const struct model_cpu *const cpus[] = { &model_skylake, &model_ptl_p, &model_icelake_sp,
						 &model_nehalem };
	/* every lateness 1..119 on four rows with PMI_SWEEP_ALL=1 (make test, make soak); without
	 * two rows, every lateness up to 8 (inside the first records of the drain) and then
	 * doubling steps to the end of it */
	const char *all = getenv("PMI_SWEEP_ALL");
	bool full = all && !strcmp(all, "1");

	(void)state;
	for (unsigned c = 0; c < (full ? 4u : 2u); c++) {
		for (uint64_t j = 1; j < 120; j = full || j < 8 ? j + 1 : j * 2) {
			assert_int_equal(start(cpus[c], 97, 8192), 0);
			pending_threshold(cpus[c], 97, 1);
			k.step = true;	/* every record handed over is a step */
			model_pmi_late(j);	/* the pending PMI lands j steps from now */
			pebs_stop(&s);
			model_pmi_late(0);
			model_pmi_flush();
			assert_stopped(cpus[c]->name, (unsigned)j, 0);
		}
	}
}

/*
 * H1 + H13: pebs_start with stale GLOBAL_STATUS (the DS threshold bit and a counter
 * overflow, as an earlier session or firmware left them) and a PMI pending, taken before
 * each MSR access of the start in turn, on every PEBS row: the session then samples three
 * buffers' worth without a drop, and each record drains once.
 */
static void sweep_start(const struct model_cpu *m)
{
	/* the buffer-threshold bit of the CPU's kind and a counter overflow */
	uint64_t n, a0, stale = (m->arch_caps ? GLOBAL_STATUS_ARCH_PEBS : GLOBAL_STATUS_OVF_BUF) | 1;

	pmu_fixture_probe(m, &ci, &caps);
	a0 = model_msr_accesses();
	assert_int_equal(begin(97, 8192), 0);
	n = model_msr_accesses() - a0;	/* every access of pebs_start */
	for (uint64_t a = 1; a <= n + 1; a++) {
		pmu_fixture_probe(m, &ci, &caps);
		model_set_global_status(stale);
		model_pmi_delivery(false);
		model_raise_pmi();
		model_pmi_delivery(true);
		model_pmi_hold_until_access(a);
		assert_int_equal(begin(97, 8192), 0);
		model_pmi_hold_until_access(0);
		model_pmi_flush();
		model_feed(m->ll_event, 98 * 3 * s.geom.nrec, &LD);
		if (model_stats()->dropped)
			fail_msg("%s, access %llu: %llu records dropped: the threshold PMI never "
				 "came (GLOBAL_STATUS stale)", m->name, (unsigned long long)a,
				 (unsigned long long)model_stats()->dropped);
		pebs_stop(&s);
		assert_stopped(m->name, (unsigned)a, 0);
	}
}

static void test_start_sweep(void **state)
{
	const char *all = getenv("PMI_SWEEP_ALL");

	(void)state;
	if (all && !strcmp(all, "1")) {
		sweep_rows(sweep_start);
		return;
	}
	sweep_start(&model_skylake);	/* the DS path and the arch path */
	sweep_start(&model_ptl_p);
}

/* H13 on its own: STATUS[62] left set before the session (no PMI pending). */
static void test_stale_status(void **state)
{
	(void)state;
	for (unsigned c = 0; model_cpus[c]; c++) {
		const struct model_cpu *m = model_cpus[c];

		pmu_fixture_probe(m, &ci, &caps);
		model_set_global_status(GLOBAL_STATUS_OVF_BUF);
		assert_int_equal(begin(97, 8192), 0);
		model_feed(m->ll_event, 98 * 3 * s.geom.nrec, &LD);
		assert_int_equal(model_stats()->dropped, 0);
		assert_true(s.st.pmis >= 2);
		pebs_stop(&s);
		assert_stopped(m->name, c, 0);
	}
}

/*
 * H6: the threshold PMI taken late by as many records as the documented headroom (Linux
 * large PEBS: one record per PEBS-capable counter below the absolute maximum, at least 2)
 * loses nothing; one record later than that is dropped and counted.
 */
static void late_by(const struct model_cpu *m, uint64_t sav, uint64_t recs, bool drop)
{
	assert_int_equal(start(m, sav, 8192), 0);
	model_pmi_late(recs * (sav + 1));
	model_feed(m->ll_event, (sav + 1) * 4 * s.geom.nrec, &LD);
	model_pmi_late(0);
	if (!drop && model_stats()->dropped)
		fail_msg("%s: PMI late by %llu records (headroom %llu): %llu dropped", m->name,
			 (unsigned long long)recs, (unsigned long long)headroom(),
			 (unsigned long long)model_stats()->dropped);
	if (drop)
		assert_true(model_stats()->dropped > 0 && s.st.dropped > 0);
	pebs_stop(&s);
	assert_int_equal(k.n, model_stats()->records_written);
	pmu_fixture_assert_clean();
}

static void test_late_headroom(void **state)
{
	const struct model_cpu *const *rows[] = { model_cpus, model_arch_cpus };

	(void)state;
	for (unsigned r = 0; r < 2; r++)
		for (unsigned c = 0; rows[r][c]; c++) {
			const struct model_cpu *m = rows[r][c];
			uint64_t h;

			assert_int_equal(start(m, 97, 8192), 0);
			h = headroom();
			pebs_stop(&s);
			if (h < 2)
				fail_msg("%s: threshold %llu of %llu records: room for one record "
					 "after the threshold only", m->name,
					 (unsigned long long)s.geom.thresh_rec,
					 (unsigned long long)s.geom.nrec);
			late_by(m, 97, h, false);
			late_by(m, 97, h + 2, true);
		}
}

/*
 * H11: the core clock (pebs/cycles.c, fixed counter 1 or its GP fallback) counts every
 * cycle of a PEBS measurement, across the session's start and its PMIs.
 */
static void core_clock(const struct model_cpu *m)
{
	struct pmu_cycles pc;
	uint64_t t0, t1, n, keep;

	pmu_fixture_probe(m, &ci, &caps);
	if (pmu_cycles_init(&pc, &caps) || !pc.fixed)
		return;	/* the GP fallback counts 0x3C, which the model does not feed */
	keep = model_msr(MSR_IA32_PERF_GLOBAL_CTRL);
	t0 = pmu_cycles_read(&pc);
	assert_int_equal(begin(97, 8192), 0);
	n = 98 * 2 * s.geom.nrec;
	model_feed(m->ll_event, n, &LD);
	assert_true(s.st.pmis >= 1);
	t1 = model_msr(MSR_IA32_FIXED_CTR(1));	/* not through the read: no re-enable */
	if (t1 - t0 != n * 7)
		fail_msg("%s: core clock counted %llu of %llu cycles across %llu PMIs", m->name,
			 (unsigned long long)(t1 - t0), (unsigned long long)(n * 7),
			 (unsigned long long)s.st.pmis);
	pebs_stop(&s);
	assert_int_equal(model_msr(MSR_IA32_PERF_GLOBAL_CTRL), keep);
	pmu_fixture_assert_clean();
}

static void test_core_clock_across_pmi(void **state)
{
	(void)state;
	for (unsigned c = 0; model_cpus[c]; c++)
		core_clock(model_cpus[c]);
	for (unsigned c = 0; model_arch_cpus[c]; c++)
		core_clock(model_arch_cpus[c]);
}

/* H12: a previous user left PMC0-3 near overflow; the AAK100 reset clears them first. */
static void test_nhm_pmcs_cleared(void **state)
{
	(void)state;
	pmu_fixture_probe(&model_nehalem, &ci, &caps);
	for (unsigned i = 0; i < 4; i++)
		wrmsr(MSR_IA32_PMC(i), 0xfffffff0u);
	assert_int_equal(begin(97, 8192), 0);
	pmu_fixture_assert_clean();
	model_feed(model_nehalem.ll_event, 98 * 100, &LD);
	pebs_stop(&s);
	assert_stopped("nehalem", 0, 0);
}

/* The knobs themselves: a late PMI lands after exactly n steps, a held one just before the
 * k-th MSR access (the handler's own accesses not counted), busy counting feeds each access. */
static uint64_t seen_at;

static void knob_handler(struct trap_frame *f)
{
	(void)f;
	seen_at = model_msr_accesses();
	wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, 0);
	wrmsr(MSR_IA32_PERF_GLOBAL_OVF_CTRL, rdmsr(MSR_IA32_PERF_GLOBAL_STATUS));
	apic_pmi_rearm();
}

static void test_model_knobs(void **state)
{
	uint64_t v, a0;

	(void)state;
	pmu_fixture_probe(&model_skylake, &ci, &caps);
	apic_set_pmi_handler(knob_handler);
	model_pmi_late(5);
	model_raise_pmi();
	for (unsigned i = 0; i < 4; i++)
		model_step();
	assert_int_equal(model_stats()->pmis_delivered, 0);
	model_step();
	assert_int_equal(model_stats()->pmis_delivered, 1);
	model_pmi_late(0);
	a0 = model_msr_accesses();
	model_pmi_hold_until_access(3);
	model_raise_pmi();
	(void)rdmsr_safe(MSR_IA32_PERF_GLOBAL_CTRL, &v);
	(void)rdmsr_safe(MSR_IA32_PERF_GLOBAL_CTRL, &v);
	assert_int_equal(model_stats()->pmis_delivered, 1);
	(void)rdmsr_safe(MSR_IA32_PERF_GLOBAL_CTRL, &v);
	assert_int_equal(model_stats()->pmis_delivered, 2);
	assert_int_equal(seen_at, a0 + 3);
	assert_int_equal(model_msr_accesses(), a0 + 3);
	wrmsr(MSR_IA32_PERFEVTSEL(0), 0x00c0 | EVTSEL_EN | EVTSEL_OS | EVTSEL_USR);
	wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, 1);
	model_busy(0x00c0, 2, NULL);
	(void)rdmsr_safe(MSR_IA32_PMC(0), &v);
	assert_int_equal(v, 2);
	(void)rdmsr_safe(MSR_IA32_PMC(0), &v);
	assert_int_equal(v, 4);
	model_busy(0, 0, NULL);
	apic_set_pmi_handler(NULL);
	pmu_fixture_assert_clean();
}

/* The seeded scenario over a fixed set of seeds (make soak runs many more). */
static void test_seeds(void **state)
{
	char why[256];

	(void)state;
	for (uint64_t seed = 1; seed <= 24; seed++)
		if (pmi_scenario(seed, why, sizeof(why)))
			fail_msg("seed %llu: %s (PMI_SEED=%llu build/host/tests/pmi_hostile_test)",
				 (unsigned long long)seed, why, (unsigned long long)seed);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model_knobs),
		cmocka_unit_test(test_stop_sweep),
		cmocka_unit_test(test_stop_late_sweep),
		cmocka_unit_test(test_start_sweep),
		cmocka_unit_test(test_stale_status),
		cmocka_unit_test(test_late_headroom),
		cmocka_unit_test(test_core_clock_across_pmi),
		cmocka_unit_test(test_nhm_pmcs_cleared),
		cmocka_unit_test(test_seeds),
	};
	const char *one = getenv("PMI_SEED");
	int r;

	if (one) {	/* make soak: one seed, its reason on failure */
		char why[256];
		uint64_t seed = strtoull(one, NULL, 0);

		r = pmi_scenario(seed, why, sizeof(why));
		if (r)
			printf("%s\n", why);
		model_fini();
		return r ? 1 : 0;
	}
	r = cmocka_run_group_tests(tests, NULL, NULL);
	model_fini();
	return r;
}
