/*
 * loadbench_print.h: tools/loadbench's per-size results and how they are printed (the rows,
 * text or JSON Lines, and the per-level plateau summary; tools/loadbench_print.c).
 */
#ifndef TOOLS_LOADBENCH_PRINT_H
#define TOOLS_LOADBENCH_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "loads/chain.h"
#include "tools/loadbench_args.h"

/* One size: its chain and the median TSC ticks per load of each round. */
struct point {
	struct chain c;
	uint64_t round_x100[MAX_ROUNDS];
	uint64_t med_x100, min_x100, max_x100, steps;
	unsigned warm_bound;	/* rounds (of the last measurement) whose warm-up hit the bound */
	uint64_t warm_ticks;	/* all its warm-up laps, every measurement */
	unsigned remeasured;	/* extra measurements for a spread > STEADY_SPREAD_PCT */
	bool noisy;		/* still spread beyond it after them */
};

struct cache_geometry;

/* x100 fixed point as "I.FF". */
void lb_put_x100(FILE *f, uint64_t v);
/* One size's row (JSON Lines under --json) at hz TSC ticks a second, cpt x1000 core/TSC. */
void lb_print_point(const struct opts *o, const struct point *pt, uint64_t size, uint64_t hz,
		    uint64_t cpt);
/* Per level: the plateau median and the point nearest the kernel's working set. */
void lb_print_levels(const struct opts *o, const struct point *pt,
		     const struct cache_geometry *g, uint64_t hz, FILE *info);

#endif
