/*
 * traps.h: exception handling (SDM Vol. 3A 6.15, "Exception and Interrupt Reference").
 * Expected faults resume through the fixup table (kernel/extable.h); an unexpected one
 * prints the vector, its name, error code, RIP, CR2 and all GPRs, then either returns to the
 * test runner (which fails the running test and goes on) or ends the run with a failure.
 */
#ifndef KERNEL_TRAPS_H
#define KERNEL_TRAPS_H

#include <stdint.h>

#include "kernel/idt.h"
#include "kernel/jump.h"

enum {
	VEC_DE = 0, VEC_DB = 1, VEC_NMI = 2, VEC_BP = 3, VEC_OF = 4, VEC_BR = 5, VEC_UD = 6,
	VEC_NM = 7, VEC_DF = 8, VEC_TS = 10, VEC_NP = 11, VEC_SS = 12, VEC_GP = 13,
	VEC_PF = 14, VEC_MF = 16, VEC_AC = 17, VEC_MC = 18, VEC_XM = 19, VEC_VE = 20,
	VEC_CP = 21,
};

const char *trap_name(unsigned vector);

/* While set, an unexpected exception jumps here with (vector + 1) instead of ending the
 * run. #DF and #MC always end the run. */
void trap_set_recovery(struct kjmp *j);

/* Called first for an unexpected exception; returns when the CPU it runs on is not its
 * concern (smp/ installs one that reports a fault on an application processor with its CPU
 * number and parks that CPU; the boot CPU's path below is unchanged). */
void trap_set_cpu_hook(void (*fn)(struct trap_frame *f));

/* Counted per vector >= 32 without a handler. */
extern uint64_t spurious_irqs;

void trap_dispatch(struct trap_frame *f);
void trap_dump(const struct trap_frame *f);

#endif
