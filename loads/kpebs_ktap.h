/*
 * kpebs_ktap.h: the PEBS lines of a load kernel as KTAP output of its test: the line callback
 * for loads/kpebs_print.c and the verdict reporter that, on a failure, shows the decoder's whole
 * per-level table (docs/output.md §3 `|` lines). Used by the kernel (loads/kpebs.c) and by the
 * host model run (tools/model-log), so both print exactly the same lines.
 */
#ifndef LOADS_KPEBS_KTAP_H
#define LOADS_KPEBS_KTAP_H

#include "kernel/ktap.h"
#include "loads/pebs_verdict.h"
#include "sample/aggregate.h"

/* A kp_line_fn: ctx is the struct ktest the line belongs to. */
void kpk_line(void *ctx, const char *line);

/* Report verdict `v` of subtest `sub` with `detail` (after `#` on its result line); a failure
 * first prints `agg` in full, directly before the result line it explains. */
void kpk_judge(struct ktest *t, const char *name, const char *sub, enum pv_result v,
	       const char *detail, const struct pebs_agg *agg);

#endif
