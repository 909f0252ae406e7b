/*
 * pebs_cost.c: the cost of PEBS sampling from an unarmed and an armed run of the same chunks
 * (see pebs_cost.h). Integer arithmetic only, 64-bit (the kernel has no floating point and no
 * libgcc for 128-bit division): rates are ticks per step x 10^6, products ordered to stay below
 * 2^64 for runs up to ~4 hours of TSC ticks.
 */
#include "loads/pebs_cost.h"

uint64_t pebs_cost_default_sav(uint64_t ns_x100)
{
	uint64_t sav = ns_x100 ? (uint64_t)PEBS_COST_ASSIST_NS * 100 * 100 / ns_x100
			       : PEBS_COST_SAV_MAX;

	if (sav < PEBS_COST_SAV_MIN)
		sav = PEBS_COST_SAV_MIN;
	if (sav > PEBS_COST_SAV_MAX)
		sav = PEBS_COST_SAV_MAX;
	return sav | 1;
}

bool pebs_cost_chunk(void *run)
{
	struct pebs_cost_run *r = run;
	uint64_t s0 = r->step_count ? *r->step_count : 0;
	uint64_t t0 = r->clock(r->cctx), t1;
	bool more = r->work(r->ctx);

	t1 = r->clock(r->cctx);
	r->ticks += t1 - t0;
	r->steps += r->step_count ? *r->step_count - s0 : r->steps_per_chunk;
	r->chunks++;
	return more;
}

void pebs_cost_baseline(struct pebs_cost_run *r, unsigned chunks)
{
	for (unsigned i = 0; i < chunks; i++)
		if (!pebs_cost_chunk(r))
			break;
}

void pebs_cost_set(struct pebs_cost *c, const struct pebs_cost_run *base,
		   const struct pebs_cost_run *armed, uint64_t records, uint64_t pmis,
		   bool pmis_known, uint64_t hz)
{
	c->base_ticks = base->ticks;
	c->base_steps = base->steps;
	c->armed_ticks = armed->ticks;
	c->armed_steps = armed->steps;
	c->records = records;
	c->pmis = pmis;
	c->pmis_known = pmis_known;
	c->hz = hz;
}

bool pebs_cost_valid(const struct pebs_cost *c)
{
	return c && c->base_steps && c->armed_steps && c->base_ticks && c->hz;
}

/* Clock ticks per step x 10^6 (ticks < 2^44 and steps >= 1 keep this inside 64 bits). */
static uint64_t rate(uint64_t ticks, uint64_t steps)
{
	return ticks * 1000000 / steps;
}

static uint64_t ns_x100(uint64_t ticks, uint64_t steps, uint64_t hz)
{
	/* rate x 10^6 -> ns x 100: * 10^9 / hz / 10^4, split to stay inside 64 bits */
	return rate(ticks, steps) * 1000 / (hz / 100000 ? hz / 100000 : 1) / 1000;
}

uint64_t pebs_cost_base_ns_x100(const struct pebs_cost *c)
{
	return pebs_cost_valid(c) ? ns_x100(c->base_ticks, c->base_steps, c->hz) : 0;
}

uint64_t pebs_cost_armed_ns_x100(const struct pebs_cost *c)
{
	return pebs_cost_valid(c) ? ns_x100(c->armed_ticks, c->armed_steps, c->hz) : 0;
}

int64_t pebs_cost_overhead_x100(const struct pebs_cost *c)
{
	uint64_t a, b;

	if (!pebs_cost_valid(c))
		return 0;
	a = rate(c->armed_ticks, c->armed_steps);
	b = rate(c->base_ticks, c->base_steps);
	if (!b)
		return 0;
	return (int64_t)(a * 10000 / b) - 10000;
}

/* Ticks the armed run spent beyond the unarmed rate (0 if none). */
static uint64_t extra_ticks(const struct pebs_cost *c)
{
	uint64_t expect = rate(c->base_ticks, c->base_steps) * c->armed_steps / 1000000;

	return c->armed_ticks > expect ? c->armed_ticks - expect : 0;
}

static uint64_t per(const struct pebs_cost *c, uint64_t n)
{
	if (!pebs_cost_valid(c) || !n)
		return 0;
	return extra_ticks(c) * 1000000 / n * 1000 / c->hz;
}

uint64_t pebs_cost_per_record_ns(const struct pebs_cost *c)
{
	return per(c, c->records);
}

uint64_t pebs_cost_per_pmi_ns(const struct pebs_cost *c)
{
	return c->pmis_known ? per(c, c->pmis) : 0;
}

uint64_t pebs_cost_retune_sav(uint64_t sav, int64_t overhead_x100)
{
	uint64_t s;

	if (overhead_x100 <= PEBS_COST_AIM_X100)
		return sav | 1;
	s = sav * (uint64_t)overhead_x100 / PEBS_COST_AIM_X100;
	if (s > PEBS_COST_SAV_MAX)
		s = PEBS_COST_SAV_MAX;
	return s | 1;
}

int pebs_cost_measure(struct pebs_cost *c, const struct pebs_cost_run *base,
		      struct pebs_cost_run *run, uint64_t sav, bool may_retune, bool pmis_known,
		      uint64_t hz, pebs_cost_armed_fn armed, void *ctx)
{
	uint64_t rec = 0, pmis = 0, used = sav;
	int64_t o;

	*c = (struct pebs_cost){ 0 };
	run->ticks = run->steps = run->chunks = 0;
	if (armed(ctx, sav, &rec, &pmis, &used))
		return -1;
	pebs_cost_set(c, base, run, rec, pmis, pmis_known, hz);
	o = pebs_cost_overhead_x100(c);
	if (!may_retune || !pebs_cost_valid(c) || o <= PEBS_COST_LIMIT_X100 ||
	    pebs_cost_retune_sav(used, o) == (used | 1))
		return 0;
	run->ticks = run->steps = run->chunks = 0;
	if (armed(ctx, pebs_cost_retune_sav(used, o), &rec, &pmis, &used))
		return -1;
	pebs_cost_set(c, base, run, rec, pmis, pmis_known, hz);
	c->sav_first = sav;
	c->overhead_first_x100 = o;
	return 0;
}
