/*
 * ibs_test.c: the IBS probe, driver and measurement (ibs/ibs_caps.c, ibs.c, ibs_measure.c,
 * apic/apic_eilvt.c) on the IBS model (tests/model/ibs_model.h), Zen 3 and Zen 4 rows, xAPIC
 * and x2APIC, fixed-vector and NMI delivery: the exact SKIP reasons, samples arriving and
 * re-armed with randomised periods, every rule the model enforces (and that it catches a
 * driver breaking it), teardown leaving every register as found.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "model/ibs_model.h"
#include "model/vclock.h"
#include "apic/apic_eilvt.h"
#include "kernel/cpu.h"
#include "kernel/hw.h"
#include "ibs/ibs.h"
#include "ibs/ibs_measure.h"
#include "ibs/ibs_regs.h"
#include "host/ibs_fixture.h"


static void test_probe(void **state)
{
	const char *why;

	(void)state;
	assert_true(ibs_caps_ok(setup(&ibs_model_zen3, APIC_XAPIC, PMI_FIXED_VECTOR), &why));
	assert_string_equal(caps.fam->name, "Zen 3");
	assert_false(caps.ext_dsrc);
	assert_int_equal(caps.lvt_offset, 1);
	assert_true(ibs_caps_ok(setup(&ibs_model_zen4, APIC_X2APIC, PMI_NMI), &why));
	assert_string_equal(caps.fam->name, "Zen 4");
	assert_true(caps.ext_dsrc);
	assert_false(ibs_caps_ok(setup(&ibs_model_qemu_epyc, APIC_XAPIC, PMI_FIXED_VECTOR),
				 &why));
	assert_string_equal(why, "CPUID 8000_0001H:ECX[10] (IBS) = 0: no Instruction-Based "
			    "Sampling");
	assert_false(ibs_caps_ok(setup(&ibs_model_zen3_no_lvt, APIC_XAPIC, PMI_FIXED_VECTOR),
				 &why));
	assert_string_equal(why, "IBS_CTL (MSRC001_103A) = 0x0: LvtOffsetVal[8] = 0, firmware "
			    "assigned no APIC LVT offset");
	assert_int_equal(ibs_caps_max_period(&caps), (0x7fffffull) << 4);	/* OpCntExt */
}

struct got {
	unsigned n;
	uint64_t addr[64];
};

static void sink(void *ctx, const struct ibs_sample *s)
{
	struct got *g = ctx;

	if (g->n < 64)
		g->addr[g->n] = s->w[IBS_W_LINADDR];
	g->n++;
}

static void run_session(const struct ibs_model_cpu *m, enum apic_mode mode,
			enum pmi_delivery pmi)
{
	const struct ibs_caps *c = setup(m, mode, pmi);
	struct ibs_config cfg = { .period = 4096, .seed = 7, .sink = sink };
	struct ibs_model_op ld = { .load = true, .addr = 0x200000, .level = PEBS_LVL_L2,
				   .lat = 12 };
	struct ibs_session s;
	struct got g = { 0 };
	unsigned off = c->lvt_offset;
	uint32_t e;

	cfg.sink_ctx = &g;
	assert_int_equal(ibs_start(&s, c, &cfg), 0);
	e = ibs_model_eilvt(off);
	assert_int_equal(e & 0xff, APIC_VEC_PMI);
	assert_int_equal((e >> 8) & 7, pmi == PMI_NMI ? 4 : 0);
	assert_false(e & (1u << 16));
	for (unsigned i = 0; i < 400; i++) {
		ld.addr = 0x200000 + 64 * i;
		ibs_model_feed(&ld, 1000);
	}
	ibs_stop(&s);
	for (unsigned i = 0; i < ibs_model_violation_count(); i++)
		print_message("violation: %s\n", ibs_model_violation(i));
	assert_int_equal(ibs_model_violation_count(), 0);
	assert_true(ibs_model_restored());
	/* 400000 ops at a mean period of 4096: about 97 samples, each re-armed */
	assert_in_range(g.n, 85, 110);
	assert_int_equal(s.st.samples, g.n);
	assert_int_equal(s.st.spurious, 0);
	assert_in_range(ibs_model_stats()->periods_min, 3584, 4096);
	assert_in_range(ibs_model_stats()->periods_max, 4096, 4608);
	assert_true(ibs_model_stats()->periods_min < ibs_model_stats()->periods_max);
}

static void test_zen3_xapic_fixed(void **state)
{
	(void)state;
	run_session(&ibs_model_zen3, APIC_XAPIC, PMI_FIXED_VECTOR);
}

static void test_zen4_x2apic_nmi(void **state)
{
	(void)state;
	run_session(&ibs_model_zen4, APIC_X2APIC, PMI_NMI);
}

/* The model's rules fire when the rule is broken (they can fail). */
static void test_rules(void **state)
{
	const struct ibs_caps *c = setup(&ibs_model_zen3, APIC_XAPIC, PMI_FIXED_VECTOR);
	struct ibs_model_op op = { .load = false };

	(void)state;
	wrmsr(MSR_IBS_OP_CTL, IBS_OP_EN | 0x100);	/* LVT entry still masked */
	assert_true(ibs_model_has_violation("extended LVT 1 is masked"));
	ibs_model_feed(&op, 0x1000);
	assert_int_equal(ibs_model_stats()->lost_irqs, 1);
	wrmsr(MSR_IBS_OP_CTL, IBS_OP_EN | IBS_OP_VAL | 0x100);
	assert_true(ibs_model_has_violation("armed with IbsOpVal set"));
	wrmsr(MSR_IBS_OP_CTL, IBS_OP_EN);
	assert_true(ibs_model_has_violation("IbsOpMaxCnt 0"));
	wrmsr(MSR_IBS_OP_CTL, 0);
	(void)rdmsr(MSR_IBS_OP_DATA3);
	assert_true(ibs_model_has_violation("read with IbsOpVal clear"));
	/* reserved bits #GP: L3MissOnly needs the Zen 4 flag */
	assert_int_equal(wrmsr_safe(MSR_IBS_OP_CTL, IBS_OP_L3MISSONLY | 0x100), 13);
	assert_int_equal(wrmsr_safe(MSR_IBS_CTL, 0), 13);
	assert_int_equal(ibs_op_ctl_period(c, ibs_op_ctl_value(c, 0x123456, true)), 0x123450);
	/* clamped to IBS_PERIOD_MIN, Linux perf_ibs_op .min_period 0x90: 9 MaxCnt units */
	assert_int_equal(ibs_op_ctl_value(c, 1, false), 9);
}

/* A handler that never re-arms gets one sample: nothing is tagged while IbsOpVal is set. */
static void test_no_rearm_no_sample(void **state)
{
	const struct ibs_caps *c = setup(&ibs_model_zen4, APIC_XAPIC, PMI_FIXED_VECTOR);
	struct ibs_model_op op = { .load = false };

	(void)state;
	(void)c;
	apic_eilvt_write(0, apic_eilvt_entry(APIC_VEC_PMI, false, false));
	wrmsr(MSR_IBS_OP_CTL, IBS_OP_EN | 0x10);
	ibs_model_feed(&op, 100000);
	assert_int_equal(ibs_model_stats()->tagged, 1);
	assert_true(ibs_model_op_ctl() & IBS_OP_VAL);
}

static void test_start_refuses(void **state)
{
	const struct ibs_caps *c = setup(&ibs_model_zen4, APIC_X2APIC, PMI_FIXED_VECTOR);
	struct ibs_config cfg = { .period = 4096 };
	struct ibs_session s;

	(void)state;
	apic_eilvt_write(0, apic_eilvt_entry(0x40, false, false));	/* someone's */
	assert_int_equal(ibs_start(&s, c, &cfg), -1);
	assert_string_equal(s.err, "extended LVT 0 (APIC 500h) = 0x40: unmasked, in use by "
			    "someone else");
	assert_int_equal(ibs_model_op_ctl(), 0);
	setup(&ibs_model_qemu_epyc, APIC_XAPIC, PMI_FIXED_VECTOR);
	assert_int_equal(ibs_start(&s, &caps, &cfg), -1);
	assert_string_equal(s.err, caps.why);
}

/* Refusals and reasons that name the register: no entry, no APIC, IBS already in use. */
static void test_refusals(void **state)
{
	struct ibs_model_cpu one = ibs_model_zen3;	/* LVT offset 1, but one entry */
	struct ibs_config cfg = { .period = 4096 };
	struct ibs_session s;

	(void)state;
	one.ext_lvt_count = 1;
	setup(&one, APIC_XAPIC, PMI_FIXED_VECTOR);
	assert_int_equal(ibs_start(&s, &caps, &cfg), -1);
	assert_string_equal(s.err, "APIC ExtLvtCount 1 (offset 400h): no extended LVT entry 1 for "
			    "IBS (IBS_CTL LvtOffset)");
	setup(&ibs_model_zen3, APIC_DISABLED, PMI_FIXED_VECTOR);
	assert_string_equal(ibs_unavailable(&caps), "no local APIC: no IBS interrupt");
	setup(&ibs_model_zen4, APIC_X2APIC, PMI_FIXED_VECTOR);
	assert_null(ibs_unavailable(&caps));
	apic_eilvt_write(0, apic_eilvt_entry(APIC_VEC_PMI, false, false));
	wrmsr(MSR_IBS_OP_CTL, IBS_OP_EN | 0x100);	/* someone else's session */
	apic_eilvt_write(0, APIC_EILVT_MASKED);
	assert_int_equal(ibs_start(&s, &caps, &cfg), -1);
	assert_string_equal(s.err, "IBS_OP_CTL = 0x20100: IbsOpEn already set");
}

/* A sample valid at stop (its interrupt not delivered yet) is taken, then all restored. */
static void test_last_sample_at_stop(void **state)
{
	const struct ibs_caps *c = setup(&ibs_model_zen4, APIC_XAPIC, PMI_FIXED_VECTOR);
	struct ibs_model_op ld = { .load = true, .addr = 0x5000, .level = PEBS_LVL_L3, .lat = 44 };
	struct ibs_config cfg = { .period = 256, .sink = sink };
	struct ibs_session s;
	struct got g = { 0 };

	(void)state;
	cfg.sink_ctx = &g;
	assert_int_equal(ibs_start(&s, c, &cfg), 0);
	ibs_model_irq_delivery(false);	/* as with interrupts off */
	ibs_model_feed(&ld, 1000);
	assert_true(ibs_model_op_ctl() & IBS_OP_VAL);
	ibs_stop(&s);
	assert_int_equal(g.n, 1);
	assert_int_equal(g.addr[0], 0x5000);
	assert_int_equal(ibs_model_violation_count(), 0);
	assert_true(ibs_model_restored());
	ibs_model_irq_delivery(true);	/* the late interrupt finds no handler: nothing runs */
	assert_int_equal(g.n, 1);
}

struct feeder {
	struct ibs_model_op ops[4];
	unsigned chunks;
};

static bool work(void *ctx)
{
	struct feeder *f = ctx;

	for (unsigned i = 0; i < 4; i++)
		ibs_model_feed(&f->ops[i], 5000);
	return ++f->chunks < 10000;
}

static void test_measure(void **state)
{
	const struct ibs_caps *c = setup(&ibs_model_zen4, APIC_X2APIC, PMI_NMI);
	struct feeder f = { .ops = {
		{ .load = true, .addr = 0x1000, .level = PEBS_LVL_RAM, .lat = 300 },
		{ .load = false },
		{ .load = true, .addr = 0x2000, .level = PEBS_LVL_RAM, .remote = true, .lat = 500 },
		{ .load = true, .addr = 0x3000, .level = PEBS_LVL_L3, .lat = 40 } } };
	struct ibs_measure_cfg cfg = { .period = 1000, .seed = 3, .target_loads = 600,
				       .work = work, .work_ctx = &f };
	static struct ibs_measure m;
	static uint8_t dump[64 * 64];

	(void)state;
	cfg.dump = dump;
	cfg.dump_cap = sizeof(dump);
	assert_int_equal(ibs_measure_run(&m, c, &cfg), 0);
	assert_true(m.loads >= 600);
	assert_true(m.other_ops > 0);
	assert_int_equal(m.agg.records, m.loads);
	assert_int_equal(m.agg.lvl[PEBS_LVL_RAM].count + m.agg.lvl[PEBS_LVL_L3].count, m.loads);
	assert_int_equal(m.agg.lvl[PEBS_LVL_L3].min, 40);
	assert_int_equal(m.agg.lvl[PEBS_LVL_RAM].max, 500);
	assert_int_equal(m.dump_kept, 64);
	assert_true(m.dump_lost > 0);
	for (unsigned i = 0; i < ibs_model_violation_count(); i++)
		print_message("violation: %s\n", ibs_model_violation(i));
	assert_int_equal(ibs_model_violation_count(), 0);
	assert_true(ibs_model_restored());
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_probe),
		cmocka_unit_test(test_zen3_xapic_fixed),
		cmocka_unit_test(test_zen4_x2apic_nmi),
		cmocka_unit_test(test_rules),
		cmocka_unit_test(test_no_rearm_no_sample),
		cmocka_unit_test(test_start_refuses),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_last_sample_at_stop),
		cmocka_unit_test(test_measure),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
