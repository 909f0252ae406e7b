/*
 * apic_ops.h: apic/-internal register access. One small ops table (read, write, ICR, id) per
 * mode hides xAPIC (MMIO at the IA32_APIC_BASE address, SDM Vol. 3A 11.4.1) from x2APIC
 * (MSR 0x800 + offset/16, 11.12.1.2); everything in apic/ above this file is mode-blind.
 * Offsets are the APIC_* constants of apic_regs.h. x2APIC accesses use the _safe MSR
 * accessors: a faulting access is counted and remembered (apic_ops_faults), never fatal.
 */
#ifndef APIC_APIC_OPS_H
#define APIC_APIC_OPS_H

#include <stdbool.h>
#include <stdint.h>

#include "apic/apic_regs.h"

struct apic_ops {
	const char *name;
	uint32_t (*read)(unsigned reg);
	void (*write)(unsigned reg, uint32_t val);
	void (*icr_write)(uint64_t icr);	/* full ICR (xAPIC: ICR2 first, then ICR) */
	uint32_t (*id)(void);
};

extern const struct apic_ops apic_xapic_ops, apic_x2apic_ops;

/* Select the ops for `mode`; xAPIC uses `mmio_base` (already mapped uncached). */
void apic_ops_select(enum apic_mode mode, uintptr_t mmio_base);
const struct apic_ops *apic_ops_current(void);

uint32_t apic_read(unsigned reg);
void apic_write(unsigned reg, uint32_t val);
void apic_icr_write(uint64_t icr);

/* Faulting x2APIC MSR accesses since boot, and the last one (MSR number, 0 = none). */
struct apic_fault_log {
	unsigned count;
	uint32_t last_msr;
	int last_vector;
	bool last_was_write;
};
const struct apic_fault_log *apic_ops_faults(void);

/* Bounded wait for the xAPIC ICR delivery-status bit to clear; false on timeout. */
bool apic_icr_idle_wait(void);

#endif
