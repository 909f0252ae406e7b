/*
 * kibs.h: the load kernels' PEBS step on AMD, through IBS op sampling (ibs/ibs_measure.h),
 * printed and judged by loads/kibs_report.h. main.c registers it (after kload_header) in place of the Intel
 * step when the CPU vendor is AMD. Issue 17; docs/ibs.md.
 */
#ifndef LOADS_KIBS_H
#define LOADS_KIBS_H

#include "loads/kload.h"

/* Register the IBS sampler with the load kernels (loads/kload_hooks.c) in place of PEBS. */
void kibs_register(void);
/* NULL when the IBS step can run, else the exact SKIP reason. */
const char *kibs_unavailable(void);
enum kt_result kibs_check(struct ktest *t, const struct load_run *r, enum load_target tg);

#endif
