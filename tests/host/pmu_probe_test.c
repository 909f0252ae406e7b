/*
 * pmu_probe_test.c: probe before trusting (issue 27: H3, H4, H5, H14, H15, H19) against the
 * hostile PMU model (tests/model/pmu_model_hostile.h): each knob and per-CPU rule, and the
 * exact SKIP reason or `# warning` the driver gives for it; then a fixed set of seeds of the
 * hostile mode, each with the one outcome its knobs call for.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/cpu.h"
#include "kernel/hw.h"
#include "loads/pebs_verdict.h"
#include "model/pmu_fixture.h"
#include "model/pmu_model.h"
#include "model/pmu_model_hostile.h"
#include "pebs/caps.h"
#include "pebs/cycles.h"
#include "pebs/msr.h"
#include "pebs/pebs.h"
#include "stubs/console_capture.h"

static struct pebs_caps caps;
static struct cpu_info ci;

/* model_init, the knobs as the CPU's state at reset, then the kernel's probe. */
static void probe_with(const struct model_cpu *m, const struct model_hostile *h)
{
	model_init(m);
	if (h)
		model_hostile(h);
	cpu_probe(&ci);
	pebs_caps_probe(&caps, &ci);
}

static void cfg_of(struct pebs_config *cfg, enum pebs_kind kind)
{
	pebs_config_init(cfg, kind, NULL, NULL);
	cfg->sav = 100;
	cfg->buf_bytes = 8192;
}

/* n loads above any threshold through the event the session programmed. */
static void feed(const struct pebs_session *s, uint64_t n)
{
	const struct model_load ld = { .addr = 0x200040, .dsrc = 1, .lat = 57, .ip = 0x401000 };

	model_feed(EVTSEL_CODE(s->evtsel), n, &ld);
}

static void warnings(char *out, size_t n)
{
	char b[200];
	size_t o = 0;

	out[0] = '\0';
	for (unsigned i = 0; pebs_caps_warning(&caps, i, b, sizeof(b)) && o < n; i++)
		o += (size_t)snprintf(out + o, n - o, "%s|", b);
}

/* H3: counters firmware enabled before the kernel are left alone, and said so. */
static void test_firmware_counters(void **state)
{
	struct model_hostile h = { .fw_gp = 0x1 };
	struct pebs_session s = { 0 };
	struct pebs_config cfg;
	struct pmu_cycles cyc;
	const char *why;
	char w[400];

	(void)state;
	probe_with(&model_skylake, &h);
	assert_int_equal(caps.fw_gp, 0x1);
	assert_true(pebs_caps_ll_ok(&caps, &why));
	warnings(w, sizeof(w));
	assert_string_equal(w, "IA32_PERFEVTSEL0 = 0x43003c: counters enabled before this kernel "
			    "(GP 0x1, fixed 0x0) belong to firmware and are left alone|");
	stub_console_reset();
	pebs_caps_print(&caps);
	assert_non_null(strstr(stub_console_text(), "# warning: IA32_PERFEVTSEL0 = 0x43003c"));
	cfg_of(&cfg, PEBS_LOAD_LATENCY);
	assert_int_equal(pebs_start(&s, &caps, &cfg), 0);
	assert_int_equal(s.counter, 1);		/* not PMC0 */
	feed(&s, 1000);
	pebs_stop(&s);
	assert_true(s.st.records > 0);
	cfg.counter = 0;	/* asked for firmware's counter: refused, not overwritten */
	assert_int_equal(pebs_start(&s, &caps, &cfg), -1);
	assert_string_equal(s.err, "Skylake: event 0x01cd cannot PEBS on counter 0 (allowed 0xe)");
	pmu_fixture_assert_clean();

	/* fixed counter 1 taken: the core clock falls back to a GP counter */
	h = (struct model_hostile){ .fw_fixed_ctrl = 0x30 };
	probe_with(&model_skylake, &h);
	assert_int_equal(caps.fw_fixed, 0x2);
	assert_int_equal(pmu_cycles_init(&cyc, &caps), 0);
	assert_false(cyc.fixed);
	assert_int_equal(cyc.gp, 2);	/* not PMC3: TSX_FORCE_ABORT (Q_TFA_PMC3) */
	warnings(w, sizeof(w));
	assert_string_equal(w, "IA32_FIXED_CTR_CTRL = 0x30: counters enabled before this kernel "
			    "(GP 0x0, fixed 0x2) belong to firmware and are left alone|");
	pmu_fixture_assert_clean();

	/* the load-latency counter itself taken (Sandy Bridge: PMC3 only) */
	h = (struct model_hostile){ .fw_gp = 0x8 };
	probe_with(&model_sandybridge, &h);
	assert_true(pebs_caps_pebs_ok(&caps, &why));
	assert_false(pebs_caps_ll_ok(&caps, &why));
	assert_string_equal(why, "Sandy/Ivy Bridge: load-latency counters 0x8 enabled by firmware "
			    "(IA32_PERFEVTSEL mask 0x8, EN[22])");
	/* Nehalem's AAK100 reset writes all four EVTSELs: refused */
	probe_with(&model_nehalem, &h);
	assert_false(pebs_caps_pebs_ok(&caps, &why));
	assert_string_equal(why, "IA32_PERFEVTSEL3 = 0x43003c enabled by firmware: the AAK100 "
			    "counter reset would overwrite it");
	/* every GP counter taken: no PMU */
	h = (struct model_hostile){ .fw_gp = 0xf };
	probe_with(&model_skylake, &h);
	assert_false(pebs_caps_pmu_ok(&caps, &why));
	assert_string_equal(why, "IA32_PERFEVTSEL0-3 all enabled by firmware (EN[22]): no free "
			    "counter");
	pmu_fixture_assert_clean();
}

/* H3: a hypervisor that accepts and drops PMU writes: SKIP naming the register, not "no
 * records". */
static void test_writes_dropped(void **state)
{
	struct model_hostile h = { .drop_writes = true };
	struct pebs_session s = { 0 };
	struct pebs_config cfg;
	const char *why;

	(void)state;
	probe_with(&model_skylake, &h);
	assert_false(pebs_caps_pmu_ok(&caps, &why));
	assert_string_equal(why, "IA32_A_PMC0 <- 0xffff read back 0x0: counter writes dropped "
			    "(emulated PMU)");
	assert_false(pebs_caps_ll_ok(&caps, &why));
	assert_string_equal(why, "IA32_A_PMC0 <- 0xffff read back 0x0: counter writes dropped "
			    "(emulated PMU)");
	cfg_of(&cfg, PEBS_LOAD_LATENCY);
	assert_int_equal(pebs_start(&s, &caps, &cfg), -1);
	assert_string_equal(s.err, why);
	probe_with(&model_nehalem, &h);	/* no full-width writes: the legacy alias */
	assert_false(pebs_caps_pmu_ok(&caps, &why));
	assert_string_equal(why, "IA32_PMC0 <- 0xffff read back 0x0: counter writes dropped "
			    "(emulated PMU)");
	pmu_fixture_assert_clean();
}

/* H14: MSR_PEBS_LD_LAT_THRESHOLD reads but ignores writes (ignore_msrs). */
static void test_ldlat_ignored(void **state)
{
	struct model_hostile h = { .ldlat_ignores_writes = true };
	const char *why;

	(void)state;
	probe_with(&model_icelake_sp, &h);
	assert_true(pebs_caps_pebs_ok(&caps, &why));
	assert_false(pebs_caps_ll_ok(&caps, &why));
	assert_string_equal(why, "MSR_PEBS_LD_LAT_THRESHOLD <- 0x123 read back 0x0: write ignored "
			    "(hypervisor)");
	probe_with(&model_icelake_sp, NULL);	/* a working one keeps the probe's value: */
	assert_true(pebs_caps_ll_ok(&caps, &why));	/* 0 (< 3) may not be written back */
	assert_int_equal(model_msr(MSR_PEBS_LD_LAT_THRESHOLD), 0x123);
	pmu_fixture_assert_clean();
}

/* H4: a cross-mapped counter overflows and never assists. */
static void test_cross_mapped(void **state)
{
	struct model_hostile h = { .xmap_gp = 0x1 };
	struct pebs_session s = { 0 };
	struct pebs_config cfg;
	char d[200];

	(void)state;
	probe_with(&model_icelake_sp, &h);
	cfg_of(&cfg, PEBS_LOAD_LATENCY);
	assert_int_equal(pebs_start(&s, &caps, &cfg), 0);
	assert_int_equal(s.counter, 0);
	feed(&s, 1000);
	pebs_stop(&s);
	assert_int_equal(s.st.records, 0);
	assert_int_equal(s.st.pebs_ovf, 1);
	assert_int_equal(pv_records(&s.st, s.counter, d, sizeof(d)), PV_SKIP);
	assert_string_equal(d, "IA32_PERF_GLOBAL_STATUS[0] set, 0 records: counter overflowed, no "
			    "PEBS assist: virtualised or cross-mapped counter");
	/* no overflow at all: still a plain failure */
	memset(&s.st, 0, sizeof(s.st));
	assert_int_equal(pv_records(&s.st, 0, d, sizeof(d)), PV_FAIL);
	assert_string_equal(d, "no records");
	pmu_fixture_assert_clean();
}

/* H15: IA32_MISC_ENABLE[7] clear (older KVM): trusted with a warning. */
static void test_emon_clear(void **state)
{
	struct model_cpu m = model_skylake;
	const char *why;
	char w[400];

	(void)state;
	m.misc_enable &= ~MISC_ENABLE_EMON;
	probe_with(&m, NULL);
	assert_true(pebs_caps_pmu_ok(&caps, &why));
	assert_true(pebs_caps_ll_ok(&caps, &why));
	warnings(w, sizeof(w));
	assert_string_equal(w, "IA32_MISC_ENABLE[7] = 0 (performance monitoring unavailable) but "
			    "CPUID.0AH reports perfmon version 4: trusted, as Linux does|");
	pmu_fixture_assert_clean();
}

/* H5, H19 (Q_HSW_PERIOD, Q_BDW_PERIOD): minimum periods clamped as Linux does, the model
 * checks each PEBS counter's reload period. */
static void test_min_period(void **state)
{
	static const struct {
		const struct model_cpu *m;
		enum pebs_kind kind;
		uint16_t event;
		uint64_t sav, want;
		const char *rule;
	} cases[] = {
		{ &model_nehalem, PEBS_LOAD_LATENCY, 0, 2, 32, "Linux nhm_limit_period" },
		{ &model_nehalem, PEBS_LOAD_LATENCY, 0, 33, 33, NULL },
		{ &model_haswell, PEBS_LOAD_LATENCY, 0, 2, 32, "Linux hsw_limit_period (HSW11)" },
		{ &model_haswell, PEBS_RAW, 0x01c0, 100, 128, "Linux hsw_limit_period (HSW11)" },
		{ &model_broadwell, PEBS_RAW, 0x01c0, 100, 128,
		  "Linux bdw_limit_period (BDM11, BDM55)" },
		{ &model_broadwell, PEBS_RAW, 0x01c0, 200, 192,
		  "Linux bdw_limit_period (BDM11, BDM55)" },
		{ &model_broadwell, PEBS_LOAD_LATENCY, 0, 2, 2, NULL },
	};

	(void)state;
	for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct pebs_session s = { 0 };
		struct pebs_config cfg;
		const char *rule = "x";

		probe_with(cases[k].m, NULL);
		cfg_of(&cfg, cases[k].kind);
		cfg.event = cases[k].event;
		cfg.sav = cases[k].sav;
		if (pebs_start(&s, &caps, &cfg))
			fail_msg("case %u: %s", k, s.err);
		assert_int_equal(s.cfg.sav, cases[k].want);
		assert_int_equal(pebs_limit_period(caps.uarch, EVTSEL_CODE(s.evtsel), cases[k].sav,
						   &rule), cases[k].want);
		if (cases[k].rule)
			assert_string_equal(rule, cases[k].rule);
		else
			assert_null(rule);
		feed(&s, 400);
		pebs_stop(&s);
		if (model_violation_count())
			fail_msg("case %u: %s", k, model_violation(0));
	}
}

/* H19 (Q_TFA_PMC3): PMC3 only with MSR_TSX_FORCE_ABORT[0]; cleared when PMC3 is not used. */
static void test_tfa_pmc3(void **state)
{
	struct pebs_session s = { 0 };
	struct pebs_config cfg;

	(void)state;
	probe_with(&model_skylake, NULL);
	assert_true(caps.tfa);
	cfg_of(&cfg, PEBS_LOAD_LATENCY);
	cfg.counter = 3;
	assert_int_equal(pebs_start(&s, &caps, &cfg), 0);
	assert_int_equal(model_msr(MSR_TSX_FORCE_ABORT), TFA_RTM_FORCE_ABORT);
	feed(&s, 500);
	pebs_stop(&s);
	assert_true(s.st.records > 0);
	cfg.counter = -1;
	assert_int_equal(pebs_start(&s, &caps, &cfg), 0);
	assert_int_equal(s.counter, 0);
	assert_int_equal(model_msr(MSR_TSX_FORCE_ABORT), 0);
	pebs_stop(&s);
	pmu_fixture_assert_clean();
}

/* H19 (Q_HT_ERRATUM): an event 0xD0-0xD3 never shares a counter index with a session on
 * another CPU (the SMT sibling: modelled CPUs 0 and 1). */
static void test_ht_erratum(void **state)
{
	static const struct model_cpu *const two[] = { &model_haswell, &model_haswell };
	struct pebs_session s0 = { 0 }, s1 = { 0 };
	struct pebs_config c0, c1;

	(void)state;
	model_init_cpus(two, 2);
	model_select(0);
	cpu_probe(&ci);
	pebs_caps_probe(&caps, &ci);
	cfg_of(&c0, PEBS_RAW);
	c0.event = 0x01d1;	/* MEM_LOAD_UOPS_RETIRED.L1_HIT */
	assert_int_equal(pebs_start(&s0, &caps, &c0), 0);
	assert_int_equal(s0.counter, 0);
	model_select(1);
	cfg_of(&c1, PEBS_STORE);	/* MEM_UOPS_RETIRED.ALL_STORES 0x82d0 */
	assert_int_equal(pebs_start(&s1, &caps, &c1), 0);
	assert_int_equal(s1.counter, 1);
	pebs_stop(&s1);
	c1.counter = 0;
	assert_int_equal(pebs_start(&s1, &caps, &c1), -1);
	assert_string_equal(s1.err, "BJ122/BV98/HSD29: counters 0x1 in use on another CPU, "
			    "exclusive with HT for event 0x82d0");
	model_select(0);
	pebs_stop(&s0);
	model_select(1);	/* the sibling gone: counter 0 is free again */
	assert_int_equal(pebs_start(&s1, &caps, &c1), 0);
	pebs_stop(&s1);
	assert_int_equal(model_cpu_violations(0) + model_cpu_violations(1), 0);
}

/* The reserved-bit rules per CPU (the model, SDM Vol. 4 Table 2-2, Vol. 3B 20.2). */
static void test_reserved_bits(void **state)
{
	(void)state;
	model_init(&model_sandybridge);	/* no RTM: IN_TX/IN_TXCP reserved */
	assert_int_equal(wrmsr_safe(MSR_IA32_PERFEVTSEL(0), EVTSEL_IN_TX), 13);
	assert_int_equal(wrmsr_safe(MSR_IA32_PERFEVTSEL(0), EVTSEL_ADAPTIVE), 13);
	assert_int_equal(wrmsr_safe(MSR_IA32_FIXED_CTR_CTRL, 1ull << 12), 13);	/* 3 fixed */
	assert_int_equal(wrmsr_safe(MSR_IA32_PERF_GLOBAL_OVF_CTRL, GLOBAL_STATUS_ASIF), 13);
	assert_int_equal(wrmsr_safe(MSR_IA32_PERF_GLOBAL_OVF_CTRL, 1ull << 4), 13);
	assert_int_equal(wrmsr_safe(MSR_IA32_PERF_GLOBAL_OVF_CTRL, GLOBAL_STATUS_OVF_BUF | 0xf |
				    GLOBAL_STATUS_UNC_OVF), 0);
	assert_int_equal(wrmsr_safe(MSR_TSX_FORCE_ABORT, 1), 13);
	model_init(&model_haswell);
	assert_int_equal(wrmsr_safe(MSR_IA32_PERFEVTSEL(0), EVTSEL_IN_TX | EVTSEL_IN_TXCP), 0);
	model_init(&model_skylake);	/* perfmon v4: STATUS_RESET, no PERF_METRICS */
	assert_int_equal(wrmsr_safe(MSR_IA32_PERF_GLOBAL_OVF_CTRL, GLOBAL_STATUS_ASIF), 0);
	assert_int_equal(wrmsr_safe(MSR_IA32_PERF_GLOBAL_OVF_CTRL, 1ull << 48), 13);
	model_init(&model_icelake_sp);	/* baseline: adaptive bits */
	assert_int_equal(wrmsr_safe(MSR_IA32_PERFEVTSEL(0), EVTSEL_ADAPTIVE | EVTSEL_IN_TX), 0);
	assert_int_equal(wrmsr_safe(MSR_IA32_FIXED_CTR_CTRL, FIXED_CTRL_ADAPTIVE(0) | 0xf000), 0);
	assert_int_equal(wrmsr_safe(MSR_IA32_PERF_GLOBAL_OVF_CTRL, 1ull << 48), 0);
	model_init(&model_gracemont);	/* no RTM */
	assert_int_equal(wrmsr_safe(MSR_IA32_PERFEVTSEL(0), EVTSEL_IN_TXCP), 13);
}

/*
 * The hostile mode: seeds 1..64 of model_hostile_seed on three CPUs. Each seed's knobs call
 * for exactly one outcome: the probe's reason (writes dropped; every counter firmware's; LD_LAT
 * ignored), the cross-mapped SKIP, or records; and never a model violation.
 */
static void test_hostile_seeds(void **state)
{
	static const struct model_cpu *const cpus[] = { &model_skylake, &model_icelake_sp,
							&model_haswell };
	unsigned outcomes[4] = { 0 };

	/* 64 seeds a row with PMI_SWEEP_ALL=1 (make test, make soak); 24 without (every outcome
	 * is reached by then) */
	const char *full = getenv("PMI_SWEEP_ALL");
	uint64_t nseeds = full && !strcmp(full, "1") ? 64 : 24;

	(void)state;
	for (unsigned c = 0; c < 3; c++) {
		const struct model_cpu *m = cpus[c];

		for (uint64_t seed = 1; seed <= nseeds; seed++) {
			struct model_hostile h;
			struct pebs_session s = { 0 };
			struct pebs_config cfg;
			uint32_t all = (1u << m->n_gp) - 1, free_ll;
			const char *why;
			char d[200];

			model_hostile_seed(seed, m->n_gp, &h);
			probe_with(m, &h);
			free_ll = m->ll_gp & all & ~h.fw_gp;
			if (h.drop_writes || !(all & ~h.fw_gp)) {
				assert_false(pebs_caps_pmu_ok(&caps, &why));
				assert_non_null(strstr(why, h.drop_writes ? "writes dropped" :
						       "all enabled by firmware"));
				outcomes[0]++;
			} else if (!free_ll) {
				assert_false(pebs_caps_ll_ok(&caps, &why));
				assert_non_null(strstr(why, "enabled by firmware"));
				outcomes[0]++;
			} else if (h.ldlat_ignores_writes) {
				assert_false(pebs_caps_ll_ok(&caps, &why));
				assert_non_null(strstr(why, "write ignored (hypervisor)"));
				outcomes[1]++;
			} else {
				unsigned ctr = (unsigned)__builtin_ctz(free_ll);

				cfg_of(&cfg, PEBS_LOAD_LATENCY);
				if (pebs_start(&s, &caps, &cfg))
					fail_msg("seed %llu: %s", (unsigned long long)seed, s.err);
				assert_int_equal(s.counter, ctr);
				feed(&s, 1000);
				pebs_stop(&s);
				if (h.xmap_gp & (1u << ctr)) {
					assert_int_equal(pv_records(&s.st, ctr, d, sizeof(d)), PV_SKIP);
					outcomes[2]++;
				} else {
					assert_int_equal(pv_records(&s.st, ctr, d, sizeof(d)), PV_PASS);
					outcomes[3]++;
				}
			}
			if (model_violation_count())
				fail_msg("%s seed %llu: %s", m->name, (unsigned long long)seed,
					 model_violation(0));
		}
	}
	/* the seeds reach every outcome */
	for (unsigned k = 0; k < 4; k++)
		assert_true(outcomes[k] > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_firmware_counters),
		cmocka_unit_test(test_writes_dropped),
		cmocka_unit_test(test_ldlat_ignored),
		cmocka_unit_test(test_cross_mapped),
		cmocka_unit_test(test_emon_clear),
		cmocka_unit_test(test_min_period),
		cmocka_unit_test(test_tfa_pmc3),
		cmocka_unit_test(test_ht_erratum),
		cmocka_unit_test(test_reserved_bits),
		cmocka_unit_test(test_hostile_seeds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
