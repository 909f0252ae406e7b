/*
 * apic_timer_test.c: the APIC timer against the local-APIC model on the virtual TSC
 * (tests/model/vclock.h), every number exact: calibration against the TSC (SDM Vol. 3A
 * 11.5.4), a round lengthened by an interruption, a frozen timer reported, and the watchdog:
 * one-shot re-arm, expiry through the runner's recovery function, nesting, TSC-deadline mode
 * (11.5.4.1) and the run_fatal path when nobody can recover.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "apic/apic.h"
#include "apic/apic_enc.h"
#include "apic/apic_ops.h"
#include "apic/apic_regs.h"
#include "apic/apic_timer.h"
#include "kernel/cpu.h"
#include "kernel/tsc.h"
#include "model/lapic_model.h"
#include "model/vclock.h"
#include "stubs/apic_env.h"
#include "stubs/console_capture.h"

/* The timer at 1e9 TSC Hz / 16 TSC ticks per count = 62.5 MHz. On the virtual clock (one
 * read = ENV_TSC_STEP = 160 ticks, 10 counts) every round measures it exactly: the model
 * reads the count at the time of the TSC read before it, so of a round's two bracketing
 * reads the first sees the count; the midpoints are then W + 160 ticks apart and the counts
 * (W + 160) / 16, with W the 10 ms window. */
static void test_calibration(void **state)
{
	const struct apic_calib *c;

	(void)state;
	assert_true(env_boot(XB, true, 0, ""));
	c = apic_timer_calib();
	assert_int_equal(c->rounds, APIC_CALIB_ROUNDS);
	assert_int_equal(c->hz, 62500000);
	assert_int_equal(c->min_hz, 62500000);
	assert_int_equal(c->max_hz, 62500000);
	assert_int_equal(apic_timer_hz(), c->hz);
	assert_int_equal(lm.regs[APIC_TDCR >> 4], 0x3);	/* divide by 16 */
	assert_int_equal(lm.regs[APIC_TMICT >> 4], 0);	/* stopped afterwards */
	apic_print_header(false);	/* log=brief: one line */
	assert_non_null(strstr(stub_console_text(), "; PMI fixed; timer 62500000 Hz (bus/16), "
			       "watchdog one-shot\n"));
	assert_null(strstr(stub_console_text(), "# apic timer:"));
	apic_print_header(true);	/* log=full: three */
	assert_non_null(strstr(stub_console_text(), "# apic: xAPIC id 0"));
	assert_non_null(strstr(stub_console_text(), "# apic: LVTPC vector 0xe8, delivery fixed"));
	assert_non_null(strstr(stub_console_text(),
			       "# apic timer: 62500000 Hz (bus/16), calibrated against TSC over "
			       "3x10000 us, spread 62500000..62500000 Hz; watchdog one-shot\n"));
}

/* An interruption (an SMI, a preempted vCPU) between the count read and the TSC read after
 * it: 1e6 ticks scripted as the second read's step. That round's midpoint moves 5e5 ticks
 * late: counts (1e7 + 320) / 16 - 10 = 625010 over 1e7 + 400 - 500160 = 9500240 ticks, so
 * 625010 * 1e9 / 9500240 = 65788864 Hz. The median of the three rounds ignores it; the
 * spread shows it. */
static void test_calibration_interrupted_round(void **state)
{
	static const uint64_t hiccup[] = { ENV_TSC_STEP, 1000000 };
	const struct apic_calib *c;

	(void)state;
	assert_true(env_boot(XB, true, 0, ""));
	vclock_script(hiccup, 2);
	apic_timer_calibrate();
	c = apic_timer_calib();
	assert_int_equal(c->rounds, APIC_CALIB_ROUNDS);
	assert_int_equal(c->hz, 62500000);
	assert_int_equal(c->min_hz, 62500000);
	assert_int_equal(c->max_hz, 65788864);
}

static void test_calibration_frozen_timer(void **state)
{
	(void)state;
	assert_true(env_boot(XB, true, 0, ""));
	lm.tsc_per_count = 0;
	apic_timer_calibrate();
	assert_int_equal(apic_timer_hz(), 0);
	assert_non_null(apic_timer_calib()->why_not);
	lm.nlog = 0;
	apic_watchdog_arm(5);	/* nothing to arm with */
	assert_int_equal(lm_last_write(APIC_TMICT), -1);
}

/* The runner's side: a recovery function that jumps back (kjmp_long in the kernel); the
 * env's run_fatal jumps back with 2 for an expiry nobody can recover from. */
static void runner_recovery(void)
{
	longjmp(env_runner_jmp, 1);
}

static void test_watchdog_recovers(void **state)
{
	volatile int body = 0, jumped = 0;
	uint32_t count;

	(void)state;
	assert_true(env_boot(XB, true, 0, ""));
	jumped = setjmp(env_runner_jmp);
	if (!jumped) {
		apic_watchdog_set_recovery(runner_recovery);
		apic_watchdog_arm(2);	/* 2 "ms" = 2e6 TSC ticks */
		count = lm.regs[APIC_TMICT >> 4];
		/* one read (160 ticks) after the deadline was set: 1999840 ticks left, 1999 us
		 * whole, x 62.5 MHz = 124937 counts */
		assert_int_equal(count, 124937);
		assert_false(apic_lvt_masked(lm.regs[APIC_LVTT >> 4]));
		env_fire_timer();		/* early: re-armed, no expiry */
		assert_false(apic_watchdog_fired());
		body = 1;
		vclock_advance(3000000);
		env_fire_timer();		/* calls the recovery function */
		body = 2;
	}
	assert_int_equal(body, 1);
	assert_int_equal(jumped, 1);
	assert_true(apic_watchdog_fired());
	assert_false(apic_watchdog_fired());	/* read-and-clear */
	assert_non_null(strstr(stub_console_text(), "overran its 2 ms budget"));
	assert_non_null(strstr(stub_console_text(), "RIP 0x1234"));
	/* a late interrupt after disarm is ignored */
	apic_watchdog_disarm();
	env_fire_timer();
	assert_false(apic_watchdog_fired());
	apic_watchdog_set_recovery(NULL);
}

static void inner_recovery(void)
{
	longjmp(env_runner_jmp, 3);
}

static void test_watchdog_nested(void **state)
{
	struct apic_watchdog_state saved;
	volatile int jumped;

	(void)state;
	assert_true(env_boot(XB, true, 0, ""));
	apic_watchdog_set_recovery(runner_recovery);	/* the runner's budget */
	apic_watchdog_arm(1000);
	apic_watchdog_save(&saved);
	jumped = setjmp(env_runner_jmp);
	if (!jumped) {
		apic_watchdog_set_recovery(inner_recovery);
		apic_watchdog_arm(1);
		vclock_advance(2000000);
		env_fire_timer();
	}
	assert_int_equal(jumped, 3);			/* the inner recovery ran */
	assert_true(apic_watchdog_fired());
	apic_watchdog_restore(&saved);
	/* the outer budget is armed again with what is left of it: 1e9 ticks less the 2e6
	 * waited and five reads (outer program, inner arm and program, the expiring tick, this
	 * program: 800 ticks) = 997999200 ticks, 997999 us whole, x 62.5 MHz = 62374937 */
	assert_false(apic_lvt_masked(lm.regs[APIC_LVTT >> 4]));
	assert_int_equal(lm.regs[APIC_TMICT >> 4], 62374937);
	env_fire_timer();				/* early tick: not an expiry */
	assert_false(apic_watchdog_fired());
	apic_watchdog_disarm();
	apic_watchdog_set_recovery(NULL);
}

static void test_watchdog_tsc_deadline(void **state)
{
	uint64_t t0;

	(void)state;
	assert_true(env_boot(XB, true, 0, ""));
	cpu.tsc_deadline = true;
	apic_timer_calibrate();
	t0 = vclock.now;
	apic_watchdog_arm(10);
	assert_int_equal((lm.regs[APIC_LVTT >> 4] >> APIC_LVT_TIMER_MODE_SHIFT) & 3,
			 APIC_TIMER_TSC_DEADLINE);
	/* the deadline is the arming read (one step on) plus 10 ms of 1e9 Hz ticks */
	assert_int_equal(lm.tsc_deadline, t0 + ENV_TSC_STEP + 10000000);
	apic_watchdog_disarm();
	assert_int_equal(lm.tsc_deadline, 0);
	assert_true(apic_lvt_masked(lm.regs[APIC_LVTT >> 4]));
	assert_int_equal(lm.unfenced_wrmsr, 0);	/* H9: MFENCE; LFENCE before each WRMSR */
}

static void test_watchdog_fatal_path(void **state)
{
	volatile int jumped;

	(void)state;
	assert_true(env_boot(XB, true, 0, ""));
	apic_watchdog_set_recovery(NULL);
	env_fatal_why = NULL;
	jumped = setjmp(env_runner_jmp);
	if (!jumped) {
		apic_watchdog_arm(1);
		vclock_advance(2000000);
		env_fire_timer();
		fail_msg("the watchdog returned instead of ending the run");
	}
	assert_int_equal(jumped, 2);
	assert_non_null(env_fatal_why);
	assert_non_null(strstr(env_fatal_why, "watchdog"));
}


int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_calibration),
		cmocka_unit_test(test_calibration_interrupted_round),
		cmocka_unit_test(test_calibration_frozen_timer),
		cmocka_unit_test(test_watchdog_recovers),
		cmocka_unit_test(test_watchdog_nested),
		cmocka_unit_test(test_watchdog_tsc_deadline),
		cmocka_unit_test(test_watchdog_fatal_path),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
