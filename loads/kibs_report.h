/*
 * kibs_report.h: the output and verdicts of the load kernels' PEBS step when it runs through
 * AMD IBS (ibs/ibs_measure.h): the same `pebs`, `lvl`, `hist` lines and the same verdicts
 * (loads/pebs_verdict.h: level purity, latency against the timed cycles/load, levels rising,
 * overhead) as the Intel path, with the IBS rule stated where it differs: IbsDcMissLat is
 * written for loads that missed the data cache only, so L1 hits count as L1 records for
 * ibs_source but carry no latency: ibs_latency of load_l1 and ibs_rises of load_l2 SKIP
 * with that reason. A dump is `dump` + `raw` lines of 64-byte samples (docs/ibs.md "Dump
 * layout"). Pure: used by loads/kibs.c in the kernel and tools/model-log on the host.
 */
#ifndef LOADS_KIBS_REPORT_H
#define LOADS_KIBS_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/ktap.h"
#include "loads/kload.h"
#include "loads/pebs_cost.h"
#include "ibs/ibs_measure.h"

#define KIBS_NO_L1_LAT "IbsDcMissLat counts data-cache misses only: L1 hits carry no latency"

/* p50 of each target level measured so far in this run (ibs_rises). */
struct kibs_levels {
	uint64_t p50[TGT_STLB + 1];
	bool have[TGT_STLB + 1];
};

enum kibs_dump { KIBS_DUMP_NONE, KIBS_DUMP_RAW, KIBS_DUMP_DECODED };

/* The level a target's loads should come from (-1: none: store/STLB). */
int kibs_target_level(enum load_target tg);

/* Print and judge one measurement of kernel `name` as subtests of t. */
void kibs_report(struct ktest *t, const char *name, const struct ibs_measure *m,
		 const struct ibs_caps *c, const struct pebs_cost *cost, enum load_target tg,
		 uint64_t timed_x100, bool core_clock, struct kibs_levels *lv, enum kibs_dump dump);

/* The IBS load-latency filter threshold for kernel tg (docs/ibs.md "Load-latency filter"):
 * on parts with OpLdLat, the DRAM and remote kernels sample loads above ldlat= (user; 0: not
 * given, the 128-cycle minimum), rounded to IBS's 128-cycle steps and said through warn when
 * rounding changed it; 0 (unfiltered) elsewhere. */
unsigned kibs_ldlat(const struct ibs_caps *c, enum load_target tg, unsigned user,
		    void (*warn)(const char *msg));

#endif
