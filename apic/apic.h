/*
 * apic.h: the local APIC (SDM Vol. 3A ch. 11 / ch. 12 in newer editions): xAPIC through MMIO or
 * x2APIC through MSRs 0x800+, hidden behind one ops table. The LVT performance-counter entry
 * (LVTPC) carries the PMU interrupt (PMI) that pebs/ installs a handler for.
 *
 * PMI rule (SDM 20.x "Generic PMI"): delivery of a PMI sets LVTPC's mask bit; the handler
 * must unmask LVTPC before it returns, then EOI (apic_pmi_rearm does both, in that order).
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
/* Unmask LVTPC (keeping its vector and delivery mode), then EOI for fixed delivery. */
void apic_pmi_rearm(void);
uint32_t apic_lvtpc_read(void);

/* Self-IPI on `vector`. */
void apic_self_ipi(uint8_t vector);

/* Timer: calibrated against the TSC at apic_init; the per-test watchdog. */
uint64_t apic_timer_hz(void);
void apic_watchdog_arm(uint32_t ms);
void apic_watchdog_disarm(void);

#endif
