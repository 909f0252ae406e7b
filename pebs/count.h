/*
 * count.h: counting (not sampling) the architectural event INST_RETIRED.ANY, on fixed counter
 * 0 (perfmon >= 2) or else GP counter 0 with event 0xC0 umask 0 (SDM Vol. 3B 20.2.1-20.2.2,
 * docs/hardware.md §1.1, §1.3, §2 CPUID.0AH:EBX[1]).
 */
#ifndef PEBS_COUNT_H
#define PEBS_COUNT_H

#include <stdbool.h>
#include <stdint.h>

#include "pebs/caps.h"

struct pmu_count {
	const struct pebs_caps *caps;
	bool fixed;		/* fixed counter 0, else GP counter 0 */
	int fault;		/* vector of a faulting MSR access, 0 if none */
	char err[96];
};

/* Zero and start the counter (ring 0 and 3). 0, or -1 with pc->err the reason. */
int pmu_count_start(struct pmu_count *pc, const struct pebs_caps *c);
/* Stop and return the count (0 after a fault, with pc->fault set). */
uint64_t pmu_count_stop(struct pmu_count *pc);

#endif
