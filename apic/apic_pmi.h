/*
 * apic_pmi.h: the PMI's way through the local APIC, per CPU (apic/apic_pmi.c; SDM Vol. 3B
 * 20.x "Generic PMI": delivery of a PMI sets LVTPC's mask bit; the handler must unmask LVTPC
 * before it returns, then EOI for a fixed vector). The dispatcher calls the installed handler
 * and then apic_pmi_rearm itself unless the handler already did (a handler may re-arm
 * earlier, e.g. before re-enabling GLOBAL_CTRL): exactly one unmask + EOI per PMI either way.
 * apic.h includes this header: users outside apic/ include apic.h.
 */
#ifndef APIC_APIC_PMI_H
#define APIC_APIC_PMI_H

#include <stdbool.h>
#include <stdint.h>

#include "apic/apic_regs.h"
#include "kernel/idt.h"

/* PMI: install the handler pebs/ or ibs/ uses (NULL removes it); called with the trap frame. */
void apic_set_pmi_handler(irq_handler_fn fn);
/* With pmi=nmi: the PMI source's own test of whether its hardware raised the NMI being
 * handled (IBS: IbsOpVal), asked when LVTPC is not masked; NULL removes it. */
void apic_set_pmi_pending(bool (*fn)(void));
/* Unmask LVTPC (keeping its vector and delivery mode), then EOI for a vector entry.
 * Only from inside a PMI handler (the EOI retires the highest in-service vector). */
void apic_pmi_rearm(void);
/* PMI entries (vector or NMI) on every CPU since apic_init. */
uint64_t apic_pmi_count(void);

/* apic/ internal: apic.c sets the state up (APIC present, delivery) and takes this CPU's
 * slot; an AP takes its own at its bring-up; the vector's ISR and the NMI hook. */
void apic_pmi_init(bool apic_enabled, enum pmi_delivery d);
void apic_pmi_cpu_setup(void);
void apic_pmi_vector_isr(struct trap_frame *f);
bool apic_pmi_nmi_hook(struct trap_frame *f);

#endif
