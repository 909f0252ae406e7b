/*
 * extable.h: exception fixups and the kernel-only hardware helpers beside them (kernel/hw.c).
 * A _safe helper returns 0, or the vector of the exception it raised (6 #UD, 0 is never
 * returned for #DE: use div0_safe's result != 0, it returns EXTABLE_DE), never faulting.
 * The vector travels in the faulting context's RBX (kernel/hw.c): per CPU and per nesting
 * level by construction, nothing global (SDM Vol. 3A 6.12.1: the handler's IRET restores
 * the interrupted context's registers from the frame it wrote).
 */
#ifndef KERNEL_EXTABLE_H
#define KERNEL_EXTABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/idt.h"

enum extable_kind {
	EXTABLE_KIND_ACCESS = 0,	/* the instruction at insn may fault */
	EXTABLE_KIND_CALL = 1,		/* insn is call_safe's CALL: fetching its target may fault */
};

struct extable_entry {
	uint64_t insn, fixup, kind;
};

/* #DE is vector 0; the helpers report it as this value so 0 can mean "no fault". */
#define EXTABLE_DE 256

/* Trap side, on the table [b, e): true when f->rip is an entry's instruction (or, for a #PF
 * on fetching call_safe's target, when the return address on the stack is a call entry's
 * continuation); then the frame resumes at the continuation with the result (the vector,
 * EXTABLE_DE for #DE) in its RBX. Pure: the kernel passes the linker's table. */
bool extable_fixup_frame(const struct extable_entry *b, const struct extable_entry *e,
			 struct trap_frame *f, uint64_t cr2);
/* The same on the kernel's table (section .extable, linker.ld). */
bool extable_fixup(struct trap_frame *f, uint64_t cr2);

int read64_safe(uint64_t addr, uint64_t *val);
int write64_safe(uint64_t addr, uint64_t val);
int ud2_safe(void);
int div0_safe(void);
/* Call addr; a fault on fetching addr itself (NX, unmapped) returns to the caller. */
int call_safe(uint64_t addr);

uint64_t read_cr0(void);
uint64_t read_cr2(void);
uint64_t read_cr3(void);
uint64_t read_cr4(void);
void write_cr3(uint64_t v);
void write_cr0(uint64_t v);
void write_cr4(uint64_t v);
/* Wait for an interrupt with IF set for the wait only (sti; hlt; cli: the sti shadow means an
 * interrupt already pending wakes the hlt); returns with interrupts off. */
void cpu_wait_irq(void);
__attribute__((noreturn)) void cpu_halt_forever(void);

#endif
