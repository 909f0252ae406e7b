/*
 * coreclk.h: core clock cycles per TSC tick for tools/loadbench, on any CPU, and how far to
 * trust the figure. Two sources, the first that works:
 *   perf cycles  the PMU's core-cycles event (perf_event_open(2), PERF_COUNT_HW_CPU_CYCLES)
 *                read around a timed chain: a counter, where the kernel and a virtual PMU
 *                give one;
 *   IMUL chain   a chain of dependent `imul r64, r64` timed by the TSC: latency 3 core cycles
 *                on Intel cores since Nehalem and on AMD Zen (family 17h onwards): Intel 64
 *                and IA-32 Architectures Optimization Reference Manual, appendix of
 *                instruction latencies ("IMUL r64, r64": 3); A. Fog, "Instruction tables"
 *                (Nehalem .. Alder Lake P, Zen 1-4: IMUL r64,r64 latency 3; Core 2 Merom/Penryn:
 *                5); uops.info (IMUL_R64_R64, latency 3 on the same cores). A multiply cannot
 *                be eliminated at rename or fused the way dependent ADDs of an immediate are on
 *                recent Intel cores (an ADD chain read 5.8x too fast there).
 * Plausibility: the result should lie in the base..max frequency of CPUID 16H (EAX base, EBX
 * max, MHz; zeros: not given, SDM Vol. 2A CPUID leaf 16H) over the TSC's frequency, +-10 %;
 * without 16H on AMD, 0.9..2.0: the TSC counts at the P0 frequency (AMD64 APM Vol. 2,
 * "Time-Stamp Counter"), the core runs from P0 up to its boost under load, and no Zen part
 * boosts to twice P0. Elsewhere no range is known and the figure is not checked (said so).
 *
 * Pure apart from the seam: the chain and the counter are callbacks, the TSC is read through
 * kernel/hw.h (rdtsc_ordered), so host tests drive the estimator on the virtual clock
 * (tests/host/coreclk_test.c).
 */
#ifndef TOOLS_CORECLK_H
#define TOOLS_CORECLK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CC_MIN_STEPS 4096u	/* first chain length tried; doubled until a run is long */
#define CC_MIN_RUN_US 500u	/* a timed run at least this long (TSC reads are ~20-40 ticks) */
#define CC_MAX_RUNS 15u		/* timed runs at most, per source */
#define CC_STABLE_RUNS 3u	/* stop after this many runs that do not improve the best */
#define CC_IMPROVE_PERMILLE 5u	/* "improve": the best run shrinks by more than 0.5 % */
#define CC_AGREE_PCT 10u	/* perf and IMUL agree within this, else said */

struct cc_ops {
	/* n dependent IMUL r64 (n a multiple of 64); the estimator reads the TSC around it */
	void (*imul_chain)(void *ctx, uint64_t n);
	/* a core-cycles counter for this thread: 0 open, -1 none (why filled) */
	int (*cycles_open)(void *ctx, char *why, size_t n);
	uint64_t (*cycles_read)(void *ctx);
	void *ctx;
};

struct cc_cpu {
	bool intel, amd;
	uint32_t family, model;	/* DisplayFamily / DisplayModel */
	uint32_t base_mhz, max_mhz;	/* CPUID 16H EAX, EBX (0: not given) */
	uint64_t tsc_hz;
};

struct cc_result {
	uint64_t ratio_x1000;		/* the figure loadbench uses */
	const char *source;		/* "perf cycles" | "IMUL chain" */
	uint64_t perf_x1000;		/* 0: no counter */
	uint64_t imul_x1000;
	unsigned imul_lat;		/* core cycles per IMUL assumed */
	bool imul_lat_documented;	/* from the cited tables (else assumed 3) */
	uint64_t lo_x1000, hi_x1000;	/* plausible range; hi 0: none known */
	const char *range_src;		/* "CPUID 16H", "AMD: TSC at P0", NULL */
	bool plausible;			/* inside the range (true when none is known) */
	bool disagree;			/* perf and IMUL differ by more than CC_AGREE_PCT */
	char why_no_perf[160];
};

/* IMUL r64 latency on this CPU, and whether the tables cited above document it. */
unsigned cc_imul_latency(const struct cc_cpu *c, bool *documented);

/* The plausible range for c (x1000 core cycles per TSC tick): false when none is known. */
bool cc_range(const struct cc_cpu *c, uint64_t *lo, uint64_t *hi, const char **src);

/* Best (shortest) run of `n` chain steps: runs until CC_STABLE_RUNS runs in a row do not
 * improve the best by more than CC_IMPROVE_PERMILLE, at most CC_MAX_RUNS. With cyc != NULL
 * the counter is read around each run and *cyc gets the cycles of the best run. */
uint64_t cc_best_ticks(const struct cc_ops *ops, uint64_t n, uint64_t *cyc);

/* Chain length whose run takes at least CC_MIN_RUN_US at tsc_hz (doubling from CC_MIN_STEPS). */
uint64_t cc_chain_len(const struct cc_ops *ops, uint64_t tsc_hz);

/* Measure and judge. */
void cc_estimate(const struct cc_ops *ops, const struct cc_cpu *c, struct cc_result *r);

/* One line: "1.423 (IMUL chain, 3-cycle latency; plausible 0.900..2.000: AMD: TSC at P0)". */
void cc_describe(const struct cc_result *r, char *b, size_t n);

#endif
