/*
 * pmu_test.c: the PEBS driver (pebs/caps, uarch, ds, program, pmi) against the SDM-rule PMU
 * model (tests/model/pmu_model.h), per modelled CPU: probe -> program -> N events -> drain ->
 * teardown; records drained = records written; drops at a full buffer; PMI ack/re-arm order;
 * state after teardown; driver errors; DS geometry. Capabilities and counting are in
 * pmu_caps_test.c; the model itself is tested by the wrong sequences in pmu_rules_test.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/cpu.h"
#include "model/pmu_model.h"
#include "model/pmu_fixture.h"
#include "pebs/caps.h"
#include "pebs/msr.h"
#include "pebs/pebs.h"

static struct pebs_caps caps;
static struct cpu_info ci;

struct sink {
	uint64_t n, bad_size, bad_counter, bad_lat, bad_addr;
	unsigned expect_size;
	uint64_t expect_counter;
	bool adaptive, ll;
	unsigned fmt;
};

static uint64_t get(const uint8_t *p, unsigned off)
{
	uint64_t v;

	memcpy(&v, p + off, 8);
	return v;
}

static void sink_fn(void *ctx, const uint8_t *rec, size_t len)
{
	struct sink *s = ctx;
	uint64_t applicable, lat, addr = 0x200040;

	s->n++;
	if (len != s->expect_size)
		s->bad_size++;
	if (s->adaptive) {
		applicable = get(rec, 0x10);
		lat = get(rec, 0x30);
		if (model_cpu()->split_latency)	/* cache latency 47:32 (GLC/GRT and later) */
			lat = (lat >> 32) & 0xffff;
		addr = get(rec, 0x20);
		if ((get(rec, 0) >> 48) != len || (get(rec, 0) & PEBS_DATACFG_MEMINFO) == 0)
			s->bad_size++;
	} else {
		applicable = s->fmt >= 1 ? get(rec, 0x90) : s->expect_counter;
		lat = s->fmt >= 1 ? get(rec, 0xa8) : 0;
		addr = s->fmt >= 1 ? get(rec, 0x98) : addr;
		if (get(rec, 0x08) != 0x401003)	/* trap-like IP (model: eventing IP + 3) */
			s->bad_addr++;
	}
	if (!(applicable & s->expect_counter))
		s->bad_counter++;
	if (s->ll && lat != 57)
		s->bad_lat++;
	if (addr != 0x200040)
		s->bad_addr++;
}

static void probe(const struct model_cpu *m)
{
	pmu_fixture_probe(m, &ci, &caps);
}

/* probe -> program -> N events -> drain -> teardown, one CPU and one kind. */
static void cycle(const struct model_cpu *m, enum pebs_kind kind)
{
	struct pebs_session s;
	struct pebs_config cfg;
	struct sink k;
	struct model_load ld = { 0x200040, 0x1, 57, 0x401000 };
	uint64_t sav = 97, n = 20000;
	uint16_t ev;

	probe(m);
	memset(&s, 0, sizeof(s));
	memset(&cfg, 0, sizeof(cfg));
	cfg.kind = kind;
	cfg.counter = -1;
	cfg.sav = sav;
	cfg.ldlat = 3;
	cfg.buf_bytes = 8192;
	cfg.sink = sink_fn;
	cfg.sink_ctx = &k;
	if (pebs_start(&s, &caps, &cfg))
		fail_msg("%s: pebs_start: %s", m->name, s.err);
	pmu_fixture_assert_clean();
	memset(&k, 0, sizeof(k));
	k.expect_size = s.geom.rec_size;
	k.expect_counter = 1ull << s.counter;
	k.adaptive = s.adaptive;
	k.ll = kind == PEBS_LOAD_LATENCY;
	k.fmt = caps.pebs_fmt;
	ev = kind == PEBS_LOAD_LATENCY ? m->ll_event : m->st_event;
	model_log_clear();
	model_feed(ev, n, &ld);
	pmu_fixture_assert_clean();
	/* The counter starts at -sav: sav events to overflow, the next one writes (§8.2). */
	assert_int_equal(model_stats()->records_written, n / (sav + 1));
	assert_true(model_stats()->pmis_delivered >= 1);
	assert_non_null(strstr(model_log(), "ctrl=0 status ack rearm ctrl=on"));
	pebs_stop(&s);
	pmu_fixture_assert_clean();
	assert_int_equal(k.n, model_stats()->records_written);
	assert_int_equal(s.st.records, k.n);
	assert_int_equal(k.bad_size, 0);
	assert_int_equal(k.bad_counter, 0);
	assert_int_equal(k.bad_lat, 0);
	assert_int_equal(k.bad_addr, 0);
	assert_int_equal(s.st.dropped, 0);
	assert_int_equal(s.st.full, 0);
	assert_int_equal(s.st.spurious, 0);
	assert_int_equal(s.st.pmis, model_stats()->pmis_delivered);
	/* state after teardown */
	assert_int_equal(model_msr(MSR_IA32_PERF_GLOBAL_CTRL), 0);
	assert_int_equal(model_msr(MSR_IA32_PEBS_ENABLE), 0);
	assert_int_equal(model_msr(MSR_IA32_DS_AREA), 0);
	assert_int_equal(model_msr(MSR_IA32_PERFEVTSEL(s.counter)), 0);
	assert_int_equal(model_msr(MSR_IA32_PERF_GLOBAL_STATUS), 0);
	if (s.aux_counter >= 0)
		assert_int_equal(model_msr(MSR_IA32_PERFEVTSEL((unsigned)s.aux_counter)), 0);
}

static void test_cycle_load_latency(void **state)
{
	(void)state;
	for (unsigned k = 0; model_cpus[k]; k++)
		cycle(model_cpus[k], PEBS_LOAD_LATENCY);
}

/* Core 2 (format 0, 144-byte records, PEBS on PMC0, one-page buffer) with a raw event. */
static void test_cycle_core2_raw(void **state)
{
	struct pebs_session s;
	struct pebs_config cfg;
	struct sink k;
	const char *why;

	(void)state;
	probe(&model_penryn);
	assert_string_equal(caps.uarch->name, "Core 2 (Penryn)");
	assert_true(pebs_caps_pebs_ok(&caps, &why));
	assert_false(pebs_caps_ll_ok(&caps, &why));
	assert_string_equal(why, "Core 2 (Penryn): no load-latency event");
	memset(&s, 0, sizeof(s));
	memset(&k, 0, sizeof(k));
	pebs_config_init(&cfg, PEBS_RAW, NULL, NULL);
	cfg.event = 0x00c0;
	cfg.sav = 50;
	cfg.buf_bytes = 65536;
	cfg.sink = sink_fn;
	cfg.sink_ctx = &k;
	assert_int_equal(pebs_start(&s, &caps, &cfg), 0);
	assert_int_equal(s.geom.bytes, 4096);		/* Q_BUF_ONE_PAGE */
	assert_int_equal(s.geom.rec_size, 0x90);
	k.expect_size = 0x90;
	k.expect_counter = 1;
	model_feed(0x00c0, 51 * 100, NULL);
	pebs_stop(&s);
	assert_int_equal(model_stats()->records_written, 100);
	assert_int_equal(k.n, 100);
	assert_int_equal(k.bad_size, 0);
	assert_true(s.st.pmis >= 3);			/* 27 records per page, threshold 27 */
	cfg.counter = 1;
	assert_int_equal(pebs_start(&s, &caps, &cfg), -1);
	assert_string_equal(s.err, "Core 2 (Penryn): event 0x00c0 cannot PEBS on counter 1 "
			    "(allowed 0x1)");
	pmu_fixture_assert_clean();
}

static void test_cycle_store(void **state)
{
	(void)state;
	for (unsigned k = 0; model_cpus[k]; k++)
		cycle(model_cpus[k], PEBS_STORE);
}

static int start_ll(struct pebs_session *s, const struct model_cpu *m, uint64_t sav,
		    uint64_t buf, struct sink *k)
{
	struct pebs_config cfg;

	probe(m);
	memset(s, 0, sizeof(*s));
	pebs_config_init(&cfg, PEBS_LOAD_LATENCY, NULL, NULL);
	cfg.sav = sav;
	cfg.buf_bytes = buf;
	cfg.sink = sink_fn;
	cfg.sink_ctx = k;
	memset(k, 0, sizeof(*k));
	return pebs_start(s, &caps, &cfg);
}

/* What the driver programmed, per generation (§1.5, §4.4, §6, §7.1). */
static void test_programming_per_cpu(void **state)
{
	struct pebs_session s;
	struct sink k;

	(void)state;
	assert_int_equal(start_ll(&s, &model_nehalem, 1000, 8192, &k), 0);
	/* PMC3: perfmon's counter for the event, inside Linux's 0-3 (docs/tables.md) */
	assert_int_equal(s.counter, 3);
	assert_int_equal(model_msr(MSR_IA32_PEBS_ENABLE), PEBS_EN_PMC(3) | PEBS_LL_EN_PMC(3));
	assert_int_equal(model_msr(MSR_PEBS_LD_LAT_THRESHOLD), 3);
	pebs_stop(&s);
	assert_int_equal(start_ll(&s, &model_sandybridge, 1000, 8192, &k), 0);
	assert_int_equal(s.counter, 3);		/* LL on PMC3 only */
	assert_int_equal(model_msr(MSR_IA32_PEBS_ENABLE), PEBS_EN_PMC(3) | PEBS_LL_EN_PMC(3));
	assert_int_equal(model_msr(MSR_IA32_DEBUGCTL) & DEBUGCTL_FREEZE_WHILE_SMM,
			 DEBUGCTL_FREEZE_WHILE_SMM);
	pebs_stop(&s);
	assert_int_equal(start_ll(&s, &model_icelake_sp, 1000, 8192, &k), 0);
	assert_int_equal(model_msr(MSR_IA32_PEBS_ENABLE), PEBS_EN_PMC(0));	/* no LL_EN on v5 */
	assert_int_equal(model_msr(MSR_PEBS_DATA_CFG), PEBS_DATACFG_MEMINFO);
	assert_true(model_msr(MSR_IA32_PERFEVTSEL(0)) & EVTSEL_ADAPTIVE);
	assert_int_equal(s.geom.rec_size, 64);
	pebs_stop(&s);
	assert_int_equal(start_ll(&s, &model_sapphire_rapids, 1000, 8192, &k), 0);
	assert_int_equal(s.counter, 1);		/* 0xFE */
	assert_int_equal(s.aux_counter, 0);
	assert_int_equal(EVTSEL_CODE(model_msr(MSR_IA32_PERFEVTSEL(0))), 0x8203);
	assert_int_equal(s.ds->pebs_counter_reset[1], pebs_counter_value(&caps, 1000));
	pebs_stop(&s);
	assert_int_equal(start_ll(&s, &model_gracemont, 1000, 8192, &k), 0);
	assert_int_equal(EVTSEL_CODE(model_msr(MSR_IA32_PERFEVTSEL(0))), 0x05d0);
	pebs_stop(&s);
	pmu_fixture_assert_clean();
	/* full-width write: the counter holds -sav in all 48 bits */
	assert_int_equal(start_ll(&s, &model_skylake, 5, 8192, &k), 0);
	assert_int_equal(model_msr(MSR_IA32_PMC(0)), 0xfffffffffffbull);
	pebs_stop(&s);
	/* SNB store: PS_EN on PMC3 */
	probe(&model_sandybridge);
	{
		struct pebs_config cfg;

		pebs_config_init(&cfg, PEBS_STORE, NULL, NULL);
		memset(&s, 0, sizeof(s));
		assert_int_equal(pebs_start(&s, &caps, &cfg), 0);
		assert_int_equal(model_msr(MSR_IA32_PEBS_ENABLE), PEBS_EN_PMC(3) | PEBS_PS_EN);
		pebs_stop(&s);
	}
	pmu_fixture_assert_clean();
}

/* PMIs held back: the buffer fills, assists are dropped, the drain detects it. */
static void test_full_buffer_drops(void **state)
{
	struct pebs_session s;
	struct sink k;
	struct model_load ld = { 0x1000, 1, 57, 0x401000 };

	(void)state;
	for (unsigned c = 0; model_cpus[c]; c++) {
		assert_int_equal(start_ll(&s, model_cpus[c], 50, 4096, &k), 0);
		k.expect_size = s.geom.rec_size;
		k.expect_counter = 1ull << s.counter;
		k.adaptive = s.adaptive;
		k.ll = true;
		k.fmt = caps.pebs_fmt;
		model_pmi_delivery(false);
		model_feed(model_cpus[c]->ll_event, 51 * (s.geom.nrec + 5), &ld);
		assert_int_equal(model_stats()->records_written, s.geom.nrec);
		assert_true(model_stats()->dropped >= 1);
		model_pmi_delivery(true);
		model_pmi_flush();
		assert_int_equal(s.st.pmis, 1);
		assert_int_equal(s.st.full, 1);
		assert_int_equal(s.st.dropped, model_stats()->dropped);
		assert_int_equal(k.n, s.geom.nrec);
		/* sampling resumes after the drain reloaded the counter */
		model_feed(model_cpus[c]->ll_event, 51 * 3, &ld);
		assert_int_equal(model_stats()->records_written, s.geom.nrec + 3);
		pebs_stop(&s);
		assert_int_equal(k.n, s.geom.nrec + 3);
		assert_int_equal(k.bad_size + k.bad_counter + k.bad_lat, 0);
		pmu_fixture_assert_clean();
	}
}

static void test_spurious_pmi(void **state)
{
	struct pebs_session s;
	struct sink k;

	(void)state;
	assert_int_equal(start_ll(&s, &model_haswell, 100, 8192, &k), 0);
	model_log_clear();
	model_raise_pmi();
	assert_int_equal(s.st.pmis, 1);
	assert_int_equal(s.st.spurious, 1);
	assert_int_equal(s.st.records, 0);
	assert_string_equal(model_log(), "ctrl=0 status rearm ctrl=on");
	pebs_stop(&s);
	pmu_fixture_assert_clean();
}

static void test_bad_config(void **state)
{
	struct pebs_session s;
	struct pebs_config cfg;

	(void)state;
	probe(&model_sandybridge);
	memset(&s, 0, sizeof(s));
	pebs_config_init(&cfg, PEBS_LOAD_LATENCY, NULL, NULL);
	cfg.ldlat = 2;
	assert_int_equal(pebs_start(&s, &caps, &cfg), -1);
	assert_string_equal(s.err, "ldlat=2 outside [3, 65535] (MSR_PEBS_LD_LAT_THRESHOLD)");
	cfg.ldlat = 3;
	cfg.counter = 0;
	assert_int_equal(pebs_start(&s, &caps, &cfg), -1);
	assert_string_equal(s.err, "Sandy/Ivy Bridge: event 0x01cd cannot PEBS on counter 0 "
			    "(allowed 0x8)");
	cfg.counter = -1;
	cfg.sav = 0;
	assert_int_equal(pebs_start(&s, &caps, &cfg), -1);
	assert_string_equal(s.err, "sav=0 outside [1, 140737488355327]");
	probe(&model_nehalem);	/* H5: clamped as Linux nhm_limit_period, not refused */
	cfg.sav = 31;
	assert_int_equal(pebs_start(&s, &caps, &cfg), 0);
	assert_int_equal(s.cfg.sav, 32);
	pebs_stop(&s);
	probe(&model_qemu_tcg_skl);
	assert_int_equal(pebs_start(&s, &caps, &cfg), -1);
	assert_string_equal(s.err, "CPUID.0AH: perfmon version 0");
	assert_int_equal(model_msr(MSR_IA32_PERF_GLOBAL_CTRL), 0);
	assert_false(s.active);
	pmu_fixture_assert_clean();
}

static void test_ds_geometry(void **state)
{
	struct pebs_geom g;

	(void)state;
	assert_null(pebs_ds_geometry(4096, 0xc8, 1, &g));
	assert_int_equal(g.nrec, 20);			/* 4096 / 200 */
	assert_int_equal(g.thresh_rec, 19);
	assert_null(pebs_ds_geometry(5000, 64, 2, &g));
	assert_int_equal(g.bytes, 8192);
	assert_int_equal(g.nrec, 128);
	assert_int_equal(g.thresh_rec, 126);
	assert_non_null(pebs_ds_geometry(4096, 0, 1, &g));
	assert_non_null(pebs_ds_geometry(4096, 4096, 1, &g));
	assert_non_null(pebs_ds_geometry(32u << 20, 64, 1, &g));
	assert_int_equal(pebs_ds_reset_slot(4, false, 3), 3);
	assert_int_equal(pebs_ds_reset_slot(4, true, 0), 8);
	assert_int_equal(pebs_ds_reset_slot(5, true, 0), 32);
	assert_int_equal(pebs_ds_reset_slot(3, false, 8), -1);
	assert_int_equal(pebs_adaptive_record_size(PEBS_DATACFG_MEMINFO), 64);
	assert_int_equal(pebs_adaptive_record_size(0xf | (7ull << 24)), 32 + 32 + 144 + 256 + 192);
	/* format 6 counter group: 16-B header + 8 B per GP (47:32) / fixed (55:48) counter */
	assert_int_equal(pebs_adaptive_record_size(1ull << 4), 32 + 16);
	assert_int_equal(pebs_adaptive_record_size(1 | 1ull << 4 | 1ull << 34 | 1ull << 49),
			 32 + 32 + 16 + 16);
	assert_int_equal(pebs_adaptive_record_size(1ull << 5), 0);	/* PERF_METRICS */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cycle_load_latency),
		cmocka_unit_test(test_cycle_store),
		cmocka_unit_test(test_cycle_core2_raw),
		cmocka_unit_test(test_programming_per_cpu),
		cmocka_unit_test(test_full_buffer_drops),
		cmocka_unit_test(test_spurious_pmi),
		cmocka_unit_test(test_bad_config),
		cmocka_unit_test(test_ds_geometry),
	};
	int r = cmocka_run_group_tests(tests, NULL, NULL);

	model_fini();
	return r;
}
