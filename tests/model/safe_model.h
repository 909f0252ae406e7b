/*
 * safe_model.h: CPUs that run the kernel's _safe accessor protocol (kernel/hw.c) at
 * instruction granularity, for tests of the trap side (kernel/traps.c, kernel/extable.c).
 * Each CPU has a register file (a struct trap_frame); an access sets RBX to 0, executes the
 * model instruction and, when it faults, delivers the exception as the CPU does (SDM Vol. 3A
 * 6.12.1: the frame is the interrupted context's registers; the handler's IRET restores them)
 * by calling trap_dispatch, then returns RBX. Between the protocol's steps a knob may run an
 * interrupt or NMI on the same CPU (its handler makes its own _safe accesses one nesting level
 * deeper, between a push and a pop of the register file) or let another CPU make its accesses
 * (two CPUs interleaved at MSR granularity). MSRs: one with SM_MSR_GP set #GPs (vector 13),
 * any other reads back its own number.
 */
#ifndef MODEL_SAFE_MODEL_H
#define MODEL_SAFE_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/idt.h"

#define SM_MSR_GP 0x10000u
#define SM_CPUS 4

enum sm_point {
	SM_BEFORE_INSN,		/* RBX is 0, the instruction has not run */
	SM_BEFORE_READ,		/* the instruction ran (and faulted, or not); RBX not yet read */
	SM_POINTS,
};

struct sm_cpu {
	struct trap_frame regs;
	unsigned id, depth;	/* depth: interrupt nesting level */
	bool busy;		/* an access in flight at this depth: the CPU can only be
				 * interrupted, not start another one */
	uint64_t accesses, faults;
};

extern struct sm_cpu sm_cpus[SM_CPUS];

/* Called at every point of every access (NULL: none); it may call sm_interrupt or access
 * from another CPU. */
extern void (*sm_hook)(struct sm_cpu *c, enum sm_point p);

void sm_reset(void);
/* The kernel's rdmsr_safe on CPU c: 0 or the vector, *val the value (0 after a fault). */
int sm_rdmsr_safe(struct sm_cpu *c, uint32_t msr, uint64_t *val);
/* An interrupt (or NMI) on c: the register file is pushed, handler(c, ctx) runs on it,
 * the IRET pops it. */
void sm_interrupt(struct sm_cpu *c, void (*handler)(struct sm_cpu *c, void *ctx), void *ctx);

#endif
