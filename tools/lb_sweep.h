/*
 * lb_sweep.h: what tools/loadbench measures and how long it warms, decided from the
 * measurement, not from what CPUID says about the caches (a VM's CPUID may claim an L3 of
 * 480 MiB where the measured curve shows 6-8 MiB). Pure: fed sizes and chase results, it
 * reads no clock, so tests/host/lb_sweep_test.c drives it with scripted results.
 *
 * Sizes: the default sweep runs from 16 KiB to 4x CPUID's L3 at --ppo points per octave, cut
 * where all chains together (each in its own 2 MiB-aligned region, all resident at once so the
 * rounds can interleave) would pass the memory cap (--max-mem, default LB_MEM_CAP); the cut and
 * its reason are printed. Given sizes over the cap are refused with the same reason.
 *
 * Warm-up (docs/latency-method.md §10): a size is warmed in full laps of its chain until two
 * successive laps agree (loads/steady.h), unless the sweep has already measured that a smaller
 * size lies past every cache: then in laps capped at LB_WARM_PAST_STEPS loads and at most
 * STEADY_PAST_LLC_LAPS of them, since no lap can warm a working set that does not fit. A size
 * is past every cache when, warmed in full laps, its loads still take at least LB_PAST_X
 * times those of a 16 KiB chain (L1 everywhere) measured first, both read from the fastest
 * repetition (on a busy machine most repetitions are preempted; that only adds time): DRAM is 20-100x L1 on every
 * part of docs/latency-method.md §6 and 60x or more on every part measured there, no L3 is
 * above about 30x; a larger working set fits no better. One such measurement can be noise (a
 * neighbour thrashing the L3 makes an L3 size look like DRAM): LB_PAST_CONFIRM measurements
 * in a row, of sizes that do not decrease, set the mark at the last of them.
 */
#ifndef TOOLS_LB_SWEEP_H
#define TOOLS_LB_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "loads/chase.h"

#define LB_MEM_CAP (1536ull << 20)	/* chains resident at once, default (with the scratch
					 * and the program: under 2 GiB) */
#define LB_WARM_PAST_STEPS (16u << 10)	/* warm-up lap past every cache, loads: enough
					 * for the TLB and page-walk caches, all it can warm */
#define LB_PAST_X 40u			/* warmed, still 40x the 16 KiB chain's loads */
#define LB_L1_PROBE (64u << 10)		/* the smallest size counts as L1 up to this */
#define LB_PAST_CONFIRM 2u		/* measurements in a row, sizes not decreasing */

/* Bytes as "215M", "10.9G", "24K": rounded to the nearest unit (a sweep size is rarely round). */
const char *lb_size_str(uint64_t b, char *buf, size_t n);

/* Bytes all chains of `sizes` occupy (each rounded up to 2 MiB) plus the build scratch. */
uint64_t lb_resident_bytes(const uint64_t *sizes, unsigned n);

/* The default sweep: 16 KiB .. 4x l3 at ppo, cut to fit cap. Returns the count; *why gets
 * the reason of a cut ("" when none). */
unsigned lb_default_sizes(uint64_t l3, unsigned ppo, uint64_t cap, uint64_t *out,
			  unsigned max, char *why, size_t n);

struct lb_warm {
	uint64_t past;		/* smallest size measured past every cache (0: none yet) */
	uint64_t first, last;	/* the current run of sizes that looked past: first, last */
	unsigned streak;	/* its length (measurements) */
	uint64_t l1_x100;	/* per-load TSC x100 of the smallest size (0: not measured) */
	uint64_t l1_size;
};

/* The warm-up part of a chase config for a chain of `nodes` nodes of `size` bytes. */
void lb_warm_cfg(const struct lb_warm *w, uint64_t size, struct chase_cfg *cfg);

/* Learn from one measurement of `size` (nodes: its chain's) taken with lb_warm_cfg's
 * config. Returns true when it moved the "past every cache" mark down to this size. */
bool lb_warm_note(struct lb_warm *w, uint64_t size, uint64_t nodes, const struct chase_result *r);

#endif
