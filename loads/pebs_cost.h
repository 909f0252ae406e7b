/*
 * pebs_cost.h: what PEBS sampling costs the load kernel it measures (issue 14 §4), pure and
 * host-tested. The same work chunks run first unarmed and then with the load-latency event
 * armed, each chunk bracketed by a clock (the kernel's TSC; the PMU model's virtual clock in
 * host tests); from clock ticks per step in both runs follow the overhead (the timed latency
 * moved by sampling), the cost per record and per PMI (the extra time divided by each: both
 * include everything, they do not add up), and, when the overhead is too high, a sample-after
 * value that brings it down. Basis: docs/latency-method.md §7 (~250 ns per PEBS assist), SDM
 * Vol. 3B 20.6.2.4 (the PEBS assist and the DS buffer's threshold interrupt).
 */
#ifndef LOADS_PEBS_COST_H
#define LOADS_PEBS_COST_H

#include <stdbool.h>
#include <stdint.h>

#define PEBS_COST_LIMIT_X100 300	/* pebs_overhead passes at <= 3.00 % */
#define PEBS_COST_AIM_X100 100		/* a retuned sav aims at 1.00 % */
#define PEBS_COST_ASSIST_NS 250	/* published cost of one record (docs/latency-method.md §7) */
#define PEBS_COST_SAV_MIN 101
#define PEBS_COST_SAV_MAX 1000003

/* Default sample-after value for a kernel at ns_x100 ns per counted event: one record per
 * PEBS_COST_ASSIST_NS x 100 ns of work = ~1 % overhead; in [SAV_MIN, SAV_MAX], odd so the
 * period does not lock step with the chain's power-of-two lengths. */
uint64_t pebs_cost_default_sav(uint64_t ns_x100_per_event);

/* One run of work chunks, timed chunk by chunk. */
struct pebs_cost_run {
	bool (*work)(void *ctx);	/* one chunk; false: budget spent */
	void *ctx;
	uint64_t (*clock)(void *cctx);	/* ticks of the clock that times the kernel */
	void *cctx;
	uint64_t steps_per_chunk;	/* kernel steps one chunk runs ... */
	const uint64_t *step_count;	/* ... or, when set, a counter the work advances */
	uint64_t ticks, steps, chunks;	/* accumulated */
};

struct pebs_cost {
	uint64_t base_ticks, base_steps;	/* unarmed */
	uint64_t armed_ticks, armed_steps;	/* armed */
	uint64_t records, pmis;
	bool pmis_known;		/* Linux perf does not tell its PMIs */
	uint64_t hz;			/* clock ticks per second */
	uint64_t sav_first;		/* the sav of a first, too costly run (0: not retuned) */
	int64_t overhead_first_x100;	/* its overhead */
};

/* A chunk of r (a pebs_measure_cfg work function: ctx = struct pebs_cost_run). */
bool pebs_cost_chunk(void *run);
/* Run r's chunks unarmed until `chunks` ran or the work says stop. */
void pebs_cost_baseline(struct pebs_cost_run *r, unsigned chunks);

/*
 * One armed measurement at `sav` over the timed chunks `run` (the driver below resets them):
 * 0, or -1 when it could not run; *records, *pmis: what it took; *sav_used: the sav the
 * hardware/kernel actually used.
 */
typedef int (*pebs_cost_armed_fn)(void *ctx, uint64_t sav, uint64_t *records, uint64_t *pmis,
				  uint64_t *sav_used);

/*
 * The armed measurement with its cost: run `armed` at sav; when the overhead against `base`
 * passes PEBS_COST_LIMIT_X100 and may_retune (no sav= from the user), run it once more at
 * pebs_cost_retune_sav and keep the first run's sav and overhead in c. Returns armed's result.
 */
int pebs_cost_measure(struct pebs_cost *c, const struct pebs_cost_run *base,
		      struct pebs_cost_run *run, uint64_t sav, bool may_retune, bool pmis_known,
		      uint64_t hz, pebs_cost_armed_fn armed, void *ctx);

/* Fill c from the unarmed and armed runs. */
void pebs_cost_set(struct pebs_cost *c, const struct pebs_cost_run *base,
		   const struct pebs_cost_run *armed, uint64_t records, uint64_t pmis,
		   bool pmis_known, uint64_t hz);
/* Measured at all (both runs have steps and ticks)? */
bool pebs_cost_valid(const struct pebs_cost *c);
/* ns per step x100, unarmed / armed. */
uint64_t pebs_cost_base_ns_x100(const struct pebs_cost *c);
uint64_t pebs_cost_armed_ns_x100(const struct pebs_cost *c);
/* (armed - unarmed) / unarmed per step, in 0.01 % (negative: armed ran faster, noise). */
int64_t pebs_cost_overhead_x100(const struct pebs_cost *c);
/* Extra ns of the armed run per record / per PMI (0 when there were none or no extra). */
uint64_t pebs_cost_per_record_ns(const struct pebs_cost *c);
uint64_t pebs_cost_per_pmi_ns(const struct pebs_cost *c);
/* A sav that brings `overhead_x100` to PEBS_COST_AIM_X100 (overhead scales as 1/sav); odd,
 * at most PEBS_COST_SAV_MAX. */
uint64_t pebs_cost_retune_sav(uint64_t sav, int64_t overhead_x100);

#endif
