/*
 * lb_sweep.c: sweep sizes under a memory cap and the measured warm-up rule of
 * tools/lb_sweep.h.
 */
#include "tools/lb_sweep.h"
#include "loads/chain.h"
#include "loads/plan.h"
#include "loads/steady.h"

#include <stdio.h>

#define ALIGN_2M(x) (((x) + (2ull << 20) - 1) & ~((2ull << 20) - 1))

uint64_t lb_resident_bytes(const uint64_t *sizes, unsigned n)
{
	uint64_t total = 0, max = 0;

	for (unsigned i = 0; i < n; i++) {
		total += ALIGN_2M(sizes[i]);
		max = sizes[i] > max ? sizes[i] : max;
	}
	return total + chain_scratch_bytes(&(struct chain_params){ .bytes = max, .stride = 64 });
}

/* Bytes as K, M or G, rounded to the nearest (a sweep size is rarely a round number). */
const char *lb_size_str(uint64_t b, char *buf, size_t n)
{
	if (b >= 10ull << 30)
		snprintf(buf, n, "%.1fG", (double)b / (1ull << 30));
	else if (b >= 1ull << 20)
		snprintf(buf, n, "%lluM", (unsigned long long)((b + (1ull << 19)) >> 20));
	else
		snprintf(buf, n, "%lluK", (unsigned long long)((b + 512) >> 10));
	return buf;
}

unsigned lb_default_sizes(uint64_t l3, unsigned ppo, uint64_t cap, uint64_t *out,
			  unsigned max, char *why, size_t n)
{
	uint64_t hi = 4 * l3, want;
	unsigned k = load_sweep_sizes(16 << 10, hi, ppo, out, max), all = k;
	char a[24], b[24], c[24], d[24], e[24];

	why[0] = '\0';
	if (!k)
		return 0;
	want = lb_resident_bytes(out, k);
	while (k > 1 && lb_resident_bytes(out, k) > cap)
		k--;
	if (k < all)
		snprintf(why, n, "sizes up to %s (4x CPUID's L3 of %s) would keep %s resident; "
			 "the sweep stops at %s, under --max-mem %s", lb_size_str(out[all - 1], a, sizeof(a)),
			 lb_size_str(l3, b, sizeof(b)), lb_size_str(want, c, sizeof(c)),
			 lb_size_str(out[k - 1], d, sizeof(d)), lb_size_str(cap, e, sizeof(e)));
	return k;
}

void lb_warm_cfg(const struct lb_warm *w, uint64_t size, struct chase_cfg *cfg)
{
	bool past = w->past && size >= w->past;

	cfg->warm_max_steps = past ? LB_WARM_PAST_STEPS : 0;
	cfg->warm_max_laps = past ? STEADY_PAST_LLC_LAPS : 0;
}

bool lb_warm_note(struct lb_warm *w, uint64_t size, uint64_t nodes, const struct chase_result *r)
{
	if (!r->tsc_min_x100)
		return false;
	if (!w->l1_x100 || size < w->l1_size) {
		if (size <= LB_L1_PROBE) {
			w->l1_x100 = r->tsc_min_x100;
			w->l1_size = size;
		}
		return false;
	}
	/* only a size warmed in full laps (below the mark, a chain of at least one unit) */
	if ((w->past && size >= w->past) || nodes < STEADY_MIN_UNIT)
		return false;
	if (r->tsc_min_x100 < (uint64_t)LB_PAST_X * w->l1_x100) {
		w->streak = 0;
		return false;
	}
	if (w->streak && size < w->last)
		w->streak = 0;
	if (!w->streak++)
		w->first = size;
	w->last = size;
	if (w->streak < LB_PAST_CONFIRM)
		return false;
	w->past = w->last;	/* the confirming size: the earlier one may have been noise */
	return true;
}
