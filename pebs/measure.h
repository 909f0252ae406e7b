/*
 * measure.h: one PEBS measurement (README.md "One PEBS measurement"): program the
 * load-latency (or store) event through the driver (pebs.h), run a workload in chunks until
 * enough records or its budget, aggregate every drained record into a struct pebs_agg with
 * the decoder's model for this CPU (datasrc.h, aggbuf.h) inside the drain (the PMI path
 * prints nothing), optionally copy the raw records into a bounded dump buffer, stop, final
 * drain. SDM Vol. 3B 20.6.2; docs/hardware.md §5 (sources), §7 (PMI).
 */
#ifndef PEBS_MEASURE_H
#define PEBS_MEASURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pebs/aggbuf.h"
#include "sample/aggregate.h"
#include "pebs/caps.h"
#include "pebs/cntr_snap.h"
#include "pebs/datasrc.h"
#include "pebs/pebs.h"

#define PEBS_MEASURE_RECORDS 4096u	/* records aimed at: p99 rests on >= 40 samples */
#define PEBS_DUMP_BYTES (64u << 10)	/* raw copies kept for dump=: 320+ legacy records */

struct pebs_measure_cfg {
	struct pebs_config pc;	/* kind, ldlat, sav, buf_bytes (sink is set here) */
	uint64_t target_records;	/* stop once this many were drained; 0: the default */
	/* One chunk of the workload (interrupts on, so PMIs drain); false: budget spent. */
	bool (*work)(void *ctx);
	void *work_ctx;
	uint8_t *dump;		/* NULL: no raw copies */
	size_t dump_cap;
	bool retire;		/* keep the retire latency of records of level retire_level */
	unsigned retire_level;	/* enum pebs_level */
};

struct pebs_measure {
	const struct pebs_model *model;	/* NULL: model unknown, every level N/A */
	enum pebs_core core;
	enum pebs_event ev;
	unsigned format;	/* PERF_CAPABILITIES[11:8] */
	uint32_t walk_flags;	/* PEBS_WALK_* for the walker/decoder */
	uint64_t sav;
	uint32_t ldlat;		/* 0 for stores */
	uint16_t event;		/* umask<<8 | event programmed */
	uint64_t chunks;	/* workload chunks run */
	struct pebs_stats st;	/* the driver's counters after the final drain */
	size_t dump_len;	/* bytes copied into cfg.dump */
	uint64_t dump_kept, dump_lost;
	/* store events: records whose status says L1 hit / L1 miss / nothing (ST_NONE) */
	uint64_t st_hit, st_miss, st_unknown;
	struct pebs_agg agg;
	struct pebs_cntr_agg cntr;	/* pebs_counters=on: cycles per window per level */
	/* retire latency (PERF_CAPABILITIES[17] timed PEBS, arch PEBS) of the records of
	 * cfg.retire_level; count 0: none carried one */
	struct pebs_agg_level retire;
	bool keep_retire;
	unsigned retire_level;
	struct pebs_aggbuf_ctx ab;
	struct pebs_session s;
	uint8_t *dump;
	size_t dump_cap;
	char err[128];
};

/* The hybrid core type (CPUID.1AH) as the decoder's core selector. */
enum pebs_core pebs_measure_core(const struct pebs_caps *c);

/* Run one measurement. 0; -1 with m->err when the event cannot be programmed. */
int pebs_measure_run(struct pebs_measure *m, const struct pebs_caps *c,
		     const struct pebs_measure_cfg *cfg);

#endif
