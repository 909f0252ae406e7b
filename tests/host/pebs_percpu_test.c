/*
 * pebs_percpu_test.c: per-CPU PEBS (pebs/percpu.h, issue 15) on a modelled hybrid part
 * (tests/model/pmu_model.h, model_init_cpus): Alder Lake 06_97 with a Golden Cove P-core
 * (CPUID.1AH core type 40H, record format 5 as modelled) and a Gracemont E-core (20H,
 * format 4), each with its own MSRs, DS area and PMI. Each CPU probes itself, measures with
 * its own session and decodes with its own core type's data-source table (docs/hardware.md
 * §5.3: _skl on the P-core, _grt on the E-core), so the same raw code 06H reads as a clean
 * snoop on one and as HitM on the other, and the snoop / HITM / remote verdicts
 * (loads/pv_xsrc.h) pass or fail accordingly. Two sessions run at once with PMIs routed by
 * APIC id to their own buffers; a CPU refuses to program with another CPU's state.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "loads/pv_xsrc.h"
#include "model/pmu_model.h"
#include "pebs/msr.h"
#include "pebs/percpu.h"

static const struct model_cpu *const adl[] = { &model_goldencove, &model_gracemont };
static struct pebs_cpu pc[2];

struct feed {
	uint64_t code, other;	/* aux codes: `pct` % code, the rest other */
	unsigned pct;
	uint64_t chunks, max_chunks;
};

static bool work(void *ctx)
{
	struct feed *f = ctx;
	struct model_load a = { 0x200040, f->code, 60, 0x401000 };
	struct model_load b = { 0x200080, f->other, 60, 0x401000 };

	model_feed(model_cpu()->ll_event, 10 * f->pct, &a);
	model_feed(model_cpu()->ll_event, 10 * (100 - f->pct), &b);
	return ++f->chunks < f->max_chunks;
}

static void assert_clean(unsigned n)
{
	model_select(n);
	for (unsigned i = 0; i < model_violation_count(); i++)
		print_error("CPU %u model violation: %s\n", n, model_violation(i));
	assert_int_equal(model_violation_count(), 0);
}

static int setup(void **state)
{
	(void)state;
	model_init_cpus(adl, 2);
	for (unsigned i = 0; i < 2; i++) {
		model_select(i);
		pebs_cpu_init(&pc[i]);
	}
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	model_fini();
	return 0;
}

static void test_each_cpu_probes_itself(void **state)
{
	(void)state;
	assert_int_equal(pc[0].apic_id, 0);
	assert_int_equal(pc[1].apic_id, 1);
	assert_true(pc[0].caps.hybrid && pc[1].caps.hybrid);
	assert_int_equal(pc[0].caps.core_type, 0x40);
	assert_int_equal(pc[1].caps.core_type, 0x20);
	assert_int_equal(pebs_cpu_core(&pc[0]), PEBS_CORE_P);
	assert_int_equal(pebs_cpu_core(&pc[1]), PEBS_CORE_E);
	assert_int_equal(pc[0].caps.pebs_fmt, 5);
	assert_int_equal(pc[1].caps.pebs_fmt, 4);
	assert_string_equal(pc[0].caps.uarch->name, "Golden/Raptor Cove (ADL/RPL P)");
	assert_string_equal(pc[1].caps.uarch->name, "Gracemont");
}

/* Measure on `cpu` with its own state; the verdict for `want`. */
static enum pv_result measure(unsigned n, uint64_t code, uint64_t other, enum pv_xsrc want,
			      char *d)
{
	struct feed f = { .code = code, .other = other, .pct = 90, .max_chunks = 400 };
	struct pebs_measure_cfg cfg = { .work = work, .work_ctx = &f, .target_records = 1000 };
	uint64_t written, pmis;

	model_select(n);
	written = model_stats()->records_written;
	pmis = model_stats()->pmis_delivered;
	pebs_config_init(&cfg.pc, PEBS_LOAD_LATENCY, NULL, NULL);
	cfg.pc.sav = 37;
	assert_int_equal(pebs_cpu_measure(&pc[n], &cfg), 0);
	assert_true(pc[n].meas.agg.records >= 1000);
	assert_int_equal(pc[n].meas.agg.records, model_stats()->records_written - written);
	assert_int_equal(pc[n].meas.st.pmis, model_stats()->pmis_delivered - pmis);
	assert_clean(n);
	return pv_xsrc(&pc[n].meas.agg, pc[n].meas.model, want, d, 200);
}

static void test_same_code_per_core_type(void **state)
{
	char d[200];

	(void)state;
	/* 06H: Table A + _skl on the P-core: L3 snoop Hit; _grt on the E-core: HitM */
	assert_int_equal(measure(0, 0x06, 0x04, PV_X_SNOOP, d), PV_PASS);
	assert_string_equal(pc[0].meas.model->name, "Alder Lake-S P");
	assert_int_equal(pc[0].meas.format, 5);
	assert_int_equal(pv_xsrc(&pc[0].meas.agg, pc[0].meas.model, PV_X_HITM, d, 200), PV_FAIL);
	assert_int_equal(measure(1, 0x06, 0x04, PV_X_HITM, d), PV_PASS);
	assert_string_equal(pc[1].meas.model->name, "Alder Lake-S E");
	assert_int_equal(pc[1].meas.format, 4);
	assert_int_equal(pv_xsrc(&pc[1].meas.agg, pc[1].meas.model, PV_X_SNOOP, d, 200), PV_FAIL);
	/* the P-core's session is untouched by the E-core's run */
	assert_int_equal(pv_xsrc(&pc[0].meas.agg, pc[0].meas.model, PV_X_SNOOP, d, 200), PV_PASS);
}

static void test_remote_both_ways(void **state)
{
	char d[200];

	(void)state;
	/* 0BH remote DRAM on both tables; the codes named differ per core type */
	assert_int_equal(measure(0, 0x0B, 0x04, PV_X_REMOTE, d), PV_PASS);
	assert_non_null(strstr(d, "codes 09H 0BH 0CH 0DH"));
	assert_int_equal(measure(1, 0x0B, 0x04, PV_X_REMOTE, d), PV_PASS);
	assert_non_null(strstr(d, "codes 09H 0BH 0DH"));
	/* local L3 hits dominate: the remote verdict fails on both */
	assert_int_equal(measure(0, 0x04, 0x0B, PV_X_REMOTE, d), PV_FAIL);
	assert_int_equal(measure(1, 0x04, 0x0B, PV_X_REMOTE, d), PV_FAIL);
	/* 0CH is a remote cache (Fwd) on the P-core, not a remote code on the E-core */
	assert_int_equal(measure(0, 0x0C, 0x04, PV_X_REMOTE, d), PV_PASS);
	assert_int_equal(measure(1, 0x0C, 0x04, PV_X_REMOTE, d), PV_FAIL);
}

static void sink_count(void *ctx, const uint8_t *rec, size_t len)
{
	(void)rec;
	(void)len;
	++*(uint64_t *)ctx;
}

/* Both CPUs armed at once: each PMI drains only its own CPU's buffer. */
static void test_concurrent_sessions(void **state)
{
	static struct pebs_session s[2];
	struct model_load ld = { 0x200040, 0x06, 60, 0x401000 };
	uint64_t got[2] = { 0, 0 }, ds[2];
	struct pebs_config cfg;

	(void)state;
	memset(s, 0, sizeof(s));
	for (unsigned i = 0; i < 2; i++) {
		model_select(i);
		pebs_config_init(&cfg, PEBS_LOAD_LATENCY, NULL, NULL);
		cfg.sav = 11;
		cfg.buf_bytes = 4096;
		cfg.sink = sink_count;
		cfg.sink_ctx = &got[i];
		assert_int_equal(pebs_start(&s[i], &pc[i].caps, &cfg), 0);
		ds[i] = model_msr(MSR_IA32_DS_AREA);
		assert_int_equal(ds[i], (uint64_t)(uintptr_t)s[i].ds);
	}
	assert_true(ds[0] != ds[1]);
	for (unsigned round = 0; round < 20; round++) {
		model_select(0);
		model_feed(model_cpu()->ll_event, 12 * 300, &ld);	/* 300 records */
		model_select(1);
		model_feed(model_cpu()->ll_event, 12 * 100, &ld);	/* 100 records */
	}
	for (unsigned i = 0; i < 2; i++) {
		model_select(i);
		assert_true(s[i].st.pmis > 0);
		assert_int_equal(s[i].st.pmis, model_stats()->pmis_delivered);
		pebs_stop(&s[i]);
		assert_int_equal(got[i], model_stats()->records_written);
		assert_int_equal(s[i].st.records, got[i]);
		assert_clean(i);
	}
	assert_int_equal(got[0], 20 * 300);
	assert_int_equal(got[1], 20 * 100);
}

static void test_wrong_cpu_refused(void **state)
{
	struct feed f = { .code = 0x06, .other = 0x04, .pct = 90, .max_chunks = 4 };
	struct pebs_measure_cfg cfg = { .work = work, .work_ctx = &f };
	static struct pebs_session s0;
	struct pebs_cpu fresh;

	(void)state;
	pebs_config_init(&cfg.pc, PEBS_LOAD_LATENCY, NULL, NULL);
	memset(&s0, 0, sizeof(s0));
	model_select(0);
	assert_int_equal(pebs_start(&s0, &pc[0].caps, &cfg.pc), 0);	/* CPU 0 armed */
	model_select(1);
	assert_int_equal(pebs_cpu_measure(&pc[0], &cfg), -1);
	assert_string_equal(pc[0].meas.err, "PEBS state of APIC id 0 used on APIC id 1: a CPU "
			    "programs only its own PMU");
	assert_int_equal(model_msr(MSR_IA32_PERF_GLOBAL_CTRL), 0);
	assert_int_equal(model_msr(MSR_IA32_DS_AREA), 0);
	assert_int_equal(f.chunks, 0);
	memset(&fresh, 0, sizeof(fresh));
	assert_int_equal(pebs_cpu_measure(&fresh, &cfg), -1);
	assert_non_null(strstr(fresh.meas.err, "before pebs_cpu_init"));
	/* a PMI on a CPU without a session is re-armed, not handed to another CPU's session */
	model_raise_pmi();
	assert_int_equal(model_stats()->pmis_delivered, 1);
	assert_clean(1);
	assert_int_equal(s0.st.pmis, 0);
	model_select(0);
	pebs_stop(&s0);
	assert_clean(0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_each_cpu_probes_itself, setup, teardown),
		cmocka_unit_test_setup_teardown(test_same_code_per_core_type, setup, teardown),
		cmocka_unit_test_setup_teardown(test_remote_both_ways, setup, teardown),
		cmocka_unit_test_setup_teardown(test_concurrent_sessions, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wrong_cpu_refused, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
