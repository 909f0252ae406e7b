/*
 * coreclk.c: the core/TSC estimator of tools/coreclk.h. Integer arithmetic; the TSC through
 * kernel/hw.h, the chain and the counter through cc_ops.
 */
#include "tools/coreclk.h"
#include "kernel/hw.h"

#include <stdio.h>
#include <string.h>

/* Core 2 (Merom 0FH, Merom-L 16H, Penryn 17H, Dunnington 1DH): IMUL r64,r64 latency 5
 * (A. Fog, "Instruction tables", Merom and Wolfdale sections). */
static const uint8_t core2_models[] = { 0x0f, 0x16, 0x17, 0x1d };
/* Nehalem onwards (big cores, family 6): 1AH Nehalem-EP is the first; Atom models are not
 * documented here. The big-core models of family 6 since Nehalem: */
static const uint8_t big_models[] = {
	0x1a, 0x1e, 0x1f, 0x2e,			/* Nehalem */
	0x25, 0x2c, 0x2f,			/* Westmere */
	0x2a, 0x2d, 0x3a, 0x3e,			/* Sandy Bridge, Ivy Bridge */
	0x3c, 0x3f, 0x45, 0x46, 0x3d, 0x47, 0x4f, 0x56,	/* Haswell, Broadwell */
	0x4e, 0x5e, 0x55, 0x8e, 0x9e, 0xa5, 0xa6,	/* Skylake and its refreshes */
	0x66, 0x6a, 0x6c, 0x7d, 0x7e, 0x8c, 0x8d, 0xa7,	/* Cannon/Ice/Tiger/Rocket Lake */
	0x8f, 0xcf, 0xad, 0xae,			/* Sapphire/Emerald/Granite Rapids */
	0x97, 0x9a, 0xb7, 0xba, 0xbf, 0xaa, 0xac, 0xc5, 0xc6, 0xbd,	/* hybrid client */
};

static bool in(const uint8_t *v, size_t n, uint32_t x)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

unsigned cc_imul_latency(const struct cc_cpu *c, bool *documented)
{
	*documented = false;
	if (c->amd && c->family >= 0x17) {
		*documented = true;
		return 3;
	}
	if (c->intel && c->family == 6) {
		if (in(core2_models, sizeof(core2_models), c->model)) {
			*documented = true;
			return 5;
		}
		*documented = in(big_models, sizeof(big_models), c->model);
	}
	return 3;
}

bool cc_range(const struct cc_cpu *c, uint64_t *lo, uint64_t *hi, const char **src)
{
	uint64_t tsc_mhz = c->tsc_hz / 1000000;

	*lo = *hi = 0;
	*src = NULL;
	if (!tsc_mhz)
		return false;
	if (c->base_mhz && c->max_mhz >= c->base_mhz) {
		*lo = (uint64_t)c->base_mhz * 900 / tsc_mhz;
		*hi = (uint64_t)c->max_mhz * 1100 / tsc_mhz;
		*src = "CPUID 16H base..max over the TSC, +-10 %";
		return true;
	}
	if (c->amd && c->family >= 0x10) {
		*lo = 900;
		*hi = 2000;
		*src = "AMD: the TSC counts at P0, the core at P0..boost";
		return true;
	}
	return false;
}

static uint64_t run(const struct cc_ops *ops, uint64_t n, uint64_t *cyc)
{
	uint64_t c0 = cyc ? ops->cycles_read(ops->ctx) : 0, t0, t1;

	t0 = rdtsc_ordered();
	ops->imul_chain(ops->ctx, n);
	t1 = rdtsc_ordered();
	if (cyc)
		*cyc = ops->cycles_read(ops->ctx) - c0;
	return t1 - t0;
}

uint64_t cc_best_ticks(const struct cc_ops *ops, uint64_t n, uint64_t *cyc)
{
	uint64_t best = UINT64_MAX, best_cyc = 0;
	unsigned stable = 0;

	for (unsigned i = 0; i < CC_MAX_RUNS && stable < CC_STABLE_RUNS; i++) {
		uint64_t c = 0, t = run(ops, n, cyc ? &c : NULL);

		if (!t)
			continue;
		if (best == UINT64_MAX ||
		    (t < best && (best - t) * 1000 > (uint64_t)CC_IMPROVE_PERMILLE * best))
			stable = 0;
		else
			stable++;
		if (t < best)
			best = t, best_cyc = c;
	}
	if (cyc)
		*cyc = best_cyc;
	return best == UINT64_MAX ? 0 : best;
}

uint64_t cc_chain_len(const struct cc_ops *ops, uint64_t tsc_hz)
{
	uint64_t want = tsc_hz / 1000000 * CC_MIN_RUN_US, n = CC_MIN_STEPS;

	while (n < (1ull << 32) && run(ops, n, NULL) < want)
		n *= 2;
	return n;
}

void cc_estimate(const struct cc_ops *ops, const struct cc_cpu *c, struct cc_result *r)
{
	uint64_t n, t, cyc, d;

	*r = (struct cc_result){ .source = "IMUL chain", .plausible = true };
	r->imul_lat = cc_imul_latency(c, &r->imul_lat_documented);
	cc_range(c, &r->lo_x1000, &r->hi_x1000, &r->range_src);
	n = cc_chain_len(ops, c->tsc_hz);
	t = cc_best_ticks(ops, n, NULL);
	r->imul_x1000 = t ? r->imul_lat * n * 1000 / t : 0;
	r->ratio_x1000 = r->imul_x1000;
	if (ops->cycles_open && !ops->cycles_open(ops->ctx, r->why_no_perf,
						  sizeof(r->why_no_perf))) {
		t = cc_best_ticks(ops, n, &cyc);
		if (t && cyc) {
			r->perf_x1000 = cyc * 1000 / t;
			r->ratio_x1000 = r->perf_x1000;
			r->source = "perf cycles";
		} else {
			snprintf(r->why_no_perf, sizeof(r->why_no_perf),
				 "the cycles counter opened but did not count");
		}
	}
	if (r->perf_x1000 && r->imul_x1000) {
		d = r->perf_x1000 > r->imul_x1000 ? r->perf_x1000 - r->imul_x1000 :
						     r->imul_x1000 - r->perf_x1000;
		r->disagree = d * 100 > (uint64_t)CC_AGREE_PCT * r->perf_x1000;
	}
	if (r->hi_x1000)
		r->plausible = r->ratio_x1000 >= r->lo_x1000 && r->ratio_x1000 <= r->hi_x1000;
}

static int x1000(char *b, size_t n, uint64_t v)
{
	return snprintf(b, n, "%llu.%03llu", (unsigned long long)(v / 1000),
			(unsigned long long)(v % 1000));
}

void cc_describe(const struct cc_result *r, char *b, size_t n)
{
	char v[24], i[24], lo[24], hi[24];

	x1000(v, sizeof(v), r->ratio_x1000);
	x1000(i, sizeof(i), r->imul_x1000);
	x1000(lo, sizeof(lo), r->lo_x1000);
	x1000(hi, sizeof(hi), r->hi_x1000);
	if (r->perf_x1000)
		snprintf(b, n, "%s (perf cycles; IMUL chain %s%s)", v, i,
			 r->disagree ? ", disagrees by more than 10 %" : ", agrees");
	else
		snprintf(b, n, "%s (IMUL chain, %u-cycle latency%s; no perf cycles: %s)", v,
			 r->imul_lat, r->imul_lat_documented ? "" : " assumed", r->why_no_perf);
	if (!r->hi_x1000)
		snprintf(b + strlen(b), n - strlen(b), "; no plausible range known (no CPUID 16H)");
	else
		snprintf(b + strlen(b), n - strlen(b), "; %s %s..%s (%s)",
			 r->plausible ? "plausible" : "IMPLAUSIBLE, outside", lo, hi, r->range_src);
}
