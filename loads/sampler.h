/*
 * sampler.h: what a load kernel needs of a sampling PMU, whichever it is (Intel PEBS through
 * loads/kpebs.c, AMD IBS through loads/kibs.c): why it cannot run, how to set one measurement
 * up over the kernel's chain, one armed measurement (start sampling at a period, run the
 * chunked chase with interrupts on, stop, drain every sample into the aggregate), and how to
 * print and judge the result. loads/kstep.c runs the one sampling step over it: the unarmed
 * baseline, the armed run and its cost (loads/pebs_cost.h), then the sampler's report. The
 * step's flow, budgets and cost rule are the same for every sampler (docs/latency-method.md
 * §7, §9); only the registers behind `measure` differ (SDM Vol. 3B 20.6.2 "PEBS"; AMD64 APM
 * Vol. 2 "Instruction-Based Sampling").
 */
#ifndef LOADS_SAMPLER_H
#define LOADS_SAMPLER_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/ktap.h"
#include "loads/kload.h"
#include "loads/kstep.h"
#include "loads/pebs_cost.h"
#include "sample/aggregate.h"

/* What one armed measurement did. */
struct sampler_result {
	uint64_t records;	/* samples taken (PEBS records, IBS op samples) */
	uint64_t irqs;		/* their interrupts (threshold PMIs, IBS interrupts) */
	uint64_t period;	/* the period in force (a sampler may round or clamp it) */
};

struct sampler {
	const char *name;	/* "PEBS", "IBS" */
	const char *prefix;	/* its subtests' names: "pebs" (pebs_source ...), "ibs" */
	void *self;		/* the sampler's own state for this step */
	/* NULL when the sampler can run here, else the exact SKIP reason. */
	const char *(*unavailable)(void *self);
	/* Configure one measurement of r's kernel (target tg) over k's chunks: *period gets the
	 * user's sav= or the default for ~1 % overhead; *user says which. */
	void (*prepare)(void *self, const struct load_run *r, enum load_target tg,
			struct kstep *k, uint64_t *period, bool *user);
	/* One armed measurement at `period` (interrupts are on around it): 0, or -1 with the
	 * reason from error(). */
	int (*measure)(void *self, uint64_t period, struct sampler_result *out);
	const char *(*error)(void *self);
	/* Print and judge it as subtests of t (timed_x100: the chase's cycles per load). */
	void (*report)(void *self, struct ktest *t, const struct load_run *r,
		       enum load_target tg, const struct pebs_cost *cost, uint64_t timed_x100);
	/* The name of the subtest an error is reported under ("pebs_source", "cpu2_l1_..."). */
	const char *(*source_name)(void *self, char *b, unsigned n);
	/* The last measurement's aggregate (sample/aggregate.h): load_loaded's percentiles. */
	const struct pebs_agg *(*aggregate)(void *self);
};

/* The sampling step of one load kernel through s: baseline, armed run with its cost, report;
 * a failed measurement is one failed source subtest with the sampler's reason. */
/* One armed measurement of r's kernel through s, nothing printed or judged (load_loaded:
 * one per step of its sweep): 0 with the aggregate at s->aggregate, or -1 (s->error). */
int kstep_sample_once(const struct load_run *r, enum load_target tg, const struct sampler *s,
		      struct sampler_result *res);
/* The sampler the load kernels use (NULL: none registered; loads/kload_hooks.c). */
const struct sampler *kload_sampler(void);

enum kt_result kstep_sample(struct ktest *t, const struct load_run *r, enum load_target tg,
			    const struct sampler *s);
/* One armed measurement of r's chain through s, nothing printed (the latency matrices: one
 * label per cell, loads/latmatrix.h): 0 with its aggregate in *out, -1 with *why. */
int kstep_sample_agg(const struct load_run *r, enum load_target tg, const struct sampler *s,
		     const struct pebs_agg **out, const char **why);

#endif
