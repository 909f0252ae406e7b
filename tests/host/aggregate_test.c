/*
 * aggregate_test.c: the streaming per-level aggregation (sample/aggregate.c) against a sorted
 * reference. Tolerance, from the bucket scheme in aggregate.h: a latency below 32 is exact; for
 * v >= 32 in octave [2^m, 2^(m+1)) the bucket width is 2^(m-4) and the reported midpoint is at
 * most 2^(m-5) - 1 < v/32 away, so |p_est - p_ref| * 32 < p_ref (3.125 %).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sample/aggregate.h"
#include "pebs/aggbuf.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int cmp64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void test_buckets(void **state)
{
	(void)state;
	unsigned prev = 0;

	for (uint64_t v = 0; v < 300000; v++) {
		unsigned b = pebs_agg_bucket(v);
		uint64_t lo = pebs_agg_bucket_lo(b), w = pebs_agg_bucket_width(b);

		assert_true(b >= prev && b <= prev + 1);	/* monotonic, no holes */
		prev = b;
		assert_true(lo <= v && v < lo + w);
		if (v < 32)
			assert_int_equal(w, 1);
		else
			assert_true(w * 16 <= lo);		/* width <= lo/16 */
	}
	for (unsigned i = 0; i < PEBS_AGG_BUCKETS; i++)
		assert_int_equal(pebs_agg_bucket(pebs_agg_bucket_lo(i)), i);
	assert_int_equal(pebs_agg_bucket(0xffffffffull), PEBS_AGG_BUCKETS - 1);
	assert_int_equal(pebs_agg_bucket(1ull << 40), PEBS_AGG_BUCKETS - 1);
	assert_int_equal(pebs_agg_bucket(UINT64_MAX), PEBS_AGG_BUCKETS - 1);
	assert_int_equal(PEBS_AGG_BUCKETS, 464);
}

enum dist { UNIFORM_SMALL, UNIFORM_WIDE, LONG_TAIL, BIMODAL, CONSTANT, DRAM_LIKE };

static uint64_t sample(enum dist d)
{
	switch (d) {
	case UNIFORM_SMALL:
		return next() % 40;
	case UNIFORM_WIDE:
		return next() % 200000;
	case LONG_TAIL:
		return 4 + (next() % 16) * (1u << (next() % 14)) + next() % 7;
	case BIMODAL:
		return (next() % 10) ? 5 + next() % 3 : 280 + next() % 60;
	case CONSTANT:
		return 77;
	default:
		return 180 + next() % 50 + ((next() % 100) ? 0 : 1000 + next() % 5000);
	}
}

static void check_dist(enum dist d, size_t n)
{
	uint64_t *v = malloc(n * sizeof(*v));
	struct pebs_agg_level *l = malloc(sizeof(*l));
	static const unsigned pm[] = { 1, 100, 500, 900, 990, 999, 1000 };
	uint64_t sum = 0;

	memset(l, 0, sizeof(*l));
	l->min = UINT64_MAX;
	for (size_t i = 0; i < n; i++) {
		v[i] = sample(d);
		sum += v[i];
		pebs_agg_add_latency(l, v[i]);
	}
	qsort(v, n, sizeof(*v), cmp64);
	assert_int_equal(l->count, n);
	assert_int_equal(l->min, v[0]);
	assert_int_equal(l->max, v[n - 1]);
	assert_int_equal(l->sum, sum);
	assert_int_equal(pebs_agg_mean(l), sum / n);
	for (size_t k = 0; k < sizeof(pm) / sizeof(pm[0]); k++) {
		size_t rank = (n * pm[k] + 999) / 1000;
		uint64_t ref = v[(rank ? rank : 1) - 1];
		uint64_t est = pebs_agg_percentile(l, pm[k]);
		uint64_t err = est > ref ? est - ref : ref - est;

		if (ref < 32 ? err != 0 : err * 32 >= ref)
			fail_msg("dist %d n %zu p%u.%u: est %llu ref %llu", d, n, pm[k] / 10,
				 pm[k] % 10, (unsigned long long)est, (unsigned long long)ref);
	}
	/* log2 histogram against the reference */
	uint64_t lg[PEBS_AGG_LOG2_BUCKETS], ref_lg[PEBS_AGG_LOG2_BUCKETS] = { 0 };

	pebs_agg_log2(l, lg);
	for (size_t i = 0; i < n; i++) {
		unsigned k = 0;

		for (uint64_t x = v[i]; x > 1; x >>= 1)
			k++;
		ref_lg[k < PEBS_AGG_LOG2_BUCKETS ? k : PEBS_AGG_LOG2_BUCKETS - 1]++;
	}
	assert_memory_equal(lg, ref_lg, sizeof(lg));
	free(v);
	free(l);
}

static void test_percentiles(void **state)
{
	static const size_t sizes[] = { 1, 2, 3, 10, 99, 1000, 54321 };

	(void)state;
	for (enum dist d = UNIFORM_SMALL; d <= DRAM_LIKE; d++)
		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
			check_dist(d, sizes[i]);
}

static void test_records_and_merge(void **state)
{
	static struct pebs_agg a, b, all;
	struct pebs_record r = { .valid = PEBS_F_LATENCY };
	struct pebs_dsrc d = { .level = PEBS_LVL_L2, .snoop = PEBS_SNOOP_NONE,
			       .stlb_miss = PEBS_YES, .locked = PEBS_UNKNOWN };

	(void)state;
	pebs_agg_init(&a);
	pebs_agg_init(&b);
	pebs_agg_init(&all);
	assert_int_equal(pebs_agg_percentile(&a.lvl[PEBS_LVL_L2], 500), 0);
	assert_int_equal(pebs_agg_mean(&a.lvl[PEBS_LVL_L2]), 0);
	for (unsigned i = 0; i < 1000; i++) {
		r.latency = 10 + i % 37;
		d.level = i % 3 ? PEBS_LVL_L2 : PEBS_LVL_RAM;
		d.snoop = i % 2 ? PEBS_SNOOP_NONE : PEBS_SNOOP_HITM;
		r.err = i % 100 == 0 ? PEBS_REC_SIZE_MISMATCH : PEBS_REC_OK;
		r.valid = i % 50 == 1 ? 0 : PEBS_F_LATENCY;
		pebs_agg_add(i < 600 ? &a : &b, &r, &d);
		pebs_agg_add(&all, &r, &d);
	}
	assert_int_equal(all.records, 1000);
	assert_int_equal(all.errors, 10);
	/* 990 good: i%3==0 -> RAM */
	uint64_t ram = all.lvl[PEBS_LVL_RAM].count + all.lvl[PEBS_LVL_RAM].nolat;
	uint64_t l2 = all.lvl[PEBS_LVL_L2].count + all.lvl[PEBS_LVL_L2].nolat;

	assert_int_equal(ram + l2, 990);
	assert_int_equal(all.lvl[PEBS_LVL_L2].nolat + all.lvl[PEBS_LVL_RAM].nolat, 20);
	assert_int_equal(all.lvl[PEBS_LVL_L2].stlb_miss, l2);
	assert_int_equal(all.lvl[PEBS_LVL_L2].locked, 0);
	assert_int_equal(all.lvl[PEBS_LVL_L1].count, 0);
	assert_int_equal(all.lvl[PEBS_LVL_L2].snoop[PEBS_SNOOP_NONE] +
			 all.lvl[PEBS_LVL_L2].snoop[PEBS_SNOOP_HITM], l2);
	assert_int_equal(all.lvl[PEBS_LVL_L2].min, 10);
	assert_int_equal(all.lvl[PEBS_LVL_L2].max, 46);

	pebs_agg_merge(&a, &b);
	assert_memory_equal(&a, &all, sizeof(a));
	/* out-of-range level/snoop values land in NA, never out of bounds */
	d.level = 200;
	d.snoop = 200;
	r.err = 0;
	r.valid = PEBS_F_LATENCY;
	pebs_agg_add(&a, &r, &d);
	assert_int_equal(a.lvl[PEBS_LVL_NA].count, 1);
	assert_int_equal(a.lvl[PEBS_LVL_NA].snoop[PEBS_SNOOP_NA], 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buckets),
		cmocka_unit_test(test_percentiles),
		cmocka_unit_test(test_records_and_merge),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
