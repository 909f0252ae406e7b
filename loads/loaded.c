/*
 * loaded.c: load_loaded's arithmetic and verdicts (loads/loaded.h), pure integer C for the
 * kernel, loadbench and model-log. The sweep follows Intel MLC's --loaded_latency (delay 0
 * first, growing delays, then no injection); the bandwidth is what the injectors counted on
 * their own TSC (SDM Vol. 3B 18.17); the percentiles come from sample/aggregate.c's
 * histograms merged over every data-source level.
 */
#include "loads/loaded.h"
#include "kernel/fmt.h"
#include "sample/dsrc.h"

#include <string.h>

_Static_assert(PEBS_LVL_COUNT <= 16, "loaded_point.share_x10 holds every level");

#define X100(v) (unsigned long long)((v) / 100), (unsigned long long)((v) % 100)
#define X1000(v) (unsigned long long)((v) / 1000), (unsigned long long)((v) % 1000)

static const uint64_t sweep[] = { 0, 2, 8, 20, 50, 100, 200, 500, 1000, 3000, LOADED_IDLE };

unsigned loaded_sweep(uint64_t *delay, unsigned max)
{
	unsigned n = sizeof(sweep) / sizeof(sweep[0]);

	if (n > max)
		n = max;
	memcpy(delay, sweep, n * sizeof(*delay));
	if (n)
		delay[n - 1] = LOADED_IDLE;	/* the last step is always the idle one */
	return n;
}

uint64_t loaded_mbps(uint64_t bytes, uint64_t ticks, uint64_t hz)
{
	uint64_t per_tick_e6, rem;

	if (!bytes || !ticks || !hz)
		return 0;
	/* bytes/tick x1e6 (quotient and remainder apart: no overflow below 1.8e13 bytes per
	 * tick), then x hz / 1e12 = MB/s */
	rem = bytes % ticks;
	per_tick_e6 = bytes / ticks * 1000000u +
		      (rem > UINT64_MAX / 1000000u ? rem / (ticks / 1000000u) :
		       rem * 1000000u / ticks);
	if (per_tick_e6 > UINT64_MAX / hz)
		return per_tick_e6 / 1000000u * hz / 1000000u;
	return (per_tick_e6 * hz + 500000000000ull) / 1000000000000ull;
}

uint64_t loaded_total_mbps(const struct loaded_inj *in, unsigned n, uint64_t hz)
{
	uint64_t sum = 0;

	for (unsigned i = 0; i < n; i++)
		sum += loaded_mbps(in[i].bytes, in[i].ticks, hz);
	return sum;
}

void loaded_point_samples(struct loaded_point *p, const struct pebs_agg *a)
{
	static struct pebs_agg_level all;	/* ~2 KiB: not on a kernel stack */
	uint64_t known = 0;

	memset(&all, 0, sizeof(all));
	all.min = UINT64_MAX;
	memset(p->share_x10, 0, sizeof(p->share_x10));
	for (unsigned i = 0; i < PEBS_LVL_COUNT; i++) {
		const struct pebs_agg_level *l = &a->lvl[i];
		uint64_t k = l->count + l->nolat;

		if (a->records)
			p->share_x10[i] = (uint16_t)((k * 1000 + a->records / 2) / a->records);
		if (i != PEBS_LVL_NA)
			known += k;
		if (!l->count)
			continue;
		all.count += l->count;
		all.min = l->min < all.min ? l->min : all.min;
		all.max = l->max > all.max ? l->max : all.max;
		for (unsigned b = 0; b < PEBS_AGG_BUCKETS; b++)
			all.hist[b] += l->hist[b];
	}
	p->sampled = true;
	p->records = a->records;
	p->unaccounted = a->records > known ? a->records - known : 0;
	p->p50 = pebs_agg_percentile(&all, 500);
	p->p99 = pebs_agg_percentile(&all, 990);
}

void loaded_line(char *b, unsigned n, const char *name, unsigned step,
		 const struct loaded_point *p)
{
	char dl[24], core[24] = "-", smp[64] = "p50=- p99=- n=-", src[96] = "";
	unsigned o = 0;

	if (p->delay == LOADED_IDLE)
		fmt_snprintf(dl, sizeof(dl), "idle");
	else
		fmt_snprintf(dl, sizeof(dl), "%llu", (unsigned long long)p->delay);
	if (p->core_x100)
		fmt_snprintf(core, sizeof(core), "%llu.%02llu", X100(p->core_x100));
	if (p->sampled)
		fmt_snprintf(smp, sizeof(smp), "p50=%llu p99=%llu n=%llu",
			     (unsigned long long)p->p50, (unsigned long long)p->p99,
			     (unsigned long long)p->records);
	for (unsigned i = 0; p->sampled && i < PEBS_LVL_COUNT && o < sizeof(src); i++)
		if (p->share_x10[i])
			o += (unsigned)fmt_snprintf(src + o, sizeof(src) - o, "%s%s=%u.%u",
						    o ? "," : "", pebs_level_id(i),
						    p->share_x10[i] / 10, p->share_x10[i] % 10);
	fmt_snprintf(b, n, "%s: step %u delay=%s bw=%llu.%03lluGB/s lat=%llu.%02lluns core=%s %s "
		     "src %s", name, step, dl, X1000(p->mbps), X100(p->ns_x100), core, smp,
		     p->sampled ? (o ? src : "none") : "-");
}

unsigned loaded_noise_pct(uint64_t med_x100, uint64_t min_x100)
{
	if (!min_x100 || med_x100 <= min_x100)
		return 0;
	return (unsigned)((med_x100 - min_x100) * 100 / min_x100);
}

bool loaded_monotone(const struct loaded_point *pt, unsigned n, unsigned noise_pct, char *d,
		     unsigned dn)
{
	unsigned worst = noise_pct;

	for (unsigned i = 1; i < n; i++) {
		uint64_t prev = pt[i - 1].ns_x100, cur = pt[i].ns_x100;
		unsigned tol = pt[i].noise_pct > pt[i - 1].noise_pct ? pt[i].noise_pct :
			       pt[i - 1].noise_pct;

		tol = tol > LOADED_NOISE_MAX_PCT ? LOADED_NOISE_MAX_PCT : tol;
		tol = tol < noise_pct ? noise_pct : tol;
		worst = tol > worst ? tol : worst;
		if (cur * 100 > prev * (100 + tol)) {
			fmt_snprintf(d, dn, "step %u (%llu.%02llu ns at %llu.%03llu GB/s) > step %u "
				     "(%llu.%02llu ns at %llu.%03llu GB/s) + %u%%", i, X100(cur),
				     X1000(pt[i].mbps), i - 1, X100(prev),
				     X1000(pt[i - 1].mbps), tol);
			return false;
		}
	}
	fmt_snprintf(d, dn, "%u steps, %llu.%02llu ns at %llu.%03llu GB/s down to %llu.%02llu ns "
		     "idle, each within %u%% of the step before", n, X100(n ? pt[0].ns_x100 : 0),
		     X1000(n ? pt[0].mbps : 0), X100(n ? pt[n - 1].ns_x100 : 0), worst);
	return n > 1;
}

bool loaded_idle_ok(const struct loaded_point *idle, uint64_t dram_ns_x100, unsigned floor_pct,
		    char *d, unsigned dn)
{
	uint64_t a = idle->ns_x100, b = dram_ns_x100, diff = a > b ? a - b : b - a;
	bool ok = b && diff * 100 <= b * floor_pct;

	fmt_snprintf(d, dn, "idle %llu.%02llu ns vs load_dram %llu.%02llu ns: %s %u%%", X100(a),
		     X100(b), ok ? "within" : "not within", floor_pct);
	return ok;
}

bool loaded_accounted(const struct loaded_point *pt, unsigned n, char *d, unsigned dn)
{
	uint64_t recs = 0;
	unsigned steps = 0;

	for (unsigned i = 0; i < n; i++) {
		if (!pt[i].sampled)
			continue;
		if (!pt[i].records || pt[i].unaccounted) {
			fmt_snprintf(d, dn, "step %u: %llu of %llu samples in no data source", i,
				     (unsigned long long)pt[i].unaccounted,
				     (unsigned long long)pt[i].records);
			return false;
		}
		recs += pt[i].records;
		steps++;
	}
	fmt_snprintf(d, dn, "%llu samples over %u steps, each in a data source",
		     (unsigned long long)recs, steps);
	return steps > 0;
}
