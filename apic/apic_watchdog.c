/*
 * apic_watchdog.c: the per-test watchdog on the local APIC timer (SDM Vol. 3A 11.5.4; TSC-
 * deadline mode 11.5.4.1 where CPUID.1:ECX[24] has it, else one-shot). The deadline is kept
 * in TSC ticks; a one-shot count clamped at 2^32 simply re-arms for the rest. On expiry the
 * interrupt prints why and calls the runner's recovery function, which jumps back to the
 * runner (timer handlers run on the interrupted stack, so the runner's frame is still there);
 * without one the run ends through run_fatal. A hang with IF=0 is out of a maskable timer's
 * reach.
 */
#include "apic/apic.h"
#include "apic/apic_enc.h"
#include "apic/apic_timer.h"
#include "kernel/console.h"
#include "kernel/exit.h"
#include "kernel/tsc.h"

static volatile bool armed, fired;
static uint64_t deadline;
static uint32_t budget_ms;
static void (*recovery)(void);

static void watchdog_tick(struct trap_frame *f);

static void program(void)
{
	const struct apic_calib *c = apic_timer_calib();
	uint64_t now = rdtsc();

	apic_timer_set_idle_tick(watchdog_tick);	/* the timer interrupt's check, below */
	if (c->tsc_deadline) {
		apic_timer_deadline(deadline);
		return;
	}
	apic_timer_oneshot_us(deadline > now ? apic_muldiv64(deadline - now, 1000000, tsc_hz) : 1);
}

void apic_watchdog_arm(uint32_t ms)
{
	const struct apic_calib *c = apic_timer_calib();

	if (apic_mode() == APIC_DISABLED || !tsc_hz || (!c->hz && !c->tsc_deadline))
		return;		/* the header already said the watchdog is unavailable */
	budget_ms = ms;
	fired = false;
	deadline = rdtsc() + apic_muldiv64(tsc_hz, ms, 1000);
	armed = true;
	program();
}

void apic_watchdog_disarm(void)
{
	armed = false;
	apic_timer_stop();
}

void apic_watchdog_set_recovery(void (*fn)(void))
{
	recovery = fn;
}

bool apic_watchdog_fired(void)
{
	bool f = fired;

	fired = false;
	return f;
}

void apic_watchdog_save(struct apic_watchdog_state *s)
{
	s->recovery = recovery;
	s->armed = armed;
	s->deadline = deadline;
	s->budget_ms = budget_ms;
}

void apic_watchdog_restore(const struct apic_watchdog_state *s)
{
	apic_watchdog_disarm();
	recovery = s->recovery;
	deadline = s->deadline;
	budget_ms = s->budget_ms;
	armed = s->armed;
	if (armed)
		program();	/* an expired budget fires at once */
}

static void watchdog_tick(struct trap_frame *f)
{
	void (*fn)(void) = recovery;

	if (!armed)
		return;		/* a late interrupt after disarm */
	if (rdtsc() < deadline) {
		program();	/* clamped one-shot (or early deadline): wait for the rest */
		return;
	}
	armed = false;
	fired = true;
	kprintf("# watchdog: test overran its %u ms budget (interrupted at RIP 0x%llx)\n",
		budget_ms, (unsigned long long)f->rip);
	if (fn) {
		recovery = NULL;
		fn();
	}
	run_fatal("watchdog: a test overran its budget and could not be abandoned");
}
