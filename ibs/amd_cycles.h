/*
 * amd_cycles.h: the core clock on AMD, the counterpart of pebs/cycles.h: a free-running count
 * of core clocks beside the TSC for timing the load kernels. First choice a legacy core
 * performance counter (AMD64 APM Vol. 2 "Performance Monitoring Counters": PerfEvtSel0-3
 * MSRC001_0000-3, PerfCtr0-3 MSRC001_0004-7, present on every AMD64 part) counting PMCx076
 * "CPU clocks not halted" (PPR 17h/19h/1Ah "Core Performance Monitor Counters"; Linux
 * arch/x86/events/amd/core.c amd_perfmon_event_map[PERF_COUNT_HW_CPU_CYCLES] = 0x0076), on the
 * highest counter firmware left disabled; else IA32_APERF (MSR 0E8h, CPUID 06H:ECX[0], APM
 * Vol. 2 "Effective Frequency Interface": core clocks at the actual frequency in C0). Every
 * access is _safe; a counter is taken only when its select reads back as written and the count
 * moves (a hypervisor that swallows the MSRs leaves it at 0). docs/ibs.md "Core clock".
 */
#ifndef IBS_AMD_CYCLES_H
#define IBS_AMD_CYCLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/cpu.h"

#define MSR_AMD_PERF_CTL(i)	(0xc0010000u + (i))	/* PerfEvtSel0-3 */
#define MSR_AMD_PERF_CTR(i)	(0xc0010004u + (i))	/* PerfCtr0-3, 48 bits */
#define AMD_PERF_CTL_USR	(1ull << 16)
#define AMD_PERF_CTL_OS		(1ull << 17)
#define AMD_PERF_CTL_EN		(1ull << 22)
#define AMD_EVENT_CYCLES	0x076ull	/* PMCx076 CPU clocks not halted */
#define AMD_MSR_APERF		0xe8u
#define AMD_N_LEGACY_PMC	4u

enum amd_cycles_src { AMD_CYC_NONE, AMD_CYC_PMC, AMD_CYC_APERF };

struct amd_cycles {
	enum amd_cycles_src src;
	unsigned pmc;		/* legacy counter index (AMD_CYC_PMC) */
	int fault;		/* vector of a faulting access after init, 0 if none */
	char name[64];		/* "PerfCtr3 (PMCx076 CPU clocks not halted)" */
	char err[96];
};

/* Pick and start the counter on CPU ci. 0, or -1 with ac->err the reason. */
int amd_cycles_init(struct amd_cycles *ac, const struct cpu_info *ci);
/* The header line, pebs/cycles.h's format: "core clock: <name>" or "core clock: none
 * (<reason>); TSC only, TSC != core clock". */
void amd_cycles_header_line(const struct amd_cycles *ac, int rc, char *b, size_t n);
/* The current count (ctx = struct amd_cycles *); re-enables a counter found stopped. 0 after
 * a fault. */
uint64_t amd_cycles_read(void *ctx);

#endif
