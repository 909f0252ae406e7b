/*
 * extable.h: exception fixups and the kernel-only hardware helpers beside them (kernel/hw.c).
 * A _safe helper returns 0, or the vector of the exception it raised (6 #UD, 0 is never
 * returned for #DE: use div0_safe's result != 0, it returns EXTABLE_DE), never faulting.
 */
#ifndef KERNEL_EXTABLE_H
#define KERNEL_EXTABLE_H

#include <stdbool.h>
#include <stdint.h>

struct extable_entry {
	uint64_t insn, fixup;
};

/* Set by the trap handler before resuming at the fixup; read by the _safe helpers. */
extern volatile int extable_vector;

/* #DE is vector 0; the helpers report it as this value so 0 can mean "no fault". */
#define EXTABLE_DE 256

/* Trap side: true (and frame RIP moved to the fixup) when `rip` has an entry. */
bool extable_fixup(uint64_t rip, uint64_t *new_rip);

int read64_safe(uint64_t addr, uint64_t *val);
int write64_safe(uint64_t addr, uint64_t val);
int ud2_safe(void);
int div0_safe(void);
/* Call addr; a fault on fetching addr itself (NX, unmapped) returns to the caller. */
int call_safe(uint64_t addr);
extern uint64_t extable_call_target;

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
