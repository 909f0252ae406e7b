/*
 * ibs_hostile_test.c: the IBS driver (ibs/ibs.c, ibs_measure.c) against the IBS model's
 * hostile knobs (tests/model/ibs_model.h ibs_model_hostile, ibs_model_irq_at).
 * H2: IbsOpCntCtl counts the handler's own ops (APM Vol. 2 "IBS Op Sampling"): a small period
 * must not livelock (Linux perf_ibs_op .min_period 0x90 and perf's throttling), a handler
 * op that is tagged must not reach the aggregate as an L1 hit of the DRAM kernel.
 * H17: an interrupt at any instruction boundary of ibs_stop must not aggregate the last
 * sample twice (Linux perf_ibs_stop() marks the event stopped before the hardware).
 * pmi=nmi: the driver's pending test tells apic/ an NMI was IBS's (IbsOpVal).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "model/ibs_model.h"
#include "model/vclock.h"
#include "kernel/cpu.h"
#include "kernel/hw.h"
#include "ibs/ibs.h"
#include "ibs/ibs_measure.h"
#include "ibs/ibs_regs.h"
#include "host/ibs_fixture.h"

#define BUF 0x10000000ull	/* the workload's buffer */
#define BUF_BYTES 0x100000ull


static void no_violations(void)
{
	for (unsigned i = 0; i < ibs_model_violation_count(); i++)
		print_message("violation: %s\n", ibs_model_violation(i));
	assert_int_equal(ibs_model_violation_count(), 0);
}

/* the DRAM kernel: loads in the buffer served from DRAM, a few other ops */
struct feeder {
	unsigned chunks, i;
};

static bool dram_work(void *ctx)
{
	struct feeder *f = ctx;
	struct ibs_model_op ld = { .load = true, .level = PEBS_LVL_RAM, .lat = 300 };
	struct ibs_model_op other = { .load = false };

	for (unsigned k = 0; k < 64; k++) {
		ld.addr = BUF + (f->i++ * 4160) % BUF_BYTES;
		ibs_model_feed(&ld, 1);
		ibs_model_feed(&other, 3);
	}
	return ++f->chunks < 20000;
}

static void measure(struct ibs_measure *m, uint64_t period, uint64_t handler_ops,
		    uint64_t tail_ops, enum pmi_delivery pmi)
{
	const struct ibs_caps *c = setup(&ibs_model_zen4, APIC_X2APIC, pmi);
	struct feeder f = { 0 };
	struct ibs_measure_cfg cfg = { .period = period, .seed = 5, .target_loads = 400,
				       .work = dram_work, .work_ctx = &f,
				       .lo = BUF, .hi = BUF + BUF_BYTES };

	ibs_model_hostile(handler_ops, tail_ops);
	assert_int_equal(ibs_measure_run(m, c, &cfg), 0);
	assert_true(ibs_model_restored());
}

/* H2: the DRAM period (~256 ops) with a handler tail of the same order (the review's
 * estimate: return, dispatch, LVTPC read+write, EOI, IRET): handler loads that get tagged
 * are not aggregated; every aggregated sample is a DRAM load of the buffer */
static void test_handler_ops_not_aggregated(void **state)
{
	static struct ibs_measure m;

	(void)state;
	measure(&m, 256, 4, 150, PMI_FIXED_VECTOR);
	no_violations();
	assert_true(ibs_model_stats()->handler_tagged > 0);	/* the knob bit */
	assert_true(m.foreign > 0);
	assert_int_equal(m.agg.lvl[PEBS_LVL_L1].count, 0);
	assert_int_equal(m.agg.lvl[PEBS_LVL_RAM].count, m.loads);
	assert_true(m.loads >= 400);
}

/* H2: sav=16: the period is at least 0x90 and leaves 0x90 ops after the random start, so the
 * handler's ~70 ops never reach the tag: no interrupt pending at IRET, no livelock */
static void test_small_period_no_livelock(void **state)
{
	static struct ibs_measure m;

	(void)state;
	measure(&m, 16, 4, 60, PMI_NMI);
	no_violations();
	assert_false(ibs_model_stats()->livelock);
	assert_int_equal(ibs_model_stats()->handler_tagged, 0);
	assert_true(ibs_model_stats()->periods_min >= IBS_PERIOD_MIN);
	assert_true(m.loads >= 400);
}

/* H2: a handler longer than any period: every interrupt is pending again at its IRET; the
 * budget per tick throttles it and each workload chunk still runs */
static void test_throttle_bounds_reentry(void **state)
{
	static struct ibs_measure m;

	(void)state;
	measure(&m, 16, 4, 400, PMI_FIXED_VECTOR);
	no_violations();
	assert_false(ibs_model_stats()->livelock);
	assert_true(m.st.throttled > 0);
	assert_int_equal(m.agg.lvl[PEBS_LVL_L1].count, 0);
	assert_true(m.chunks > 1);
}

struct got {
	unsigned n;
};

static void sink(void *ctx, const struct ibs_sample *s)
{
	(void)s;
	((struct got *)ctx)->n++;
}

/* H17: a sample valid at stop, its interrupt pending, delivered after k register accesses
 * of ibs_stop, for every k: the sample is taken exactly once, everything restored */
static void test_stop_window(void **state)
{
	struct ibs_model_op ld = { .load = true, .addr = BUF, .level = PEBS_LVL_RAM, .lat = 300 };

	(void)state;
	for (unsigned k = 1; k <= 12; k++) {
		const struct ibs_caps *c = setup(&ibs_model_zen4, APIC_XAPIC, PMI_FIXED_VECTOR);
		struct ibs_config cfg = { .period = 256, .seed = 1, .sink = sink };
		struct ibs_session s;
		struct got g = { 0 };

		cfg.sink_ctx = &g;
		assert_int_equal(ibs_start(&s, c, &cfg), 0);
		ibs_model_irq_delivery(false);	/* interrupts off: the interrupt waits */
		ibs_model_feed(&ld, 1000);
		assert_true(ibs_model_op_ctl() & IBS_OP_VAL);
		ibs_model_irq_at(k);		/* ... and arrives inside ibs_stop */
		ibs_stop(&s);
		ibs_model_irq_delivery(true);
		assert_int_equal(g.n, 1);
		assert_int_equal(s.st.samples, 1);
		no_violations();
		assert_true(ibs_model_restored());
	}
}

/* pmi=nmi: while a session runs, a valid sample tells apic/ the NMI was IBS's */
static void test_nmi_pending_test(void **state)
{
	const struct ibs_caps *c = setup(&ibs_model_zen4, APIC_X2APIC, PMI_NMI);
	struct ibs_model_op op = { .load = false };
	struct ibs_config cfg = { .period = 256, .seed = 1 };
	struct ibs_session s;

	(void)state;
	assert_false(ibs_model_pending());
	assert_int_equal(ibs_start(&s, c, &cfg), 0);
	assert_false(ibs_model_pending());
	ibs_model_irq_delivery(false);
	ibs_model_feed(&op, 1000);
	assert_true(ibs_model_pending());
	ibs_stop(&s);
	assert_false(ibs_model_pending());	/* removed with the session */
	ibs_model_irq_delivery(true);
	no_violations();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_handler_ops_not_aggregated),
		cmocka_unit_test(test_small_period_no_livelock),
		cmocka_unit_test(test_throttle_bounds_reentry),
		cmocka_unit_test(test_stop_window),
		cmocka_unit_test(test_nmi_pending_test),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
