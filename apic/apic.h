/*
 * apic.h: the local APIC (SDM Vol. 3A ch. 11 / ch. 12 in newer editions): xAPIC through MMIO or
 * x2APIC through MSRs 0x800+, hidden behind one ops table. The LVT performance-counter entry
 * (LVTPC) carries the PMU interrupt (PMI) that pebs/ installs a handler for.
 *
 * PMI rule (SDM 20.x "Generic PMI"): delivery of a PMI sets LVTPC's mask bit; the handler
 * must unmask LVTPC before it returns, then EOI (apic_pmi_rearm does both, in that order).
 * The PMI dispatcher calls the installed handler and then apic_pmi_rearm itself unless the
 * handler already did (a handler may re-arm earlier, e.g. before re-enabling GLOBAL_CTRL):
 * exactly one unmask + EOI per PMI either way.
 */
#ifndef APIC_APIC_H
#define APIC_APIC_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/idt.h"

#define APIC_VEC_TIMER     0xe0
#define APIC_VEC_PMI       0xe8
#define APIC_VEC_ERROR     0xfe
#define APIC_VEC_SPURIOUS  0xff

enum apic_mode { APIC_DISABLED, APIC_XAPIC, APIC_X2APIC };
enum pmi_delivery { PMI_FIXED_VECTOR, PMI_NMI };

/* Bring up the local APIC per the command line (apic=, pmi=). false: no usable APIC. */
bool apic_init(void);
enum apic_mode apic_mode(void);
uint32_t apic_id(void);
void apic_eoi(void);

/* PMI: install the handler pebs/ uses (NULL removes it); it is called with the trap frame. */
void apic_set_pmi_handler(irq_handler_fn fn);
enum pmi_delivery apic_pmi_delivery(void);
/* Unmask LVTPC (keeping its vector and delivery mode), then EOI for fixed delivery.
 * Only from inside a PMI handler (the EOI retires the highest in-service vector). */
void apic_pmi_rearm(void);
uint32_t apic_lvtpc_read(void);

/* Self-IPI on `vector`. */
void apic_self_ipi(uint8_t vector);

/* Timer: calibrated against the TSC at apic_init; the per-test watchdog. */
/* Rate the timer counts at after its divider (Hz); 0 when not calibrated. */
uint64_t apic_timer_hz(void);
/*
 * Per-test watchdog (apic/apic_watchdog.c). Arm it with a test's budget; on expiry the
 * timer interrupt prints "# watchdog: ..." and, when the runner set a recovery point with
 * APIC_WATCHDOG_TRY, unwinds to it (the test is reported "# TIMEOUT"); without one it ends
 * the run through apic_watchdog_set_fatal's function. A hang with interrupts off cannot be
 * caught by a maskable timer: that limitation is printed with the expiry-less report.
 */
void apic_watchdog_arm(uint32_t ms);
void apic_watchdog_disarm(void);
/* __builtin_setjmp buffer the expiry handler unwinds to (valid while apic_watchdog_recover). */
extern void *apic_watchdog_jmp[5];
extern volatile bool apic_watchdog_recover;
/* True once when a test overran: the runner reads and clears it after APIC_WATCHDOG_TRY. */
bool apic_watchdog_fired(void);
/* Called when the watchdog expires with no recovery point (ends the run; must not return). */
void apic_watchdog_set_fatal(void (*fn)(void));
/*
 * Runner usage (the setjmp must live in the runner's own frame, hence a macro):
 *	if (APIC_WATCHDOG_TRY()) { apic_watchdog_arm(ms); r = fn(t); apic_watchdog_disarm(); }
 *	else r = timeout;      // interrupts are re-enabled, the test's stack abandoned
 *	apic_watchdog_recover = false;
 */
#define APIC_WATCHDOG_TRY() \
	(apic_watchdog_recover = true, __builtin_setjmp(apic_watchdog_jmp) == 0)

/* Nesting (a test that checks the watchdog under the runner's watchdog): save the armed
 * state and recovery point, use the watchdog, restore (re-arms what is left of the budget). */
struct apic_watchdog_state {
	void *jmp[5];
	bool recover, armed;
	uint64_t deadline;
	uint32_t budget_ms;
};
void apic_watchdog_save(struct apic_watchdog_state *s);
void apic_watchdog_restore(const struct apic_watchdog_state *s);

/* Header lines: "# apic: ..." mode, id, LVTPC vector, timer calibration. */
void apic_print_header(void);

/* Counters the handlers keep (reported by the apic test and the header). */
struct apic_stats {
	unsigned errors;	/* error-LVT interrupts */
	uint32_t last_esr;
	unsigned spurious;	/* spurious-vector interrupts */
	uint64_t pmis;		/* PMI-vector or PMI-NMI entries */
	uint64_t timer_irqs;
};
const struct apic_stats *apic_stats(void);
/* Firmware locked the APIC in x2APIC mode (IA32_XAPIC_DISABLE_STATUS[0]). */
bool apic_x2apic_locked(void);
/* In-service bit of `vector` (ISR register), for tests of the EOI path. */
bool apic_vector_in_service(uint8_t vector);

#endif
