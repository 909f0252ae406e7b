/*
 * pebs_verdict.c: the PEBS verdicts of the load tests (see pebs_verdict.h). Every number here
 * is a judgement about what a correct kernel on correct hardware shows; each carries its
 * reason. docs/latency-method.md §9 item 10 expects >= 95 % of samples at the plateau's level;
 * the shares below are lower where prefetchers, line fills and the assist's own traffic move
 * records to a neighbouring level without the kernel being wrong.
 */
#include "loads/pebs_verdict.h"
#include "kernel/fmt.h"
#include "sample/agg_print.h"

#define PM(x) (x) / 10, (x) % 10	/* permille -> "I.F" percent */

uint64_t pv_total(const struct pebs_agg *a)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < PEBS_LVL_COUNT; i++)
		n += a->lvl[i].count + a->lvl[i].nolat;
	return n;
}

unsigned pv_share_permille(const struct pebs_agg *a, unsigned l)
{
	uint64_t t = pv_total(a);

	if (!t || l >= PEBS_LVL_COUNT)
		return 0;
	return (unsigned)((a->lvl[l].count + a->lvl[l].nolat) * 1000 / t);
}

unsigned pv_dominant(const struct pebs_agg *a)
{
	unsigned best = PEBS_LVL_NA;
	uint64_t n = 0;

	for (unsigned i = 0; i < PEBS_LVL_COUNT; i++)
		if (a->lvl[i].count + a->lvl[i].nolat > n) {
			n = a->lvl[i].count + a->lvl[i].nolat;
			best = i;
		}
	return best;
}

unsigned pv_min_share(enum pebs_level target)
{
	switch (target) {
	case PEBS_LVL_L1:	/* chain is half of L1D on 2 MiB pages: only the assist's and the
				 * PMI handler's own lines can evict it */
		return 900;
	case PEBS_LVL_L2:	/* every load misses L1D; next-line/adjacent-line prefetches turn a
				 * few into L1/LFB hits (the chain never visits neighbour lines) */
		return 800;
	case PEBS_LVL_L3:	/* L2 streamer + adjacent-line prefetch give L2/LFB hits; a
				 * non-inclusive L3 (SKX and later) and the DS buffer's writes push
				 * some lines out to DRAM */
		return 600;
	case PEBS_LVL_RAM:	/* ws is several x L3: a random chase still finds ~L3/ws of its
				 * lines in L3 (up to 25 % at 4x), plus prefetch/LFB hits */
		return 500;
	case PEBS_LVL_LFB:	/* 7 of 8 loads per step target the line in flight (87.5 % at
				 * most); those issued after the fill lands are L1 hits, and the
				 * chase load itself misses */
		return 400;
	default:
		return 500;
	}
}

void pv_band(bool core_clock, unsigned *lo_pct, unsigned *hi_pct, unsigned *slack)
{
	/*
	 * PEBS latency is uop dispatch to GO, the chase is load-to-use (docs/latency-method.md §7):
	 * they differ by a few cycles (slack 4, which decides only at L1) and by queueing, which
	 * both see. With core cycles: 50..200 %. With the TSC only, turbo or power saving puts
	 * the core clock anywhere in ~0.5..2x the TSC: 33..300 %.
	 */
	*lo_pct = core_clock ? 50 : 33;
	*hi_pct = core_clock ? 200 : 300;
	*slack = 4;
}

enum pv_result pv_source(const struct pebs_agg *a, enum pebs_level target, char *d, size_t n)
{
	unsigned dom = pv_dominant(a), share = pv_share_permille(a, target);
	unsigned min = pv_min_share(target);
	uint64_t t = pv_total(a);

	if (!t) {
		fmt_snprintf(d, n, "no records");
		return PV_FAIL;
	}
	if (dom == (unsigned)target && share >= min) {
		fmt_snprintf(d, n, "%s %u.%u%% >= %u%%, of %llu", pebs_agg_level_name(target),
			     PM(share), min / 10, (unsigned long long)t);
		return PV_PASS;
	}
	if (dom != (unsigned)target)
		fmt_snprintf(d, n, "%s dominates with %u.%u%%; %s %u.%u%%, needs >= %u%%",
			     pebs_agg_level_name(dom), PM(pv_share_permille(a, dom)),
			     pebs_agg_level_name(target), PM(share), min / 10);
	else
		fmt_snprintf(d, n, "%s %u.%u%% < %u%%", pebs_agg_level_name(target), PM(share),
			     min / 10);
	return PV_FAIL;
}

enum pv_result pv_records(const struct pebs_stats *st, unsigned counter, char *d, size_t n)
{
	if (st->records) {
		fmt_snprintf(d, n, "%llu records", (unsigned long long)st->records);
		return PV_PASS;
	}
	if (st->pebs_ovf) {
		fmt_snprintf(d, n, "IA32_PERF_GLOBAL_STATUS[%u] set, 0 records: counter overflowed, "
			     "no PEBS assist: virtualised or cross-mapped counter", counter);
		return PV_SKIP;
	}
	fmt_snprintf(d, n, "no records");
	return PV_FAIL;
}

enum pv_result pv_latency(const struct pebs_agg *a, enum pebs_level target,
			  uint64_t timed_x100, bool core_clock, char *d, size_t n)
{
	const struct pebs_agg_level *l = &a->lvl[target];
	unsigned lo, hi, slack;
	uint64_t p50, lo_x100, hi_x100;

	if (!l->count) {
		fmt_snprintf(d, n, "no %s records with a latency", pebs_agg_level_name(target));
		return PV_FAIL;
	}
	pv_band(core_clock, &lo, &hi, &slack);
	p50 = pebs_agg_percentile(l, 500);
	lo_x100 = timed_x100 * lo / 100;
	hi_x100 = timed_x100 * hi / 100 + slack * 100;
	fmt_snprintf(d, n, "p50 %llu vs %llu.%02llu %s/load, band %llu..%llu", (unsigned long long)p50,
		     (unsigned long long)(timed_x100 / 100), (unsigned long long)(timed_x100 % 100),
		     core_clock ? "core" : "TSC", (unsigned long long)(lo_x100 / 100),
		     (unsigned long long)(hi_x100 / 100));
	return p50 * 100 >= lo_x100 && p50 * 100 <= hi_x100 ? PV_PASS : PV_FAIL;
}

enum pv_result pv_retire(const struct pebs_agg_level *l, uint64_t timed_x100, bool core_clock,
			 char *d, size_t n)
{
	/* Project rule, not a vendor promise: in a dependent chase each load retires about one
	 * load latency after the one before, so the median retire latency (cycles since the
	 * previous retirement, SDM Vol. 3B "Timed PEBS") is the chase's cycles per load. The
	 * loop's other uops retire in the same cycles as their load, or split an interval
	 * (below: down to half), an interrupt or SMI lengthens one (above: up to twice): the
	 * core-clock band of pebs_latency, 50..200 % + 4 cycles. TSC only: not judged. */
	uint64_t p50, lo_x100 = timed_x100 / 2, hi_x100 = timed_x100 * 2 + 400;

	if (!core_clock) {
		fmt_snprintf(d, n, "retire latency counts core cycles: no core clock to compare");
		return PV_SKIP;
	}
	if (!l->count) {
		fmt_snprintf(d, n, "no record carried a retire latency");
		return PV_SKIP;
	}
	p50 = pebs_agg_percentile(l, 500);
	fmt_snprintf(d, n, "retire p50 %llu vs %llu.%02llu core/load, band %llu..%llu",
		     (unsigned long long)p50, (unsigned long long)(timed_x100 / 100),
		     (unsigned long long)(timed_x100 % 100), (unsigned long long)(lo_x100 / 100),
		     (unsigned long long)(hi_x100 / 100));
	return p50 * 100 >= lo_x100 && p50 * 100 <= hi_x100 ? PV_PASS : PV_FAIL;
}

enum pv_result pv_rises(uint64_t p50_below, const char *below, uint64_t p50, char *d, size_t n)
{
	fmt_snprintf(d, n, "p50 %llu > %s p50 %llu", (unsigned long long)p50, below,
		     (unsigned long long)p50_below);
	return p50 > p50_below ? PV_PASS : PV_FAIL;
}

enum pv_result pv_store(uint64_t records, uint64_t hit, uint64_t miss, enum pebs_store_kind k,
			char *d, size_t n)
{
	/* The store writes the node its load just brought into L1D: a miss needs an eviction
	 * in between (the assist's own writes, the PMI). 80 % leaves room for those. */
	const unsigned min = 800;
	unsigned share;

	if (!records) {
		fmt_snprintf(d, n, "no store records");
		return PV_FAIL;
	}
	if (k == PEBS_ST_NONE) {
		fmt_snprintf(d, n, "%llu store records; this model's store events carry no "
			     "data source", (unsigned long long)records);
		return PV_SKIP;
	}
	if (!(hit + miss)) {
		fmt_snprintf(d, n, "%llu store records, none with an L1 status",
			     (unsigned long long)records);
		return PV_FAIL;
	}
	share = (unsigned)(hit * 1000 / (hit + miss));
	fmt_snprintf(d, n, "L1 hit %u.%u%% of %llu, needs >= %u%%", PM(share),
		     (unsigned long long)(hit + miss), min / 10);
	return share >= min ? PV_PASS : PV_FAIL;
}

enum pv_result pv_stlb(const struct pebs_agg *a, bool layout_has_stlb, char *d, size_t n)
{
	/* One load per 4 KiB page over 16384 pages in random order: an STLB of E entries hits
	 * with probability ~E/16384 (12.5 % for Golden Cove's 2048); 70 % leaves room. */
	const unsigned min = 700;
	uint64_t t = pv_total(a), m = 0;
	unsigned share;

	if (!layout_has_stlb) {
		fmt_snprintf(d, n, "this model's data-source layout has no STLB-miss bit");
		return PV_SKIP;
	}
	if (!t) {
		fmt_snprintf(d, n, "no records");
		return PV_FAIL;
	}
	for (unsigned i = 0; i < PEBS_LVL_COUNT; i++)
		m += a->lvl[i].stlb_miss;
	share = (unsigned)(m * 1000 / t);
	fmt_snprintf(d, n, "STLB miss %u.%u%% of %llu, needs >= %u%%", PM(share),
		     (unsigned long long)t, min / 10);
	return share >= min ? PV_PASS : PV_FAIL;
}

void pv_pct_x100(char *b, size_t n, int64_t v)
{
	uint64_t a = v < 0 ? (uint64_t)-v : (uint64_t)v;

	fmt_snprintf(b, n, "%c%llu.%02llu%%", v < 0 ? '-' : '+', (unsigned long long)(a / 100),
		     (unsigned long long)(a % 100));
}

enum pv_result pv_overhead(const struct pebs_cost *c, uint64_t sav, char *d, size_t n)
{
	/* The `time` line is the unarmed truth; a sampled run that runs more than 3 % slower has
	 * changed what it measures (docs/latency-method.md §7 budgets ~1 %). */
	int64_t o = pebs_cost_overhead_x100(c);
	uint64_t a = pebs_cost_armed_ns_x100(c), b = pebs_cost_base_ns_x100(c);
	char p[24], p0[24];
	size_t k;

	if (!pebs_cost_valid(c)) {
		fmt_snprintf(d, n, "no unarmed and armed timing of the same chunks");
		return PV_SKIP;
	}
	pv_pct_x100(p, sizeof(p), o);
	k = (size_t)fmt_snprintf(d, n, "armed %llu.%02llu vs unarmed %llu.%02llu ns/step: %s, "
				 "limit %u%%", (unsigned long long)(a / 100),
				 (unsigned long long)(a % 100), (unsigned long long)(b / 100),
				 (unsigned long long)(b % 100), p, PEBS_COST_LIMIT_X100 / 100);
	if (c->sav_first && k < n) {
		pv_pct_x100(p0, sizeof(p0), c->overhead_first_x100);
		fmt_snprintf(d + k, n - k, "; sav tuned %llu -> %llu after %s",
			     (unsigned long long)c->sav_first, (unsigned long long)sav, p0);
	}
	return o <= PEBS_COST_LIMIT_X100 ? PV_PASS : PV_FAIL;
}
