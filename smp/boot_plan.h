/*
 * boot_plan.h: the pure decisions of application-processor start-up (SDM Vol. 3A 9.4 "Multiple-
 * Processor (MP) Initialization"): which page below 1 MiB holds the real-mode trampoline
 * (chosen from the memory map), how long to wait between INIT and SIPI, and the `cpus=`
 * option (which CPUs the per-CPU tests run on). Pure C, host-tested (tests/host/smp_plan_test.c).
 */
#ifndef SMP_BOOT_PLAN_H
#define SMP_BOOT_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/cpu.h"
#include "kernel/mb2.h"

/* cpus=LIST: CPU numbers below SMP_CPUS_NUM_LIMIT, at most SMP_CPUS_MAX_RANGES ranges */
#define SMP_CPUS_NUM_LIMIT  (1u << 20)
#define SMP_CPUS_MAX_RANGES 16

/* SIPI vector VV starts the AP at VV000H (9.4.4.1); vectors A0H-BFH are reserved (9.4.4.1
 * note), so the page must lie in [1000H, A0000H). */
#define SMP_TRAMP_LOW  0x1000ull
#define SMP_TRAMP_HIGH 0xa0000ull

struct smp_range {
	uint64_t base, len;
};

/*
 * The highest 4 KiB page p in [SMP_TRAMP_LOW, SMP_TRAMP_HIGH) such that [p, p + size) lies
 * inside one MB2_MEM_AVAILABLE entry of the map and overlaps no avoid range. 0 with *why
 * set when none fits (size 0 or larger than a page range, no usable low memory).
 */
uint64_t smp_tramp_place(const struct mb2_mmap_entry *map, unsigned n, uint64_t size,
			 const struct smp_range *avoid, unsigned navoid, const char **why);

/* Delays of the INIT-SIPI-SIPI sequence in microseconds. */
struct smp_delays {
	uint32_t init_us;	/* after INIT, before the first SIPI */
	uint32_t sipi_us;	/* after each SIPI, before the next / before waiting */
	bool fast;
	const char *why;	/* which rule chose them */
};
void smp_delays_for(const struct cpu_info *ci, struct smp_delays *d);

/* cpus=bsp|types|all|LIST (LIST: CPU numbers and ranges, "0,2-3"). */
enum smp_cpus_mode { SMP_CPUS_TYPES, SMP_CPUS_BSP, SMP_CPUS_ALL, SMP_CPUS_LIST };
struct smp_cpus_req {
	enum smp_cpus_mode mode;
	unsigned nranges;	/* SMP_CPUS_LIST: CPUs lo..hi of each range named */
	struct { uint32_t lo, hi; } range[SMP_CPUS_MAX_RANGES];
};
/* CPU i named by a SMP_CPUS_LIST request. */
bool smp_cpus_named(const struct smp_cpus_req *r, unsigned i);
/* The lowest CPU number a SMP_CPUS_LIST request names that is not among the n CPUs (0..n-1);
 * -1 when every named CPU exists (and for the other modes). */
long smp_cpus_missing(const struct smp_cpus_req *r, unsigned n);
/* NULL or "" gives the default (types). false with *why for a bad value (then *r is the
 * default). */
bool smp_cpus_parse(const char *s, struct smp_cpus_req *r, const char **why);
const char *smp_cpus_mode_name(enum smp_cpus_mode m);

/* What selection needs to know of a CPU. */
struct smp_cpu_view {
	bool online;
	uint8_t core_type;	/* CPUID.1AH:EAX[31:24], 0 when not hybrid */
};
/* sel[i] for each CPU per the request: the boot CPU (0) always; types: plus the first online
 * CPU of each core type other than the boot CPU's; all: every online CPU; list: the named
 * online ones. Returns the number selected. */
unsigned smp_select(const struct smp_cpu_view *v, unsigned n, const struct smp_cpus_req *r,
		    bool *sel);

#endif
