/*
 * plan.h: which working set each load kernel uses, the latency-curve sizes, and the
 * plateau-step verdict (pure). Sizing rules follow docs/latency-method.md
 * §2.3 and §9 item 3 (L1 <= 1/2 L1d; L2 in [2x L1d, 1/2 L2]; L3 in [4x L2, 1/2 L3];
 * DRAM >= 8x L3), with CPUID's sizes (geometry.h) as the input.
 */
#ifndef LOADS_PLAN_H
#define LOADS_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "loads/geometry.h"

enum load_level { LOAD_L1, LOAD_L2, LOAD_L3, LOAD_DRAM, LOAD_NLEVELS };

#define LOAD_DRAM_MIN (64ull << 20)	/* DRAM working set floor, whatever L3 says */

/* "L1", "L2", "L3", "DRAM". */
const char *load_level_name(enum load_level l);

/* Working set for a level (bytes, a multiple of 4 KiB). */
uint64_t load_ws(enum load_level l, const struct cache_geometry *g);

/*
 * Minimum ratio, in percent, of a level's time per load to the level below it for the
 * plateau verdict (index = the upper level; [LOAD_L1] unused). Published floors
 * (docs/latency-method.md §6): L1 4-5 cycles, L2 12-16 (>= 2.4x), L3 30-70 cycles (>= 2x L2),
 * DRAM 60-120 ns against L3 10-35 ns (>= 2.5x); this VM measured 1.4 / 4-5 / 16-19 / 150 ns.
 * The margins sit well below every one of those ratios so that a pass means "a real step"
 * and a fail means the working set did not land in the level it names.
 */
extern const unsigned load_step_margin_pct[LOAD_NLEVELS];

/* upper >= lower * margin_pct / 100 (both x100 fixed point, any unit). */
bool load_step_ok(uint64_t lower_x100, uint64_t upper_x100, unsigned margin_pct);

/*
 * Sweep sizes from lo to hi (inclusive when hit), `ppo` points per octave (geometric,
 * rounded down to a 64 B line), at most `max` entries. Returns the count.
 */
unsigned load_sweep_sizes(uint64_t lo, uint64_t hi, unsigned ppo, uint64_t *out, unsigned max);

#endif
