/*
 * pebs_verdict.h: the PEBS verdicts of the load tests (issue 6), pure and host-tested: the
 * target level is the dominant decoded source with a minimum share; the target's median
 * latency lies in a band around the timed cycles/load; latencies rise level over level; store
 * records carry L1 hits; the STLB kernel's records carry the STLB-miss bit; sampling moved the
 * timed latency by at most 3 % (loads/pebs_cost.h). Thresholds and their reasons are in
 * pebs_verdict.c. Basis: docs/latency-method.md §7, §9 (items 9, 10), docs/hardware.md §5
 * (data sources).
 */
#ifndef LOADS_PEBS_VERDICT_H
#define LOADS_PEBS_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "loads/pebs_cost.h"
#include "sample/aggregate.h"
#include "pebs/datasrc.h"
#include "pebs/pebs.h"

enum pv_result { PV_FAIL = 0, PV_PASS = 1, PV_SKIP = -1 };

/* Records in all levels (with or without a latency). */
uint64_t pv_total(const struct pebs_agg *a);
/* Share of level l in permille of pv_total (0 when there are no records). */
unsigned pv_share_permille(const struct pebs_agg *a, unsigned l);
/* Level with the most records (PEBS_LVL_NA when empty). */
unsigned pv_dominant(const struct pebs_agg *a);

/* Minimum share (permille) the target level must reach. */
unsigned pv_min_share(enum pebs_level target);
/* Band for the target's p50 around the timed cycles/load: [lo%, hi%] of it, + slack cycles. */
void pv_band(bool core_clock, unsigned *lo_pct, unsigned *hi_pct, unsigned *slack);

/* The verdicts; `d` receives the detail (measured value and bound) or the SKIP reason. */
enum pv_result pv_source(const struct pebs_agg *a, enum pebs_level target, char *d, size_t n);
/* Did the PEBS step produce records at all? PASS when it did; SKIP when none came although
 * the PEBS counter overflowed (its GLOBAL_STATUS bit seen in a PMI or at stop: a virtualised
 * or cross-mapped counter, kvm-unit-tests x86/pmu_pebs.c); FAIL "no records" otherwise. */
enum pv_result pv_records(const struct pebs_stats *st, unsigned counter, char *d, size_t n);
enum pv_result pv_latency(const struct pebs_agg *a, enum pebs_level target,
			  uint64_t timed_x100, bool core_clock, char *d, size_t n);
enum pv_result pv_rises(uint64_t p50_below, const char *below, uint64_t p50, char *d, size_t n);
/* Timed PEBS / arch PEBS (issue 31): the median retire latency of the target level's records
 * against the chase's core cycles per load, 50..200 % + 4 (a project rule: see the .c). SKIP
 * without a core clock or without retire latencies. */
enum pv_result pv_retire(const struct pebs_agg_level *l, uint64_t timed_x100, bool core_clock,
			 char *d, size_t n);
enum pv_result pv_store(uint64_t records, uint64_t hit, uint64_t miss, enum pebs_store_kind k,
			char *d, size_t n);
enum pv_result pv_stlb(const struct pebs_agg *a, bool layout_has_stlb, char *d, size_t n);
/* pebs_overhead: the armed run moved the timed ns/step by at most PEBS_COST_LIMIT_X100 (a sav
 * retuned after a first, costlier run is named); SKIP without both timings. */
enum pv_result pv_overhead(const struct pebs_cost *c, uint64_t sav, char *d, size_t n);
/* Signed 0.01 % value as "+1.23%" / "-0.40%". */
void pv_pct_x100(char *b, size_t n, int64_t v);

#endif
