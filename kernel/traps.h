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
