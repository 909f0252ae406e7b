/*
 * ibs_measure.h: one IBS measurement, the AMD counterpart of pebs/measure.h: arm op sampling
 * (ibs/ibs.h), run a workload in chunks until enough load samples or its budget, decode every
 * sample inside the interrupt into the same struct pebs_agg the PEBS path fills (only load ops
 * count; other ops are tallied), optionally copy the raw load samples (docs/ibs.md "Dump
 * layout") into a bounded buffer, stop. APM Vol. 2 "Instruction-Based Sampling"; docs/ibs.md.
 */
#ifndef IBS_IBS_MEASURE_H
#define IBS_IBS_MEASURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sample/aggregate.h"
#include "ibs/ibs.h"

struct ibs_measure_cfg {
	uint64_t period;		/* mean ops between samples */
	uint64_t seed;
	uint64_t target_loads;		/* stop once this many load samples; 0: 4096 */
	bool (*work)(void *ctx);	/* one chunk, interrupts on; false: budget spent */
	void *work_ctx;
	uint8_t *dump;			/* NULL: no raw copies */
	size_t dump_cap;
	/* the workload's buffer [lo, hi) (virtual; hi 0: any): a load sample whose DC linear
	 * address lies outside is not the workload's (the handler's own loads, H2) */
	uint64_t lo, hi;
	unsigned ldlat;			/* load-latency filter threshold (ibs_ldlat_round), 0 off */
};

struct ibs_measure {
	const struct ibs_family *fam;
	bool ext_dsrc;
	uint64_t period;
	uint64_t chunks;
	uint64_t loads, other_ops;	/* valid samples that were / were not load ops */
	uint64_t foreign;		/* load samples outside [lo, hi): not aggregated */
	unsigned ldlat;			/* the filter's threshold, 0 off */
	uint64_t below_ldlat;		/* load samples the filter should have dropped: dropped */
	uint64_t lo, hi;
	struct ibs_stats st;
	struct pebs_agg agg;
	struct ibs_session s;
	uint8_t *dump;
	size_t dump_len, dump_cap;
	uint64_t dump_kept, dump_lost;
	char err[128];
};

int ibs_measure_run(struct ibs_measure *m, const struct ibs_caps *c,
		    const struct ibs_measure_cfg *cfg);

#endif
