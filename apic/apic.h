/*
 * apic.h: the local APIC (SDM Vol. 3A ch. 11 / ch. 12 in newer editions): xAPIC through MMIO or
 * x2APIC through MSRs 0x800+, hidden behind one ops table. The LVT performance-counter entry
 * (LVTPC) carries the PMU interrupt (PMI) that pebs/ installs a handler for.
 *
 * The PMI calls (apic_set_pmi_handler, apic_pmi_rearm, ...) are in apic/apic_pmi.h.
 */
#ifndef APIC_APIC_H
#define APIC_APIC_H

#include <stdbool.h>
#include <stdint.h>

#include "apic/apic_pmi.h"
#include "apic/apic_regs.h"
#include "apic/apic_timer.h"
#include "kernel/idt.h"


/* Bring up the local APIC per the command line (apic=, pmi=). false: no usable APIC. */
bool apic_init(void);
enum apic_mode apic_mode(void);
uint32_t apic_id(void);
void apic_eoi(void);

enum pmi_delivery apic_pmi_delivery(void);
uint32_t apic_lvtpc_read(void);
/* Program the LVTPC of the CPU this runs on like the boot CPU's (APIC_VEC_PMI, fixed or NMI
 * delivery per pmi=, unmasked; SDM Vol. 3A 11.5.1): an application processor calls it when
 * it enables its local APIC, so its PMU's PMIs reach pebs/pmi.c on that CPU. No-op without
 * an APIC or with fewer than 5 LVT entries. */
void apic_lvtpc_setup(void);
/* On an application processor (apic_ap.c): enable its local APIC in the boot CPU's mode and
 * program its LVTs like the boot CPU's. 0, or the vector of the IA32_APIC_BASE write that
 * faulted (the APIC is then left as it was). */
int apic_ap_init(void);

/* Self-IPI on `vector` (fixed delivery, "self" shorthand). */
void apic_self_ipi(uint8_t vector);
/* NMI to this CPU (physical destination = own id: the "self" shorthand is fixed-only). */
void apic_self_nmi(void);
/* NMI to the CPU with APIC ID `dest` (ICR delivery mode NMI, physical, no shorthand). */
void apic_send_nmi(uint32_t dest);

/* Timer: calibrated against the TSC at apic_init (apic/apic_timer.h); the per-test watchdog. */
/*
 * Per-test watchdog (apic/apic_watchdog.c). Arm it with a test's budget; on expiry the
 * timer interrupt prints "# watchdog: ..." and calls the recovery function (interrupts off,
 * EOI done), which abandons the test and must not return (the runner jumps back to its
 * recovery point: kernel/jump.h). Without one, or if it returns, the run ends through
 * run_fatal with a clear line. A hang with interrupts off is out of a maskable timer's
 * reach: such a hang is not caught (there is no NMI watchdog without a PMU).
 */
void apic_watchdog_arm(uint32_t ms);
void apic_watchdog_disarm(void);
void apic_watchdog_set_recovery(void (*fn)(void));
/* True once when a test overran: read-and-clear. */
bool apic_watchdog_fired(void);

/* Nesting (a test that checks the watchdog under the runner's watchdog): save the armed
 * state and recovery function, use the watchdog, restore (re-arms what is left). */
struct apic_watchdog_state {
	void (*recovery)(void);
	bool armed;
	uint64_t deadline;
	uint32_t budget_ms;
};
void apic_watchdog_save(struct apic_watchdog_state *s);
void apic_watchdog_restore(const struct apic_watchdog_state *s);

/* Header lines: "# apic: ..." mode, id, LVTPC vector, timer calibration (full: log=full,
 * three lines; else one line: mode, id, PMI delivery, timer rate). */
void apic_print_header(bool full);

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
