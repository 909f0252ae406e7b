/*
 * nmi.h: NMIs nobody claimed (SDM Vol. 3A 6.7.1 "Handling Multiple NMIs", 11.5.1 LINT1;
 * Linux arch/x86/kernel/nmi.c unknown_nmi_error(): "NMI received for unknown reason ...
 * Dazed and confused, but trying to continue"). A BMC's diagnostic interrupt, a PCIe SERR,
 * a watchdog or QEMU's monitor command `nmi` is reported, never fatal: the trap side
 * (kernel/traps.c) counts it for the CPU it landed on and keeps where it landed (CPU, RIP,
 * the test running); the runner prints that afterwards (`# nmi:` lines, docs/output.md),
 * never the NMI itself (the console lock may be held by the code it interrupted).
 */
#ifndef KERNEL_NMI_H
#define KERNEL_NMI_H

#include <stddef.h>
#include <stdint.h>

#include "kernel/idt.h"

#define NMI_CPUS 64		/* CPUs counted one by one; the others share the last count */
#define NMI_LOG  8		/* landings kept: the last NMI_LOG */

struct nmi_landing {
	unsigned cpu;
	uint64_t rip;
	const char *where;	/* the test running then, NULL outside a test */
};

/* The CPU number of the CPU this runs on (smp/ installs it; without one every NMI counts
 * for CPU 0). It must be safe in an NMI. */
void nmi_set_cpu_fn(unsigned (*fn)(void));
/* The runner names the test that runs from now on (NULL: none). */
void nmi_set_context(const char *name);
/* Trap side: an NMI no hook claimed. */
void nmi_unknown(const struct trap_frame *f);

uint64_t nmi_count(void);		/* every CPU, since boot */
uint64_t nmi_count_cpu(unsigned cpu);
/* The landings numbered [since, nmi_count()) that are still kept, oldest first, at most max;
 * returns how many were written. */
unsigned nmi_landings(uint64_t since, struct nmi_landing *out, unsigned max);
/* "N unknown NMI(s): cpu C at RIP 0x... in TEST, ..." for the NMIs since `since`: the first
 * `named` landings still kept, "and K more" for the rest, into buf; the length written. */
size_t nmi_describe(uint64_t since, unsigned named, char *buf, size_t len);
/* "cpu0 N, cpu2 M" over every CPU with a count; the length written. */
size_t nmi_describe_cpus(char *buf, size_t len);
/* Back to no NMIs (host tests). */
void nmi_reset(void);

#endif
