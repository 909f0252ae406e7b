/*
 * cntr_snap.h: counter snapshots in PEBS records (format 6 counter group; arch-PEBS counter
 * group, docs/arch-pebs.md "Counter snapshots"), reduced per data-source level: for each
 * record, the core cycles (IA32_FIXED_CTR1, CPU_CLK_UNHALTED.CORE) since the previous
 * record's snapshot, i.e. the cycles of one sampled window, filed under the level of the load
 * that closed it. Pure; prints through a kernel/fmt.h sink.
 */
#ifndef PEBS_CNTR_SNAP_H
#define PEBS_CNTR_SNAP_H

#include <stdbool.h>
#include <stdint.h>

#include "pebs/datasrc.h"
#include "pebs/record.h"

#define PEBS_CNTR_CORE_CYCLES 1	/* the fixed counter the driver snapshots */

struct pebs_cntr_agg {
	uint64_t prev;			/* core cycles in the previous snapshot */
	bool have_prev;
	uint64_t records, no_cycles;	/* records seen; those without a core-cycles value */
	uint64_t windows[PEBS_LVL_COUNT], cycles[PEBS_LVL_COUNT];
	/* the snapshots against RDPMC of the same counter (pebs_cntr_check) */
	uint64_t first;			/* the first snapshot's core cycles */
	uint64_t backwards;		/* snapshots below the one before */
	uint64_t rdpmc_start, rdpmc_end;	/* RDPMC before the session armed, after it stopped */
	bool rdpmc_ok;
};

void pebs_cntr_agg_init(struct pebs_cntr_agg *a);
/* Value of GP (fixed = false) or fixed counter idx in r's snapshot; false when absent. */
bool pebs_cntr_value(const struct pebs_record *r, bool fixed, unsigned idx, uint64_t *v);
/* One decoded record with the level its data source decoded to. */
void pebs_cntr_agg_add(struct pebs_cntr_agg *a, const struct pebs_record *r, unsigned level);
/* "NAME: counters L1 windows=N cycles/window=M" per level with windows, else one
 * "NAME: counters none records=N without-cycles=M" line (docs/output.md §3), each through
 * out without a newline. */
/* The verdict on the snapshots (docs/output.md `pebs_counters`): every snapshot of the core
 * cycles lies within RDPMC of the same counter read before the session armed and after it
 * stopped, and none is below the one before (a snapshot is the counter's value when the
 * record is written: SDM Vol. 3B "Counters Group"): then the snapshot deltas sum to at most
 * the RDPMC delta over the same window. 1 PASS, 0 FAIL, -1 SKIP (no RDPMC, under 2
 * snapshots), d the detail. Exact: no tolerance. */
int pebs_cntr_check(const struct pebs_cntr_agg *a, char *d, size_t n);
void pebs_cntr_agg_lines(const struct pebs_cntr_agg *a, const char *name,
			 void (*out)(void *ctx, const char *line), void *ctx);

#endif
