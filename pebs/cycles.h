/*
 * cycles.h: a free-running core-cycle counter for timing the load kernels beside the TSC:
 * fixed counter 1 (CPU_CLK_UNHALTED.CORE, SDM Vol. 3B 20.2.2, perfmon >= 2) or, where that
 * counter is absent, the architectural event UnHalted Core Cycles (event 0x3C umask 0, SDM
 * Table 20-1, CPUID.0AH:EBX[0]) on the highest GP counter, away from the low counters PEBS
 * uses (docs/hardware.md §1.3, §2, §6).
 */
#ifndef PEBS_CYCLES_H
#define PEBS_CYCLES_H

#include <stdbool.h>
#include <stdint.h>

#include "pebs/caps.h"

struct pmu_cycles {
	const struct pebs_caps *caps;
	bool fixed;		/* fixed counter 1, else GP counter `gp` */
	unsigned gp;
	int fault;		/* vector of a faulting MSR access, 0 if none */
	char name[64];		/* "fixed counter 1 (CPU_CLK_UNHALTED.CORE)" */
	char err[96];
};

/* Pick and start the counter. 0, or -1 with pc->err the reason (no counter). */
int pmu_cycles_init(struct pmu_cycles *pc, const struct pebs_caps *c);
/* The kernel's header line for the counter pmu_cycles_init picked (rc its return) into b,
 * without "# ": "core clock: <name>" or "core clock: none (<reason>); TSC only, ..." */
void pmu_cycles_header_line(const struct pmu_cycles *pc, int rc, char *b, size_t n);
/*
 * The current count (ctx = struct pmu_cycles *). Others (pmu_count, the PEBS driver) rewrite
 * GLOBAL_CTRL and may stop the counter between uses, so a read re-enables it when it finds it
 * stopped; two reads around a kernel then count that kernel. 0 after a fault.
 */
uint64_t pmu_cycles_read(void *ctx);

#endif
