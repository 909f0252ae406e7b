/*
 * apic_watchdog.c: the per-test watchdog on the local APIC timer (SDM Vol. 3A 11.5.4; TSC-
 * deadline mode 11.5.4.1 where CPUID.1:ECX[24] has it, else one-shot). The deadline is kept
 * in TSC ticks; a one-shot count clamped at 2^32 simply re-arms for the rest. On expiry the
 * interrupt prints why and unwinds to the runner's APIC_WATCHDOG_TRY point (__builtin_longjmp:
 * timer handlers run on the interrupted stack, so the runner's frame is still below it), or
 * ends the run through the fatal function. Needs interrupts enabled in the test: a hang with
 * IF=0 is out of a maskable timer's reach (a limitation the runner documents).
 */
#include "apic/apic.h"
#include "apic/apic_enc.h"
#include "apic/apic_timer.h"
#include "kernel/console.h"
#include "kernel/tsc.h"

#include <string.h>

void *apic_watchdog_jmp[5];
volatile bool apic_watchdog_recover;

static volatile bool armed, fired;
static uint64_t deadline;
static uint32_t budget_ms;
static void (*fatal_fn)(void);

static void program(void)
{
	const struct apic_calib *c = apic_timer_calib();
	uint64_t now = rdtsc();

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

bool apic_watchdog_fired(void)
{
	bool f = fired;

	fired = false;
	return f;
}

void apic_watchdog_set_fatal(void (*fn)(void))
{
	fatal_fn = fn;
}

void apic_watchdog_save(struct apic_watchdog_state *s)
{
	memcpy(s->jmp, apic_watchdog_jmp, sizeof(s->jmp));
	s->recover = apic_watchdog_recover;
	s->armed = armed;
	s->deadline = deadline;
	s->budget_ms = budget_ms;
}

void apic_watchdog_restore(const struct apic_watchdog_state *s)
{
	apic_watchdog_disarm();
	memcpy(apic_watchdog_jmp, s->jmp, sizeof(s->jmp));
	apic_watchdog_recover = s->recover;
	deadline = s->deadline;
	budget_ms = s->budget_ms;
	armed = s->armed;
	if (armed)
		program();	/* an expired budget fires at once */
}

void apic_watchdog_tick(struct trap_frame *f)
{
	if (!armed)
		return;		/* a late interrupt after disarm */
	if (rdtsc() < deadline) {
		program();	/* clamped one-shot (or early deadline): wait for the rest */
		return;
	}
	armed = false;
	fired = true;
	kprintf("\n# watchdog: test overran its %u ms budget (interrupted at RIP 0x%llx)\n",
		budget_ms, (unsigned long long)f->rip);
	if (apic_watchdog_recover) {
		apic_watchdog_recover = false;
		__builtin_longjmp(apic_watchdog_jmp, 1);
	}
	kprintf("# watchdog: no recovery point: ending the run\n");
	if (fatal_fn)
		fatal_fn();
	kprintf("# watchdog: no exit path: halted\n");
	irq_disable();
	for (;;)
		;
}
