/*
 * ktap_undo.h: what a running test owes the machine, paid by the runner however the test
 * ends. A test that changes state outside its own memory (a model-specific register on every
 * CPU it uses, application processors left running its jobs) registers the undo before the
 * change and drops it once it has undone that itself. A test abandoned by the per-test
 * watchdog (apic/apic.h apic_watchdog_set_recovery) or by an exception (kernel/traps.h
 * trap_set_recovery) jumps back to the runner past its own clean-up, and a test may return
 * through a path that forgot it: the runner (ktests/run.c) runs what is still registered,
 * last registered first, with interrupts off on the boot CPU, before the test's memory is
 * released. An undo must itself be bounded (SDM Vol. 3A 9.4: an AP may not answer).
 * The list is the boot CPU's: once kt_undo_set_cpu has named how to tell the CPU this runs
 * on (smp/ at bring-up), a push from an application processor registers nothing (false) and
 * a drop from one forgets nothing, so code shared by every CPU (a PEBS session) can push and
 * drop on any CPU and only the boot CPU's entries exist.
 */
#ifndef KERNEL_KTAP_UNDO_H
#define KERNEL_KTAP_UNDO_H

#include <stdbool.h>

#define KT_UNDO_MAX 8

typedef void (*kt_undo_fn)(void *arg);

/* Register fn(arg); false when KT_UNDO_MAX are registered already (nothing registered). */
bool kt_undo_push(kt_undo_fn fn, void *arg);
/* Forget fn(arg) (the test undid it itself); nothing when it is not registered. */
void kt_undo_drop(kt_undo_fn fn, void *arg);
/* The CPU this runs on (0: the boot CPU); NULL, the default: always the boot CPU. */
void kt_undo_set_cpu(unsigned (*this_cpu)(void));
/* For the runner: run every registered undo, last first, and forget them; how many ran. */
unsigned kt_undo_run(void);

#endif
