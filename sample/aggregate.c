/*
 * aggregate.c: per-level latency aggregation with a log-linear histogram (see aggregate.h for
 * the bucket scheme and its error bound). Pure, integer only; used by the kernel's PMI drain
 * and the host tools. The method follows docs/latency-method.md (§9 item 11: aggregate in the
 * kernel, print count/min/p50/p90/p99/max and a histogram per level).
 */
#include "sample/aggregate.h"

#include <string.h>

/* Highest set bit of v != 0 (one BSR/LZCNT instruction; no libgcc call on x86-64). */
static unsigned msb64(uint64_t v)
{
	return 63u - (unsigned)__builtin_clzll(v);
}

unsigned pebs_agg_bucket(uint64_t v)
{
	return pebs_agg_bucket_of(v);
}

uint64_t pebs_agg_bucket_lo(unsigned i)
{
	if (i < PEBS_AGG_EXACT)
		return i;
	unsigned j = i - PEBS_AGG_EXACT;
	unsigned m = 5 + j / PEBS_AGG_SUB;

	return (uint64_t)(PEBS_AGG_SUB + j % PEBS_AGG_SUB) << (m - 4);
}

uint64_t pebs_agg_bucket_width(unsigned i)
{
	if (i < PEBS_AGG_EXACT)
		return 1;
	return (uint64_t)1 << (5 + (i - PEBS_AGG_EXACT) / PEBS_AGG_SUB - 4);
}

static void level_init(struct pebs_agg_level *l)
{
	memset(l, 0, sizeof(*l));
	l->min = UINT64_MAX;
}

void pebs_agg_init(struct pebs_agg *a)
{
	a->records = 0;
	a->errors = 0;
	for (unsigned i = 0; i < PEBS_LVL_COUNT; i++)
		level_init(&a->lvl[i]);
}

void pebs_agg_add_latency(struct pebs_agg_level *l, uint64_t latency)
{
	pebs_agg_level_add(l, latency);
}

void pebs_agg_add_error(struct pebs_agg *a)
{
	a->records++;
	a->errors++;
}

void pebs_agg_add_sample(struct pebs_agg *a, const struct pebs_dsrc *d, bool has_latency,
			 uint64_t latency)
{
	a->records++;
	struct pebs_agg_level *l = &a->lvl[d->level < PEBS_LVL_COUNT ? d->level : PEBS_LVL_NA];

	if (has_latency)
		pebs_agg_add_latency(l, latency);
	else
		l->nolat++;
	l->snoop[d->snoop < PEBS_SNOOP_COUNT ? d->snoop : PEBS_SNOOP_NA]++;
	l->stlb_miss += d->stlb_miss == PEBS_YES;
	l->locked += d->locked == PEBS_YES;
	l->remote += d->remote == PEBS_YES;
}

void pebs_agg_merge(struct pebs_agg *dst, const struct pebs_agg *src)
{
	dst->records += src->records;
	dst->errors += src->errors;
	for (unsigned i = 0; i < PEBS_LVL_COUNT; i++) {
		struct pebs_agg_level *d = &dst->lvl[i];
		const struct pebs_agg_level *s = &src->lvl[i];

		d->count += s->count;
		d->nolat += s->nolat;
		d->sum += s->sum;
		if (s->min < d->min)
			d->min = s->min;
		if (s->max > d->max)
			d->max = s->max;
		for (unsigned k = 0; k < PEBS_SNOOP_COUNT; k++)
			d->snoop[k] += s->snoop[k];
		d->stlb_miss += s->stlb_miss;
		d->locked += s->locked;
		d->remote += s->remote;
		for (unsigned k = 0; k < PEBS_AGG_BUCKETS; k++)
			d->hist[k] += s->hist[k];
	}
}

uint64_t pebs_agg_percentile(const struct pebs_agg_level *l, unsigned permille)
{
	if (l->count == 0)
		return 0;
	if (permille > 1000)
		permille = 1000;
	/* nearest rank: ceil(p * n), at least 1; p*n fits: n < 2^54 records in practice */
	uint64_t rank = (l->count * permille + 999) / 1000;
	uint64_t cum = 0;

	if (rank == 0)
		rank = 1;
	for (unsigned i = 0; i < PEBS_AGG_BUCKETS; i++) {
		cum += l->hist[i];
		if (cum < rank)
			continue;
		uint64_t est = pebs_agg_bucket_lo(i) + (pebs_agg_bucket_width(i) - 1) / 2;

		if (est < l->min)
			est = l->min;
		if (est > l->max)
			est = l->max;
		return est;
	}
	return l->max;	/* unreachable when hist and count agree */
}

uint64_t pebs_agg_mean(const struct pebs_agg_level *l)
{
	return l->count ? l->sum / l->count : 0;
}

void pebs_agg_log2(const struct pebs_agg_level *l, uint64_t out[PEBS_AGG_LOG2_BUCKETS])
{
	for (unsigned k = 0; k < PEBS_AGG_LOG2_BUCKETS; k++)
		out[k] = 0;
	for (unsigned i = 0; i < PEBS_AGG_BUCKETS; i++) {
		uint64_t lo = pebs_agg_bucket_lo(i);
		unsigned k = lo > 1 ? msb64(lo) : 0;

		out[k < PEBS_AGG_LOG2_BUCKETS ? k : PEBS_AGG_LOG2_BUCKETS - 1] += l->hist[i];
	}
}
