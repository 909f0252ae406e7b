/*
 * kstep.h: what the load kernels' sampling steps share, whichever PMU samples (loads/kpebs.c
 * through PEBS, loads/kibs.c through AMD IBS): the kernel's own chain walked in timed chunks
 * (the work a measurement runs, interrupts on), the TSC as the clock of the cost measurement
 * (loads/pebs_cost.h), the unarmed baseline, the per-load timed latency the verdicts compare
 * with, and the budgets. docs/latency-method.md §7, §9.
 */
#ifndef LOADS_KSTEP_H
#define LOADS_KSTEP_H

#include <stdbool.h>
#include <stdint.h>

#include "loads/kload.h"
#include "loads/pebs_cost.h"

#define KSTEP_WORK_MS 300	/* a measurement stops here even short of its records */
#define KSTEP_BASE_MS 30	/* the unarmed chunks: at most this long ... */
#define KSTEP_BASE_CHUNKS 8	/* ... and at most this many */

struct kstep_work {
	enum chase_kind kind;
	uintptr_t p;
	uint64_t steps, deadline;
};

struct kstep {
	struct kstep_work w;
	struct pebs_cost_run base, run;	/* unarmed and armed chunks of w */
	unsigned per_step;		/* loads per chase step (8 for the LFB chase) */
	uint64_t timed_x100;		/* timed cycles (core, else TSC) per load, x100 */
};

/* Set k up over r's chain (k must not move afterwards: the runs point into it). */
void kstep_init(struct kstep *k, const struct load_run *r);
/* Run the unarmed chunks (interrupts on, as in the armed run). */
void kstep_baseline(struct kstep *k);
/* Start the budget of one armed measurement. */
void kstep_arm_deadline(struct kstep *k);
/* A `# warning:` line (a cmdline_warn_fn). */
void kstep_warn(const char *msg);

#endif
