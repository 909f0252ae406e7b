/*
 * ibs_disarm_test.c: an IBS measurement that never reaches ibs_stop leaves nothing armed
 * (ibs/ibs.c ibs_disarm_undo, ibs_disarm_here). The IBS model (tests/model/ibs_model.h) tags
 * ops and raises the interrupt into the installed handler for as long as IbsOpEn is set (APM
 * Vol. 2 "Instruction-Based Sampling"); the handler's sink writes into the measurement, which
 * the runner gives to the next test. Abandoned here = the workload jumps out of
 * ibs_measure_run as the per-test watchdog does (ktests/run.c: recovery jump, kt_undo_run,
 * mm_release). After the undo the model runs more ops: nothing tagged, no interrupt, no
 * sample into the released measurement, IBS_OP_CTL and the extended LVT entry as found.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "ibs/ibs_measure.h"
#include "ibs/ibs_regs.h"
#include "ibs_fixture.h"
#include "kernel/ktap_undo.h"

static jmp_buf abandon;
static struct ibs_measure m;
static unsigned chunks;

static const struct ibs_model_op op = { .load = true, .addr = 0x1000, .level = PEBS_LVL_RAM,
					.lat = 300 };

static bool work(void *ctx)
{
	(void)ctx;
	ibs_model_feed(&op, 5000);
	if (++chunks == 5)
		longjmp(abandon, 1);	/* the watchdog's jump back to the runner */
	return chunks < 10000;
}

static void assert_clean(void)
{
	for (unsigned i = 0; i < ibs_model_violation_count(); i++)
		print_error("model violation: %s\n", ibs_model_violation(i));
	assert_int_equal(ibs_model_violation_count(), 0);
}

static void test_abandoned(void **state)
{
	const struct ibs_caps *c = setup(&ibs_model_zen4, APIC_X2APIC, PMI_FIXED_VECTOR);
	static struct ibs_measure_cfg cfg = { .period = 1000, .seed = 3, .target_loads = 1000000,
					      .work = work };
	uint64_t irqs, tagged, loads;

	(void)state;
	chunks = 0;
	if (!setjmp(abandon)) {
		ibs_measure_run(&m, c, &cfg);
		fail_msg("the workload was not abandoned");
	}
	assert_true(m.loads > 0);	/* it was sampling */
	assert_int_equal(kt_undo_run(), 1);	/* the session's undo, and only it */
	irqs = ibs_model_stats()->irqs_delivered;
	tagged = ibs_model_stats()->tagged;
	loads = m.loads;
	ibs_model_feed(&op, 200000);
	assert_int_equal(ibs_model_op_ctl() & IBS_OP_EN, 0);
	assert_int_equal(ibs_model_stats()->tagged, tagged);
	assert_int_equal(ibs_model_stats()->irqs_delivered, irqs);
	assert_int_equal(m.loads, loads);	/* nothing into the released measurement */
	assert_true(ibs_model_restored());
	assert_clean();
}

/* An AP's recovery hook (smp/smp_ap.c, smp_on_ap_recovery): IbsOpEn found set is cleared. */
static void test_ap_hook(void **state)
{
	const struct ibs_caps *c = setup(&ibs_model_zen4, APIC_X2APIC, PMI_FIXED_VECTOR);
	static struct ibs_session s;
	struct ibs_config ic = { .period = 1000, .seed = 3 };

	(void)state;
	assert_int_equal(ibs_start(&s, c, &ic), 0);
	assert_true(ibs_model_op_ctl() & IBS_OP_EN);
	ibs_disarm_here();
	assert_int_equal(ibs_model_op_ctl() & IBS_OP_EN, 0);
	ibs_model_feed(&op, 100000);
	assert_int_equal(ibs_model_stats()->tagged, 0);
	assert_int_equal(kt_undo_run(), 1);	/* the boot CPU's undo restores the rest */
	assert_true(ibs_model_restored());
	assert_clean();
}

/* A measurement that ends normally leaves no undo behind. */
static void test_stopped(void **state)
{
	const struct ibs_caps *c = setup(&ibs_model_zen4, APIC_X2APIC, PMI_FIXED_VECTOR);
	static struct ibs_measure_cfg cfg = { .period = 1000, .seed = 3, .target_loads = 50,
					      .work = work };

	(void)state;
	chunks = 10;	/* past the jump */
	assert_int_equal(ibs_measure_run(&m, c, &cfg), 0);
	assert_int_equal(kt_undo_run(), 0);
	assert_clean();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_abandoned),
		cmocka_unit_test(test_ap_hook),
		cmocka_unit_test(test_stopped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
