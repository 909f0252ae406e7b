/*
 * steady.h: when a working set is warm, and when its figure is noise: the one rule that the
 * kernel's load kernels (loads/kload.c through loads/chase.c) and tools/loadbench share
 * (docs/latency-method.md §9 item 6). Pure: it is fed lap times and spreads, it reads no
 * clock, so host tests drive it with scripted times (tests/host/steady_test.c).
 *
 * Warm-up: laps (one unit = a full lap of the chain, or several laps up to STEADY_MIN_UNIT
 * steps for small chains so a lap is long against the TSC reads around it) until two
 * successive laps agree within tol_pct of the earlier one; at least two laps; at most
 * max_laps laps or max_ticks TSC ticks (the bound: the working set was still changing, and
 * the result says so). A cold working set near the edge of a cache refills over many laps
 * (per-lap 86, 79, 52, 32, 26, 24, 22 ns at 8 MiB on a Zen 5 VM): a single lap is not steady.
 *
 * Spread: (max - min) / median of a size's rounds, in percent. Above STEADY_SPREAD_PCT the
 * size is measured again, up to STEADY_REMEASURE times; still above it, the size is marked
 * noisy in the output, never averaged away.
 */
#ifndef LOADS_STEADY_H
#define LOADS_STEADY_H

#include <stdbool.h>
#include <stdint.h>

#define STEADY_TOL_PCT 3u	/* two successive laps within 3 % of each other */
#define STEADY_MAX_LAPS 64u
#define STEADY_PAST_LLC_LAPS 3u	/* lap bound past the last cache: capped laps (64K loads)
				 * warm no cache, only the page-walk caches, and DRAM laps
				 * on a shared VM rarely agree within 3 % */
#define STEADY_MIN_UNIT 4096u	/* chain steps per timed warm-up unit, at least */
#define STEADY_SPREAD_PCT 10u	/* a size whose rounds spread more is re-measured */
#define STEADY_REMEASURE 2u	/* at most this many extra measurements of a noisy size */

enum steady_state { STEADY_WARMING, STEADY_SETTLED, STEADY_BOUND };

struct steady_rule {
	unsigned tol_pct;	/* 0: STEADY_TOL_PCT */
	unsigned max_laps;	/* 0: STEADY_MAX_LAPS; at least 2 */
	uint64_t max_ticks;	/* warm-up ticks after which the bound is hit (0: none) */
};

struct steady_warm {
	unsigned laps;		/* laps fed so far */
	uint64_t prev, last;	/* the last two lap times, ticks */
	uint64_t ticks;		/* all laps together */
	enum steady_state state;
};

/* Start a warm-up. */
void steady_begin(struct steady_warm *w);
/* Feed one lap's time; returns the state after it (WARMING: run another lap). */
enum steady_state steady_lap(struct steady_warm *w, const struct steady_rule *r,
			     uint64_t lap_ticks);

/* (max - min) * 100 / med, 0 when med is 0. */
uint64_t steady_spread_pct(uint64_t min, uint64_t max, uint64_t med);
/* Does a spread call for another measurement (or, after the last one, a noisy mark)? */
bool steady_noisy(uint64_t min, uint64_t max, uint64_t med);

#endif
