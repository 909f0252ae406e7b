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

/* Once, in the header: `# cache:` lines, the core clock (registered or `none (reason)`), and
 * the PEBS step registration. */
void kload_header(void);

/* The registered PEBS step (kload_pebs_fn). */
enum kt_result kpebs_check(struct ktest *t, const struct load_run *r, enum load_target target);

#endif
