/*
 * pmu_arch_test.c: the driver's architectural-PEBS path (pebs/arch_caps.c, arch_program.c,
 * the shared pmi.c) against the PMU model's arch rows (Panther Lake P and E, Clearwater
 * Forest, Diamond Rapids; tests/model/pmu_model_arch.c): probe (CPUID 23H, format 0xF) ->
 * program (IA32_PEBS_BASE, CFG_C with the AUX group, INDEX) -> records -> threshold PMIs on
 * GLOBAL_STATUS[54] -> drain by the write offset -> teardown restoring every register as
 * found; fragments joined; a record cut at the buffer's end; the probe's SKIP reasons; the
 * model's rules (docs/arch-pebs.md).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/cpu.h"
#include "kernel/hw.h"
#include "model/pmu_fixture.h"
#include "model/pmu_model.h"
#include "pebs/arch_msr.h"
#include "pebs/caps.h"
#include "pebs/msr.h"
#include "pebs/pebs.h"
#include "pebs/record.h"

static struct pebs_caps caps;
static struct cpu_info ci;

struct sink {
	uint64_t n, bad, frags, lat_sum;
	unsigned counter;
};

static void sink_fn(void *ctx, const uint8_t *rec, size_t len)
{
	struct sink *k = ctx;
	struct pebs_walker w;
	struct pebs_record r;
	unsigned n = 0;

	pebs_walk_init(&w, rec, len, PEBS_FMT_ARCH, 0);
	while (pebs_walk_next(&w, &r)) {
		n++;
		k->frags += r.fragments;
		k->lat_sum += r.latency;
		if (r.err || r.size != len || !(r.valid & PEBS_F_AUX) || r.addr != 0x200040 ||
		    r.eventing_ip != 0x401000 || r.applicable_counters != 1ull << k->counter)
			k->bad++;
	}
	k->n += n;
	if (n != 1)
		k->bad++;	/* the drain hands over exactly one record per call */
}

static void start(struct pebs_session *s, struct sink *k, enum pebs_kind kind, bool counters)
{
	struct pebs_config cfg;

	memset(s, 0, sizeof(*s));
	memset(k, 0, sizeof(*k));
	memset(&cfg, 0, sizeof(cfg));
	cfg.kind = kind;
	cfg.counter = -1;
	cfg.sav = 97;
	cfg.ldlat = 3;
	cfg.buf_bytes = 8192;
	cfg.counters = counters;
	cfg.sink = sink_fn;
	cfg.sink_ctx = k;
	if (pebs_start(s, &caps, &cfg))
		fail_msg("%s: pebs_start: %s", model_cpu()->name, s->err);
	k->counter = s->counter;
	pmu_fixture_assert_clean();
}

static void cycle(const struct model_cpu *m, enum pebs_kind kind)
{
	struct model_load ld = { 0x200040, 0x1, 57, 0x401000 };
	struct pebs_session s;
	struct sink k;
	uint64_t n = 20000;

	pmu_fixture_probe(m, &ci, &caps);
	assert_true(pebs_caps_pebs_ok(&caps, NULL));
	assert_true(pebs_caps_ll_ok(&caps, NULL));
	/* state as found: a threshold and a fixed counter someone else left programmed */
	assert_int_equal(wrmsr_safe(MSR_PEBS_LD_LAT_THRESHOLD, 100), 0);
	assert_int_equal(wrmsr_safe(MSR_IA32_FIXED_CTR_CTRL, 0x3), 0);
	assert_int_equal(wrmsr_safe(MSR_IA32_PERF_GLOBAL_CTRL, GLOBAL_FIXED(0)), 0);
	start(&s, &k, kind, false);
	assert_true(s.arch);
	assert_int_equal(model_msr(MSR_IA32_PEBS_BASE), (uint64_t)(uintptr_t)s.buf | 1);
	assert_int_equal(model_msr(MSR_IA32_PMC_GP_CFG_C(s.counter)),
			 CFG_C_PEBS_EN | CFG_C_AUX | ((0 - 97ull) & 0xffffffff));
	/* threshold a record per PEBS counter below the end (pebs_ds_headroom) */
	assert_int_equal(s.geom.rec_size, 128);
	assert_int_equal(s.geom.nrec - s.geom.thresh_rec,
			 pebs_ds_headroom((unsigned)__builtin_popcount(pebs_caps_pebs_gp(&caps)),
					  (unsigned)__builtin_popcount(caps.arch_pebs_fixed)));
	assert_int_equal(model_msr(MSR_IA32_PEBS_INDEX),
			 ARCH_INDEX_EN | (s.geom.thresh_rec * 128 / 16) << 36);
	model_log_clear();
	model_feed(kind == PEBS_LOAD_LATENCY ? m->ll_event : m->st_event, n, &ld);
	pmu_fixture_assert_clean();
	assert_int_equal(model_stats()->records_written, n / 98);
	assert_true(model_stats()->pmis_delivered >= 3);	/* a PMI per thresh_rec records */
	assert_non_null(strstr(model_log(), "ctrl=0 status ack rearm ctrl=on"));
	pebs_stop(&s);
	pmu_fixture_assert_clean();
	assert_int_equal(k.n, model_stats()->records_written);
	assert_int_equal(k.bad, 0);
	assert_int_equal(k.frags, k.n);
	assert_int_equal(s.st.records, k.n);
	assert_int_equal(s.st.bad + s.st.full + s.st.dropped + s.st.spurious, 0);
	assert_int_equal(s.st.pmis, model_stats()->pmis_delivered);
	if (kind == PEBS_LOAD_LATENCY)
		assert_int_equal(k.lat_sum, 57 * k.n);
	/* teardown: every register as found */
	assert_int_equal(model_msr(MSR_IA32_PEBS_BASE), 0);
	assert_int_equal(model_msr(MSR_IA32_PEBS_INDEX), 0);
	assert_int_equal(model_msr(MSR_IA32_PMC_GP_CFG_C(s.counter)), 0);
	assert_int_equal(model_msr(MSR_IA32_PERFEVTSEL(s.counter)), 0);
	assert_int_equal(model_msr(MSR_PEBS_LD_LAT_THRESHOLD), 100);
	assert_int_equal(model_msr(MSR_IA32_FIXED_CTR_CTRL), 0x3);
	assert_int_equal(model_msr(MSR_IA32_PERF_GLOBAL_CTRL), GLOBAL_FIXED(0));
	assert_int_equal(model_msr(MSR_IA32_PERF_GLOBAL_STATUS), 0);
}

static void test_cycle(void **state)
{
	(void)state;
	for (unsigned k = 0; model_arch_cpus[k]; k++) {
		cycle(model_arch_cpus[k], PEBS_LOAD_LATENCY);
		cycle(model_arch_cpus[k], PEBS_STORE);
	}
}

static void test_probe(void **state)
{
	static const char *const row[] = {
		"Panther Lake (arch PEBS)", "Darkmont (PTL E, arch PEBS)",
		"Clearwater Forest (arch PEBS)", "Diamond Rapids (arch PEBS)",
		"Nova Lake (Coyote Cove)", "Nova Lake (Arctic Wolf)",
	};

	(void)state;
	for (unsigned k = 0; model_arch_cpus[k]; k++) {
		pmu_fixture_probe(model_arch_cpus[k], &ci, &caps);
		assert_int_equal(caps.pebs_fmt, 0xf);
		assert_true(caps.arch_ext);
		assert_int_equal(caps.arch_caps, 0x60020378u);
		assert_non_null(caps.uarch);
		assert_string_equal(caps.uarch->name, row[k]);
		assert_int_equal(pebs_caps_pebs_gp(&caps), model_arch_cpus[k]->arch_pebs_gp);
	}
}

/* The gate: each missing piece gives its own SKIP reason; nothing is programmed. */
static void test_skip_reasons(void **state)
{
	struct model_cpu c = model_dmr;
	struct pebs_session s;
	struct pebs_config cfg;
	const char *why;

	(void)state;
	c.arch_caps = 0;	/* no leaf 23H */
	pmu_fixture_probe(&c, &ci, &caps);
	assert_false(pebs_caps_pebs_ok(&caps, &why));
	assert_string_equal(why, "IA32_PERF_CAPABILITIES[11:8] = 0xf but CPUID.(07H,1):EAX[8] "
			    "= 0: leaf 23H not enumerated");
	c.arch_caps = 0x20000000;	/* GPR only: no AUX group for load latency */
	pmu_fixture_probe(&c, &ci, &caps);
	assert_true(pebs_caps_pebs_ok(&caps, NULL));
	assert_false(pebs_caps_ll_ok(&caps, &why));
	assert_string_equal(why, "CPUID.23H.4:EBX[30] = 0: no arch-PEBS AUX group (CFG_C[62])");
	memset(&s, 0, sizeof(s));
	pebs_config_init(&cfg, PEBS_LOAD_LATENCY, NULL, NULL);
	assert_int_equal(pebs_start(&s, &caps, &cfg), -1);
	assert_int_equal(model_msr(MSR_IA32_PEBS_INDEX), 0);
	c = model_cwf;
	c.arch_pebs_gp = 0;
	pmu_fixture_probe(&c, &ci, &caps);
	assert_false(pebs_caps_pebs_ok(&caps, &why));
	assert_string_equal(why, "CPUID.23H.5:EAX = 0x0: no PEBS-capable GP counter among 8");
}

/* Every record in two fragments; the buffer fills with PMIs held off: the record at the end
 * is cut after its first fragment, FULL is set, the drain counts it and re-arms. */
static void test_fragments_at_end(void **state)
{
	struct model_load ld = { 0x200040, 0x1, 57, 0x401000 };
	struct pebs_session s;
	struct sink k;

	(void)state;
	pmu_fixture_probe(&model_ptl_p, &ci, &caps);
	model_arch_split(true);
	start(&s, &k, PEBS_LOAD_LATENCY, false);
	model_pmi_delivery(false);
	model_feed(model_ptl_p.ll_event, 98 * 60, &ld);	/* 60 assists, 56 fit */
	assert_int_equal(model_stats()->records_written, 57);	/* 56 whole + 1 cut */
	assert_true(model_msr(MSR_IA32_PEBS_INDEX) & ARCH_INDEX_FULL);
	model_pmi_delivery(true);
	model_pmi_flush();
	pmu_fixture_assert_clean();
	assert_int_equal(k.n, 56);
	assert_int_equal(k.frags, 2 * 56);
	assert_int_equal(k.bad, 0);
	assert_int_equal(s.st.bad, 1);		/* the cut record: counted, not handed on */
	assert_int_equal(s.st.full, 1);
	assert_int_equal(s.st.dropped, 1);	/* counter found past overflow, reloaded */
	assert_int_equal(ARCH_INDEX_WR(model_msr(MSR_IA32_PEBS_INDEX)), 0);
	assert_false(model_msr(MSR_IA32_PEBS_INDEX) & ARCH_INDEX_FULL);
	model_feed(model_ptl_p.ll_event, 98 * 2, &ld);	/* re-armed: records again */
	pebs_stop(&s);
	pmu_fixture_assert_clean();
	assert_int_equal(k.n, 58);
}

/* The model's arch rules, each broken once by hand. */
static void test_model_rules(void **state)
{
	(void)state;
	pmu_fixture_probe(&model_dmr, &ci, &caps);
	assert_int_equal(wrmsr_safe(MSR_IA32_PEBS_BASE, 0x1010), 13);	/* 11:4 reserved */
	assert_int_equal(wrmsr_safe(MSR_IA32_PEBS_INDEX, 1ull << 63), 13);
	assert_int_equal(wrmsr_safe(MSR_IA32_PMC_GP_CFG_C(0), 1ull << 39), 13);
	assert_int_equal(wrmsr_safe(MSR_IA32_PEBS_ENABLE, 1), 13);	/* no DS path here */
	assert_int_equal(model_violation_count(), 0);
	assert_int_equal(wrmsr_safe(MSR_IA32_PMC_FX_CFG_C(0), CFG_C_PEBS_EN), 13);
	assert_true(model_has_violation("PEBS_EN on fixed counter 0"));
	model_clear_violations();
	assert_int_equal(wrmsr_safe(MSR_IA32_PEBS_INDEX, ARCH_INDEX_EN), 0);
	assert_true(model_has_violation("INDEX.EN with IA32_PEBS_BASE = 0"));
	model_clear_violations();
	assert_int_equal(wrmsr_safe(MSR_IA32_PEBS_BASE, 0x7000), 0);
	assert_true(model_has_violation("not mapped"));
	model_clear_violations();
	/* load latency armed without the AUX group */
	assert_int_equal(wrmsr_safe(MSR_IA32_PMC_GP_CFG_C(2), CFG_C_PEBS_EN | 0xffffff9f), 0);
	assert_int_equal(wrmsr_safe(MSR_IA32_PERFEVTSEL(2), 0x4301cd), 0);
	assert_int_equal(wrmsr_safe(MSR_IA32_PERF_GLOBAL_CTRL, 1u << 2), 0);
	assert_true(model_has_violation("without CFG_C.AUX"));
	assert_true(model_has_violation("without a mapped IA32_PEBS_BASE"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_probe),
		cmocka_unit_test(test_cycle),
		cmocka_unit_test(test_skip_reasons),
		cmocka_unit_test(test_fragments_at_end),
		cmocka_unit_test(test_model_rules),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);

	model_fini();
	return rc;
}
