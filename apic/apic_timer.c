/*
 * apic_timer.c: the local APIC timer (SDM Vol. 3A 11.5.4): divide configuration, one-shot,
 * and TSC-deadline modes (11.5.4.1) on APIC_VEC_TIMER, and its calibration against
 * the TSC: the timer counts down from 0xffffffff while the TSC measures a fixed window;
 * APIC_CALIB_ROUNDS windows, median taken, spread kept for the header.
 */
#include "apic/apic_enc.h"
#include "apic/apic_ops.h"
#include "apic/apic_regs.h"
#include "apic/apic_timer.h"
#include "kernel/cpu.h"
#include "kernel/hw.h"
#include "kernel/tsc.h"

static struct apic_calib calib;
static irq_handler_fn tick_fn, idle_tick;
static uint64_t timer_irqs;
static bool installed;

static void timer_isr(struct trap_frame *f)
{
	irq_handler_fn t = tick_fn ? tick_fn : idle_tick;

	timer_irqs++;
	/* EOI first: the watchdog may unwind and never return here. The vector is only
	 * delivered by an enabled APIC, so the write needs no mode check. */
	apic_write(APIC_EOI, 0);
	if (t)
		t(f);
}

uint64_t apic_timer_irqs(void)
{
	return timer_irqs;
}

void apic_timer_set_idle_tick(irq_handler_fn fn)
{
	idle_tick = fn;
}

void apic_timer_install(void)
{
	installed = true;	/* apic_init calls this once the APIC is enabled */
	idt_set_handler(APIC_VEC_TIMER, timer_isr);
}

static void lvtt(unsigned timer_mode, bool masked)
{
	apic_write(APIC_LVTT, apic_lvt_pack(APIC_VEC_TIMER, APIC_DM_FIXED, masked, timer_mode));
}

/* One window: counts the timer ran over `window` TSC ticks, and the TSC ticks measured. */
static bool calib_round(uint64_t window, uint64_t *counts, uint64_t *ticks)
{
	uint64_t t0a, t0b, t1a, t1b;
	uint32_t c0, c1;

	apic_write(APIC_TMICT, 0xffffffffu);
	t0a = rdtsc_ordered();
	c0 = apic_read(APIC_TMCCT);
	t0b = rdtsc_ordered();
	while (rdtsc_ordered() - t0a < window)
		;
	t1a = rdtsc_ordered();
	c1 = apic_read(APIC_TMCCT);
	t1b = rdtsc_ordered();
	apic_write(APIC_TMICT, 0);
	if (c1 >= c0 || c1 == 0)
		return false;	/* not counting, or ran out: no rate */
	*counts = c0 - c1;
	/* each read is bracketed by two TSC reads: take the midpoints */
	*ticks = (t1a / 2 + t1b / 2) - (t0a / 2 + t0b / 2);
	return *ticks != 0;
}

void apic_timer_calibrate(void)
{
	uint64_t hz[APIC_CALIB_ROUNDS], window, counts, ticks;
	uint32_t tdcr = 0;

	calib = (struct apic_calib){ .tsc_deadline = cpu.tsc_deadline };
	if (!tsc_hz) {
		calib.why_not = "TSC frequency unknown";
		return;
	}
	apic_tdcr_encode(APIC_TIMER_DIVISOR, &tdcr);
	apic_write(APIC_TDCR, tdcr);
	lvtt(APIC_TIMER_ONESHOT, true);
	window = apic_muldiv64(tsc_hz, APIC_CALIB_US, 1000000);
	for (unsigned i = 0; i < APIC_CALIB_ROUNDS; i++) {
		if (!calib_round(window, &counts, &ticks)) {
			calib.why_not = "the APIC timer did not count down";
			return;
		}
		hz[i] = apic_calib_hz(counts, ticks, tsc_hz);
		if (!calib.min_hz || hz[i] < calib.min_hz)
			calib.min_hz = hz[i];
		if (hz[i] > calib.max_hz)
			calib.max_hz = hz[i];
	}
	calib.rounds = APIC_CALIB_ROUNDS;
	calib.hz = apic_median(hz, APIC_CALIB_ROUNDS);
}

const struct apic_calib *apic_timer_calib(void)
{
	return &calib;
}

uint64_t apic_timer_hz(void)
{
	return calib.hz;
}

bool apic_timer_oneshot_call(uint64_t us, irq_handler_fn fn)
{
	if (!calib.hz)	/* set only by apic_init's calibration of an enabled APIC */
		return false;
	apic_write(APIC_TMICT, 0);
	tick_fn = fn;
	apic_timer_oneshot_us(us);
	return true;
}

void apic_timer_stop(void)
{
	if (!installed)		/* no enabled APIC: nothing to stop */
		return;
	lvtt(APIC_TIMER_ONESHOT, true);
	apic_write(APIC_TMICT, 0);
	if (calib.tsc_deadline) {
		hw_wrmsr_fence();
		wrmsr_safe(MSR_IA32_TSC_DEADLINE, 0);
	}
	tick_fn = 0;
}

void apic_timer_oneshot_us(uint64_t us)
{
	lvtt(APIC_TIMER_ONESHOT, false);
	apic_write(APIC_TMICT, apic_timer_count_for_us(calib.hz, us));
}

void apic_timer_deadline(uint64_t tsc)
{
	lvtt(APIC_TIMER_TSC_DEADLINE, false);
	/* the LVT write must be ordered before the WRMSR (11.5.4.1; kernel/hw.h) */
	hw_wrmsr_fence();
	wrmsr_safe(MSR_IA32_TSC_DEADLINE, tsc ? tsc : 1);
}
