/*
 * aggregate.h: streaming aggregation of decoded PEBS load-latency records per data-source
 * level, with no per-record storage (pure, integer only). Per level: count, min, max, sum,
 * snoop/STLB counts and a fixed log-linear latency histogram from which p50/p90/p99 and a log2
 * histogram for printing are derived (docs/latency-method.md §9 item 11).
 *
 * Histogram: values 0..31 have one bucket each (exact); a value v >= 32 with highest set bit m
 * lands in one of 16 equal sub-buckets of [2^m, 2^(m+1)), width 2^(m-4). A percentile is
 * reported as its bucket's midpoint clamped to [min, max], so for v >= 32 the error is
 * < v/32 (3.125 %) and below 32 it is exact. Values >= 2^32 share the last bucket (their
 * percentile is then only bounded by max).
 */
#ifndef SAMPLE_AGGREGATE_H
#define SAMPLE_AGGREGATE_H

#include <stdbool.h>
#include <stdint.h>

#include "sample/dsrc.h"

#define PEBS_AGG_EXACT		32u	/* values below this are exact */
#define PEBS_AGG_SUB		16u	/* sub-buckets per power of two */
#define PEBS_AGG_BUCKETS	(PEBS_AGG_EXACT + (32u - 5u) * PEBS_AGG_SUB)	/* 464 */
#define PEBS_AGG_LOG2_BUCKETS	32u	/* [0,2), [2,4), ... [2^31, inf) */

struct pebs_agg_level {
	uint64_t count;		/* records with a latency */
	uint64_t nolat;		/* records without a latency field (e.g. fmt 0, stores) */
	uint64_t sum, min, max;
	uint32_t snoop[PEBS_SNOOP_COUNT];
	uint32_t stlb_miss, locked;
	uint32_t remote;	/* records whose source is remote (another node's cache or DRAM) */
	uint32_t hist[PEBS_AGG_BUCKETS];
};

struct pebs_agg {
	uint64_t records;	/* records seen, including errors */
	uint64_t errors;	/* records with a walker error (not aggregated) */
	struct pebs_agg_level lvl[PEBS_LVL_COUNT];
};

void pebs_agg_init(struct pebs_agg *a);
/* Add one sample: its data source, and its latency when the sampler gave one (has_latency). */
void pebs_agg_add_sample(struct pebs_agg *a, const struct pebs_dsrc *d, bool has_latency,
			 uint64_t latency);
/* Count a sample the sampler could not decode (not aggregated). */
void pebs_agg_add_error(struct pebs_agg *a);
/* Add one latency sample to a level (the primitive under pebs_agg_add). */
void pebs_agg_add_latency(struct pebs_agg_level *l, uint64_t latency);
void pebs_agg_merge(struct pebs_agg *dst, const struct pebs_agg *src);

/* Latency at permille (500 = p50, 900 = p90, 990 = p99), nearest rank; 0 if count == 0. */
uint64_t pebs_agg_percentile(const struct pebs_agg_level *l, unsigned permille);
/* Mean latency (integer, rounded down); 0 if count == 0. */
uint64_t pebs_agg_mean(const struct pebs_agg_level *l);
/* out[k] = samples in [2^k, 2^(k+1)) (k = 0 holds 0 and 1); the last bucket is open-ended. */
void pebs_agg_log2(const struct pebs_agg_level *l, uint64_t out[PEBS_AGG_LOG2_BUCKETS]);

/* Bucket geometry (exposed for tests and printing). */
static inline unsigned pebs_agg_bucket_of(uint64_t v)
{
	/*
	 * With s = msb(v | 16) - 4 the index is 16*s + (v >> s): for v < 32, s = 0 and the
	 * index is v; above, v >> s lies in [16, 32) and picks one of 16 sub-buckets of the
	 * octave. Branch-free except the (never taken for sane latencies) saturation.
	 */
	unsigned s = 59u - (unsigned)__builtin_clzll(v | 16);	/* BSR/LZCNT, no libgcc call */

	if (v >> 32)
		return PEBS_AGG_BUCKETS - 1;	/* saturate */
	return 16 * s + (unsigned)(v >> s);
}

/* The per-sample update, inline for the buffer fast path (aggbuf.c). */
static inline void pebs_agg_level_add(struct pebs_agg_level *l, uint64_t latency)
{
	l->count++;
	l->sum += latency;
	if (latency < l->min)
		l->min = latency;
	if (latency > l->max)
		l->max = latency;
	l->hist[pebs_agg_bucket_of(latency)]++;
}

unsigned pebs_agg_bucket(uint64_t v);
uint64_t pebs_agg_bucket_lo(unsigned i);
uint64_t pebs_agg_bucket_width(unsigned i);

#endif
