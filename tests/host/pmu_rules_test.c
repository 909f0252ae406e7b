/*
 * pmu_rules_test.c: the PMU model tested by deliberately wrong programming: for each rule the
 * model enforces (tests/model/pmu_model.h; docs/hardware.md §1.2, §1.5, §1.6, §3, §6, §7.1,
 * §7.2, §8.3, §8.4, §8.10), a correct driver session is broken in exactly one way and the
 * model must name that rule. Also: the model's hardware behaviour (reset-slot layout per
 * format, arming).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "apic/apic.h"
#include "kernel/cpu.h"
#include "kernel/hw.h"
#include "kernel/mm.h"
#include "model/pmu_model.h"
#include "pebs/caps.h"
#include "pebs/msr.h"
#include "pebs/pebs.h"

static struct pebs_caps caps;
static struct cpu_info ci;
static struct pebs_session S;
static const struct model_load LD = { 0x1000, 1, 57, 0x401000 };

static void start(const struct model_cpu *m, enum pebs_kind kind)
{
	struct pebs_config cfg;

	model_init(m);
	cpu_probe(&ci);
	pebs_caps_probe(&caps, &ci);
	memset(&S, 0, sizeof(S));
	pebs_config_init(&cfg, kind, NULL, NULL);
	cfg.sav = 100;
	cfg.buf_bytes = 4096;
	if (pebs_start(&S, &caps, &cfg))
		fail_msg("%s: %s", m->name, S.err);
	assert_int_equal(model_violation_count(), 0);
}

static void expect(const char *rule, unsigned n)
{
	if (!model_has_violation(rule) || model_violation_count() != n) {
		for (unsigned i = 0; i < model_violation_count(); i++)
			print_error("  got: %s\n", model_violation(i));
		fail_msg("expected %u violation(s) incl. \"%s\"", n, rule);
	}
}

/* Disable, change one register, re-enable: legal steps around an illegal configuration. */
static void reconfigure(uint32_t msr, uint64_t v)
{
	wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, 0);
	assert_int_equal(wrmsr_safe(msr, v), 0);
	wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, S.global_ctrl);
}

static void test_write_while_enabled(void **state)
{
	(void)state;
	start(&model_skylake, PEBS_LOAD_LATENCY);
	assert_int_equal(wrmsr_safe(MSR_IA32_A_PMC(0), 5), 0);
	expect("PEBS counter 0 reprogrammed while enabled (IA32_A_PMC)", 1);
	start(&model_skylake, PEBS_LOAD_LATENCY);
	assert_int_equal(wrmsr_safe(MSR_IA32_PERFEVTSEL(0), S.evtsel), 0);
	expect("PEBS counter 0 reprogrammed while enabled (IA32_PERFEVTSEL)", 1);
}

static void test_event_bits(void **state)
{
	(void)state;
	start(&model_skylake, PEBS_LOAD_LATENCY);
	reconfigure(MSR_IA32_PERFEVTSEL(0), S.evtsel | (1ull << 24));
	expect("with AnyThread/Edge/Inv/CMask set", 1);
	start(&model_haswell, PEBS_LOAD_LATENCY);	/* PMC3: docs/tables.md */
	reconfigure(MSR_IA32_PERFEVTSEL(S.counter), S.evtsel | EVTSEL_INV);
	expect("with AnyThread/Edge/Inv/CMask set", 1);
	start(&model_skylake, PEBS_LOAD_LATENCY);
	reconfigure(MSR_IA32_PERFEVTSEL(0), S.evtsel | EVTSEL_INT);
	expect("EVTSEL.INT set on PEBS counter 0", 1);
}

static void test_load_latency_rules(void **state)
{
	(void)state;
	start(&model_haswell, PEBS_LOAD_LATENCY);
	reconfigure(MSR_IA32_PEBS_ENABLE, PEBS_EN_PMC(S.counter));
	expect("without PEBS_ENABLE.LL_EN (perfmon < 5)", 1);
	start(&model_skylake, PEBS_LOAD_LATENCY);
	reconfigure(MSR_PEBS_LD_LAT_THRESHOLD, 2);
	expect("MSR_PEBS_LD_LAT_THRESHOLD <- 2: below the minimum 3", 2);
	expect("load latency armed with MSR_PEBS_LD_LAT_THRESHOLD < 3", 2);
	start(&model_sandybridge, PEBS_LOAD_LATENCY);		/* LL on PMC3 only */
	wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, 0);
	assert_int_equal(wrmsr_safe(MSR_IA32_PERFEVTSEL(0), S.evtsel), 0);
	assert_int_equal(wrmsr_safe(MSR_IA32_PEBS_ENABLE, 0x100000001ull), 0);
	wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, 1);
	expect("load-latency event on counter 0 outside 0x8", 1);
	start(&model_sapphire_rapids, PEBS_LOAD_LATENCY);
	wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, 0);
	wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, 1ull << S.counter);	/* aux counter left off */
	expect("load latency without MEM_LOADS_AUX 0x8203 on another counter", 1);
	start(&model_icelake_sp, PEBS_LOAD_LATENCY);
	reconfigure(MSR_IA32_PERFEVTSEL(0), S.evtsel & ~EVTSEL_ADAPTIVE);
	expect("without EVTSEL.ADAPTIVE + PEBS_DATA_CFG.MEMINFO", 1);
	start(&model_sandybridge, PEBS_STORE);
	reconfigure(MSR_IA32_PEBS_ENABLE, PEBS_EN_PMC(3));
	expect("precise store on counter 3 without PEBS_ENABLE.PS_EN", 1);
}

static void test_counter_rules(void **state)
{
	struct model_cpu skl8 = model_skylake;

	(void)state;
	skl8.n_gp = 8;		/* HT off: PMC4-7 exist but cannot PEBS (§4.7) */
	start(&skl8, PEBS_LOAD_LATENCY);
	wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, 0);
	assert_int_equal(wrmsr_safe(MSR_IA32_PEBS_ENABLE, S.pebs_enable | PEBS_EN_PMC(4)), 13);
	expect("PEBS on a counter that cannot PEBS (0xf)", 1);
	start(&model_nehalem, PEBS_LOAD_LATENCY);
	reconfigure(MSR_IA32_PMC(0), 0xffff00000000ull);
	expect("legacy IA32_PMC0 write of 0xffff00000000 wider than 32 bits", 1);
	start(&model_skylake, PEBS_LOAD_LATENCY);
	wrmsr(MSR_PEBS_LD_LAT_THRESHOLD, 3);
	expect("model-specific MSR 0x3f6 written without wrmsr_safe", 1);
	start(&model_skylake, PEBS_LOAD_LATENCY);
	wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, 1ull << 36);		/* no fixed counter 4 */
	expect("#GP through the non-safe accessor", 1);
}

static void test_ds_rules(void **state)
{
	uint64_t stack_ds[64] = { 0 };

	(void)state;
	start(&model_skylake, PEBS_LOAD_LATENCY);
	wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, 0);
	assert_int_equal(wrmsr_safe(MSR_IA32_PEBS_ENABLE, 0), 0);
	assert_int_equal(wrmsr_safe(MSR_IA32_DS_AREA, (uintptr_t)stack_ds), 0);
	assert_int_equal(wrmsr_safe(MSR_IA32_PEBS_ENABLE, S.pebs_enable), 0);
	wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, S.global_ctrl);
	expect("unmapped while PEBS enabled", 1);
	start(&model_skylake, PEBS_LOAD_LATENCY);
	wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, 0);
	assert_int_equal(wrmsr_safe(MSR_IA32_PEBS_ENABLE, 0), 0);
	memmove((char *)S.ds + 8, S.ds, sizeof(*S.ds));
	assert_int_equal(wrmsr_safe(MSR_IA32_DS_AREA, (uintptr_t)S.ds + 8), 0);
	assert_int_equal(wrmsr_safe(MSR_IA32_PEBS_ENABLE, S.pebs_enable), 0);
	wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, S.global_ctrl);
	expect("not page-aligned", 1);
	start(&model_skylake, PEBS_LOAD_LATENCY);
	wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, 0);
	S.ds->pebs_interrupt_threshold = S.ds->pebs_absolute_maximum;
	wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, S.global_ctrl);
	expect("PEBS interrupt threshold outside", 1);
	start(&model_skylake, PEBS_LOAD_LATENCY);
	wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, 0);
	S.ds->pebs_absolute_maximum -= 8;
	wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, S.global_ctrl);
	expect("not a whole number of 200-byte records", 1);
}

static void test_teardown_rules(void **state)
{
	(void)state;
	start(&model_skylake, PEBS_LOAD_LATENCY);
	assert_int_equal(wrmsr_safe(MSR_IA32_PEBS_ENABLE, 0), 0);
	expect("PEBS_ENABLE cleared while counter 0 still enabled in GLOBAL_CTRL", 1);
	start(&model_skylake, PEBS_LOAD_LATENCY);
	assert_int_equal(wrmsr_safe(MSR_IA32_DS_AREA, 0), 0);
	expect("DS_AREA changed while PEBS enabled (teardown order)", 2);	/* + unmapped */
	start(&model_icelake_sp, PEBS_LOAD_LATENCY);
	assert_int_equal(wrmsr_safe(MSR_PEBS_DATA_CFG, 0), 0);
	expect("PEBS_DATA_CFG changed while PEBS enabled", 2);	/* + no MEMINFO */
}

/* PMI handlers that break the order of docs/hardware.md §7.2 / §8.8 in one way each. */
static int pmi_variant;

static void bad_handler(struct trap_frame *f)
{
	uint64_t st;

	(void)f;
	if (pmi_variant == 1)		/* reads STATUS before disabling */
		(void)rdmsr(MSR_IA32_PERF_GLOBAL_STATUS);
	wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, 0);
	st = rdmsr(MSR_IA32_PERF_GLOBAL_STATUS);
	if (pmi_variant == 0)		/* unmask before the ack */
		apic_pmi_rearm();
	wrmsr(MSR_IA32_PERF_GLOBAL_OVF_CTRL, st);
	if (pmi_variant != 4)		/* 4: index not reset */
		S.ds->pebs_index = S.ds->pebs_buffer_base;
	if (pmi_variant == 2)		/* re-enable before unmask */
		wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, S.global_ctrl);
	if (pmi_variant != 3 && pmi_variant != 0)	/* 3: never unmasks */
		apic_pmi_rearm();
	if (pmi_variant != 2)
		wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, S.global_ctrl);
}

static void test_pmi_order_rules(void **state)
{
	static const char *const rule[] = {
		"LVTPC unmasked before GLOBAL_STATUS[62] was acked",
		"PMI handler touched MSR 0x38e before GLOBAL_CTRL <- 0",
		"GLOBAL_CTRL re-enabled before LVTPC unmask (apic_pmi_rearm)",
		"PMI handler returned with LVTPC masked",
		"PMI re-armed with the PEBS index still at the threshold",
	};
	/* 3: also re-enables masked. The index rule is judged at the handler's return (counting
	 * back on), so 0's unmask before the index reset is not a second violation. */
	static const unsigned n[] = { 1, 1, 1, 2, 1 };

	(void)state;
	for (pmi_variant = 0; pmi_variant < 5; pmi_variant++) {
		start(&model_skylake, PEBS_LOAD_LATENCY);
		apic_set_pmi_handler(bad_handler);
		model_feed(0x01cd, 101 * S.geom.thresh_rec, &LD);
		assert_int_equal(model_stats()->pmis_delivered, 1);
		expect(rule[pmi_variant], n[pmi_variant]);
	}
	/* the driver's own handler, same feed: clean */
	start(&model_skylake, PEBS_LOAD_LATENCY);
	model_feed(0x01cd, 101 * S.geom.thresh_rec, &LD);
	assert_int_equal(model_stats()->pmis_delivered, 1);
	assert_int_equal(S.st.records, S.geom.thresh_rec);
	assert_int_equal(model_violation_count(), 0);
	pebs_stop(&S);
}

/* A hand-written correct sequence (§8.4), with one step left out on request. */
static void raw_program(const struct model_cpu *m, bool nhm_reset, bool freeze)
{
	uint64_t *ds, *buf;

	model_init(m);
	cpu_probe(&ci);
	pebs_caps_probe(&caps, &ci);
	ds = kalloc(4096, 4096);
	buf = kalloc(4096, 4096);
	ds[4] = ds[5] = (uintptr_t)buf;
	ds[6] = (uintptr_t)buf + 0xb0 * 23;
	ds[7] = (uintptr_t)buf + 0xb0 * 22;
	ds[8] = 0xffffffffff9cull;
	wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, 0);
	if (nhm_reset) {
		static const uint64_t magic[4] = { 0x4300b5, 0x4300d2, 0x4300b1, 0x4300b1 };

		for (unsigned i = 0; i < 4; i++)
			wrmsr(MSR_IA32_PERFEVTSEL(i), magic[i]);
		wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, 0xf);
		wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, 0);
		for (unsigned i = 0; i < 4; i++)
			wrmsr(MSR_IA32_PERFEVTSEL(i), 0);
	}
	assert_int_equal(wrmsr_safe(MSR_IA32_DS_AREA, (uintptr_t)ds), 0);
	assert_int_equal(wrmsr_safe(MSR_PEBS_LD_LAT_THRESHOLD, 3), 0);
	if (freeze)
		assert_int_equal(wrmsr_safe(MSR_IA32_DEBUGCTL, DEBUGCTL_FREEZE_WHILE_SMM), 0);
	wrmsr(MSR_IA32_PMC(3), (uint32_t)-100);
	wrmsr(MSR_IA32_PERFEVTSEL(3), m->ll_event | EVTSEL_EN | EVTSEL_OS | EVTSEL_USR);
	assert_int_equal(wrmsr_safe(MSR_IA32_PEBS_ENABLE, PEBS_EN_PMC(3) | PEBS_LL_EN_PMC(3)), 0);
	wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, 1ull << 3);
}

static void test_quirk_rules(void **state)
{
	(void)state;
	raw_program(&model_nehalem, true, false);
	assert_int_equal(model_violation_count(), 0);
	raw_program(&model_nehalem, false, false);
	expect("Nehalem counters enabled without the AAK100 counter-reset sequence", 1);
	raw_program(&model_sandybridge, false, true);
	assert_int_equal(model_violation_count(), 0);
	raw_program(&model_sandybridge, false, false);
	expect("FREEZE_WHILE_SMM supported but IA32_DEBUGCTL[14] clear", 1);
}

/* Behaviour: the counter reloads from the reset slot of the running format (§3.1). */
static void test_reset_slot_per_format(void **state)
{
	int fmt4_fixed0 = pebs_ds_reset_slot(4, true, 0);

	(void)state;
	start(&model_sapphire_rapids, PEBS_LOAD_LATENCY);	/* format 5 */
	model_feed(0x01cd, 101 * 5, &LD);
	assert_int_equal(model_stats()->records_written, 5);
	/* a driver using the format-4 slot for counter 1 would leave the fmt-5 slot at 0: */
	wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, 0);
	S.ds->pebs_counter_reset[1] = 0;
	S.ds->pebs_counter_reset[fmt4_fixed0] = S.reset;
	wrmsr(MSR_IA32_PERF_GLOBAL_CTRL, S.global_ctrl);
	model_feed(0x01cd, 101 * 5, &LD);
	assert_int_equal(model_stats()->records_written, 6);	/* reloaded to 0: one more, then silence */
	assert_int_equal(model_violation_count(), 0);
	pebs_stop(&S);
}

/* Behaviour: arming on overflow, record on the next event; no overflow, no record (§8.2). */
static void test_arming(void **state)
{
	(void)state;
	start(&model_haswell, PEBS_LOAD_LATENCY);
	model_feed(0x01cd, 100, &LD);		/* counter -100 -> 0: armed, nothing written */
	assert_int_equal(model_stats()->records_written, 0);
	model_feed(0x01cd, 1, &LD);
	assert_int_equal(model_stats()->records_written, 1);
	{
		struct model_load fast = LD;

		fast.lat = 3;			/* not above the threshold: not counted */
		model_feed(0x01cd, 1000, &fast);
		assert_int_equal(model_stats()->records_written, 1);
	}
	assert_int_equal(S.ds->pebs_index - S.ds->pebs_buffer_base, 0xc0);
	pebs_stop(&S);
	assert_int_equal(S.st.records, 1);
	assert_int_equal(model_violation_count(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_while_enabled),
		cmocka_unit_test(test_event_bits),
		cmocka_unit_test(test_load_latency_rules),
		cmocka_unit_test(test_counter_rules),
		cmocka_unit_test(test_ds_rules),
		cmocka_unit_test(test_teardown_rules),
		cmocka_unit_test(test_pmi_order_rules),
		cmocka_unit_test(test_quirk_rules),
		cmocka_unit_test(test_reset_slot_per_format),
		cmocka_unit_test(test_arming),
	};
	int r = cmocka_run_group_tests(tests, NULL, NULL);

	model_fini();
	return r;
}
