/*
 * agg_print.h: compact human-readable output of the per-level aggregate of sampled loads
 * (PEBS or IBS) for the serial console (~11 KB/s on hardware): the table with perf's names and a log2 latency histogram. Pure: prints through a
 * kernel/fmt.h sink, so the kernel (console) and host tests share it.
 */
#ifndef SAMPLE_AGG_PRINT_H
#define SAMPLE_AGG_PRINT_H

#include "kernel/fmt.h"
#include "sample/aggregate.h"
#include "sample/dsrc.h"

/*
 * The per-level table, levels with samples only:
 *   "pebs: 1000 records, 0 errors\n"
 *   "  level                  count   min   p50   p90   p99   max  mean  stlb  snoop\n"
 *   "  L1 hit                   990     4     5     5     6     9     5     0  None:990\n"
 *   "    log2 2^2:990 2^3:10\n"
 * p50/p90/p99 carry the histogram's error bound (< 1/32 above 31 cycles, see aggregate.h).
 */
void pebs_agg_print(const struct pebs_agg *a, fmt_sink_fn sink, void *ctx);

/* Short level name for the table (perf wording; local/remote folded into one row). */
const char *pebs_agg_level_name(unsigned level);

#endif
