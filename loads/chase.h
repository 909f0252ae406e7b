/*
 * chase.h: the timed load kernels over a chain (loads/chain.h). Dependent loads
 * (`p = *p`, unrolled 16x), a warm-up until steady (loads/steady.h; its last lap is the
 * calibration), then `reps` timed repetitions sized from a TSC-tick budget (not a fixed count: QEMU TCG runs ~50x slower
 * than hardware), median/min/max per load. Timing: LFENCE;RDTSC;LFENCE brackets (SDM
 * Vol. 3B 18.17); core cycles through an optional hook (the PMU driver's fixed counter 1,
 * CPU_CLK_UNHALTED.CORE, SDM 18.2.2), TSC only without one. Interrupts off around each
 * repetition through optional hooks (the kernel passes irq_save/irq_restore; a hosted
 * program cannot, and says so). Basis: docs/latency-method.md §9 items 1, 5, 6.
 *
 * Kernels (per chain step):
 *   CHASE_LOAD   one dependent load.
 *   CHASE_LFB    the dependent load plus 7 independent loads to the other 8-byte slots of
 *                the same line, issued while its fill is in flight (SDM: "pending core cache
 *                hit" / LFB hit for the 7). Needs 64-byte nodes.
 *   CHASE_STORE  the dependent load plus one store to another slot of the same line.
 * All integer arithmetic: per-step figures are fixed point x100.
 */
#ifndef LOADS_CHASE_H
#define LOADS_CHASE_H

#include <stdbool.h>
#include <stdint.h>

#include "loads/chain.h"

#define CHASE_MAX_REPS 31
#define CHASE_UNROLL 16

enum chase_kind { CHASE_LOAD, CHASE_LFB, CHASE_STORE };

struct chase_hooks {
	uint64_t (*irq_off)(void);		/* returns state for irq_on; NULL: not controlled */
	void (*irq_on)(uint64_t state);
	uint64_t (*core_cycles)(void *ctx);	/* NULL: no core-cycle counter (TSC only) */
	void *core_ctx;
};

struct chase_cfg {
	enum chase_kind kind;
	unsigned reps;			/* 1..CHASE_MAX_REPS (odd for a true median) */
	uint64_t budget_ticks;		/* TSC ticks for all timed repetitions together */
	uint64_t min_steps;		/* floor per repetition (rounded up to CHASE_UNROLL) */
	uint64_t warm_max_steps;	/* cap on a warm-up lap (0 = one full lap); for working
					 * sets past the last cache, where no lap can warm anything */
	uint64_t warm_max_ticks;	/* warm-up bound in TSC ticks (0: laps bound only) */
	unsigned warm_max_laps;		/* warm-up bound in laps (0: STEADY_MAX_LAPS) */
	uint64_t rewarm_steps;		/* chains of at most this many nodes get one untimed lap
					 * before each repetition (0 = never): a preempted host
					 * program finds its working set again */
	const struct chase_hooks *hooks; /* NULL: no hooks */
};

struct chase_result {
	uint64_t steps_per_rep;		/* chain steps per timed repetition */
	unsigned loads_per_step;	/* LOAD 1, LFB 8, STORE 1 (+1 store) */
	unsigned reps;
	uint64_t warm_steps;		/* untimed: warm-up laps + re-warm laps */
	unsigned warm_laps;		/* warm-up laps (units of loads/steady.h) */
	bool warm_bound;		/* the warm-up hit its bound before two laps agreed */
	uint64_t warm_ticks;		/* TSC ticks the warm-up laps took */
	uint64_t laps_x100;		/* steps_per_rep / nodes, x100 */
	uint64_t tsc_med_x100, tsc_min_x100, tsc_max_x100;	/* TSC ticks per step, x100 */
	uint64_t core_med_x100;		/* core cycles per step, x100 (have_core) */
	bool have_core;
	bool irqs_off;			/* interrupts were off in every timed repetition */
	uint64_t total_ticks;		/* wall time of the whole measurement, warm-up included */
};

/* The raw kernels: run `steps` (a multiple of CHASE_UNROLL) steps from p; return the end. */
uintptr_t chase_loads(uintptr_t p, uint64_t steps);
uintptr_t chase_lfb(uintptr_t p, uint64_t steps);
uintptr_t chase_store(uintptr_t p, uint64_t steps);

/* Warm up until steady, calibrate, time. Returns 0, or -1 for a bad configuration. */
int chase_measure(const struct chain *c, const struct chase_cfg *cfg, struct chase_result *r);

/* x100 TSC ticks -> x100 ns at tsc_hz (0 when tsc_hz is 0). */
uint64_t chase_ns_x100(uint64_t tsc_x100, uint64_t hz);

/* Median of n values (sorts v in place); n >= 1. */
uint64_t chase_median(uint64_t *v, unsigned n);

#endif
