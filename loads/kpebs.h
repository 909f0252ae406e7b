/*
 * kpebs.h: the joint between the load kernels (loads/kload.h) and the PMU side: registers the
 * core-cycle counter (pebs/cycles.h) and the PEBS step (one pebs/measure.h measurement over
 * the kernel's live chain, printed per docs/output.md §3, judged by loads/pebs_verdict.h).
 * Issue 6 "Verdicts on PEBS hardware", issue 7 "Kernel output per load kernel".
 */
#ifndef LOADS_KPEBS_H
#define LOADS_KPEBS_H

#include <stdint.h>

#include "loads/kload.h"
#include "loads/kpebs_judge.h"
#include "pebs/percpu.h"

/* Once, in the header: `# cache:` lines, the core clock (registered or `none (reason)`), and
 * the PEBS step registration. */
void kload_header(void);

/* The registered PEBS step (kload_pebs_fn): the boot CPU with its global probe. */
enum kt_result kpebs_check(struct ktest *t, const struct load_run *r, enum load_target target);

/*
 * The same step on the CPU this runs on, with that CPU's own probe, session, DS area, buffer
 * and decoder core type (pc, pebs_cpu_init'ed on this CPU; SDM Vol. 3B 18.4.9: IA32_DS_AREA
 * per logical processor). Subtest names get the prefix `sub` ("cpu2_l1_"); lv keeps this
 * CPU's level medians. Why it cannot run on pc's CPU (its PMU, PEBS, load latency), or NULL.
 */
enum kt_result kpebs_check_cpu(struct ktest *t, const struct load_run *r, enum load_target tg,
			       struct pebs_cpu *pc, struct kpebs_levels *lv, const char *sub);
const char *kpebs_cpu_unavailable(const struct pebs_cpu *pc);
/* One armed measurement of r on this CPU through its own state pc, nothing printed (a latency
 * matrix's cell, loads/latmatrix.h): 0 with the aggregate in *out, -1 with *why. */
int kpebs_cpu_agg(struct pebs_cpu *pc, const struct load_run *r, enum load_target tg,
		  const struct pebs_agg **out, const char **why);

#endif
