/*
 * agg_print.h: compact human-readable output of decoded PEBS data for the serial console
 * (~11 KB/s on hardware): one line per decoded record for raw dumps, and the per-level
 * aggregate table with perf's names and a log2 latency histogram. Pure: prints through a
 * kernel/fmt.h sink, so the kernel (console) and host tests share it.
 */
#ifndef SAMPLE_AGG_PRINT_H
#define SAMPLE_AGG_PRINT_H

#include "kernel/fmt.h"
#include "sample/aggregate.h"
#include "pebs/datasrc.h"
#include "pebs/record.h"

/*
 * "rec 3 ip 0x401000 addr 0x7f0000001000 lat 5 L1 hit snoop None stlb no lock no\n"
 * (fields this format lacks are left out; an error prints the walker's message).
 */
void pebs_record_print(const struct pebs_record *r, const struct pebs_dsrc *d,
		       fmt_sink_fn sink, void *ctx);

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
