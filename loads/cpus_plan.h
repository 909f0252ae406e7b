/*
 * cpus_plan.h: the plan of the per-CPU load test (ktests/load_cpus.c, issue 15): which
 * application processors run the L1/L2/L3/DRAM kernels' timed and PEBS steps (the ones
 * `cpus=` selects, smp/boot_plan.h), why the test SKIPs when none does, and the names its
 * lines and subtests carry (docs/output.md §3 "Per-CPU runs"). Pure: host-tested.
 * Each such CPU programs its own PMU (SDM Vol. 3B 18.4.9: IA32_DS_AREA is per logical
 * processor) and decodes with its own core type (SDM Vol. 2A CPUID leaf 1AH).
 */
#ifndef LOADS_CPUS_PLAN_H
#define LOADS_CPUS_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "smp/boot_plan.h"

struct cpus_plan_in {
	unsigned online;	/* CPUs online, the boot CPU included */
	const char *why_none;	/* why no AP was started (smp_why_none), or NULL */
	enum smp_cpus_mode mode;	/* the cpus= request */
	unsigned aps;		/* application processors online and selected by cpus= */
};

/* NULL when at least one AP runs; else the SKIP reason, written into b. */
const char *cpus_plan_skip(const struct cpus_plan_in *in, char *b, size_t n);

/* The kernel name of CPU n at load level `level` (0 = L1 .. 3 = DRAM):
 * "load_l2@cpu3", and its subtest prefix "cpu3_l2_". false: level out of range. */
bool cpus_plan_names(unsigned n, unsigned level, char *kernel, size_t kn, char *sub,
		     size_t sn);

/* The `type=` value of a CPU's line: P-core, E-core or `-` (not hybrid, CPUID.1AH). */
const char *cpus_plan_type(uint8_t core_type);

#endif
