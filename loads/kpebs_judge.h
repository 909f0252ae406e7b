/*
 * kpebs_judge.h: how one PEBS step's measurement is reported, wherever it ran: the kernel over
 * a live chain (loads/kpebs.c) or tools/model-log over the PMU model, so both print and judge
 * with the same code. The lines of docs/output.md §3 (`pebs`, `lvl`, `hist`, the
 * `pebs_counters=on` `counters` lines, `dump`), then the verdicts of loads/pebs_verdict.h per
 * target: pebs_overhead, pebs_counters (on request), pebs_store / pebs_stlb / pebs_source,
 * pebs_remote, pebs_latency with the retire latency's judgement (timed PEBS,
 * IA32_PERF_CAPABILITIES[17], SDM Vol. 3B "Timed Processor Event Based Sampling"; arch PEBS)
 * and pebs_rises.
 */
#ifndef LOADS_KPEBS_JUDGE_H
#define LOADS_KPEBS_JUDGE_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/ktap.h"
#include "loads/kload.h"
#include "loads/pebs_cost.h"
#include "pebs/measure.h"

/* The p50 latency of each level's target, kept for pebs_rises (the level below, same CPU). */
struct kpebs_levels {
	uint64_t p50[LOAD_NLEVELS];
	bool have[LOAD_NLEVELS];
};

/* One step's report: the kernel, its subtest prefix ("" on the boot CPU, "cpu2_l1_" per
 * CPU), its target, its timed cycles per load x100 (core cycles when have_core, else TSC),
 * the dump= choice, and the CPU's level medians. */
struct kpebs_step_report {
	const char *name, *sub;
	enum load_target tg;
	uint64_t timed_x100;
	bool have_core;
	bool dump, raw;		/* dump=decoded / dump=raw: the kept records' lines */
	struct kpebs_levels *lv;
};

/* The decoded level a target's records should come from; -1: none (stores, the STLB walk). */
int kpebs_level_of(enum load_target tg);
/* The measurement configuration's part that depends on the target: keep the retire latency
 * of the target level's records (pv_retire). */
void kpebs_cfg_target(struct pebs_measure_cfg *cfg, enum load_target tg);
/* The step's lines and verdicts as subtests of t (a PEBS counter that overflowed without any
 * record: pebs_source and pebs_overhead SKIP, pv_records). */
void kpebs_report(struct ktest *t, const struct kpebs_step_report *r, const struct pebs_caps *c,
		  const struct pebs_measure *m, const struct pebs_cost *cost);

#endif
