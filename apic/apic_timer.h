/*
 * apic_timer.h: the local APIC timer (SDM Vol. 3A 11.5.4): calibration against the TSC,
 * one-shot and TSC-deadline programming on APIC_VEC_TIMER. The timer interrupt serves
 * either a test's callback (apic_timer_oneshot_call) or the idle tick the watchdog
 * registers; it never calls up into apic.c or apic_watchdog.c.
 */
#ifndef APIC_APIC_TIMER_H
#define APIC_APIC_TIMER_H

#include <stdbool.h>
#include <stdint.h>

#include "apic/apic_regs.h"
#include "kernel/idt.h"

#define APIC_TIMER_DIVISOR	16u	/* divide by 16: below 2^32 counts for ~60 s at 1 GHz */
#define APIC_CALIB_ROUNDS	3u
#define APIC_CALIB_US		10000u	/* one calibration window */

struct apic_calib {
	uint64_t hz;		/* median of the rounds, counts/s after the divider */
	uint64_t min_hz, max_hz;
	unsigned rounds;
	bool tsc_deadline;	/* CPUID.1:ECX[24]: the watchdog uses TSC-deadline mode */
	const char *why_not;	/* reason there is no calibration (NULL when hz != 0) */
};

/* Calibrate (interrupts may be off; busy-waits APIC_CALIB_ROUNDS windows on the TSC). */
void apic_timer_calibrate(void);
const struct apic_calib *apic_timer_calib(void);

/* Install the timer vector handler (apic_init). */
void apic_timer_install(void);

/* Mask the timer and stop it (all modes); drops a test's callback. */
void apic_timer_stop(void);

/* One-shot after `us` calling fn(frame) from the interrupt (tests); false if not calibrated. */
bool apic_timer_oneshot_call(uint64_t us, irq_handler_fn fn);
/* One-shot after `us` (clamped to the 32-bit count): for the watchdog. */
void apic_timer_oneshot_us(uint64_t us);
/* Timer interrupts taken so far (apic_stats in apic.c reports them). */
uint64_t apic_timer_irqs(void);
/* Rate the timer counts at after its divider (Hz); 0 when not calibrated. */
uint64_t apic_timer_hz(void);
/* TSC-deadline mode: fire when the TSC reaches `tsc` (CPUID.1:ECX[24] only). */
void apic_timer_deadline(uint64_t tsc);
/* What the timer interrupt calls when no test's one-shot callback is pending: the watchdog
 * registers its expiry check here (apic_watchdog.c) when it is first armed. */
void apic_timer_set_idle_tick(irq_handler_fn fn);

#endif
