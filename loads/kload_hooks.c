/*
 * kload_hooks.c: what the PMU side registers with the load kernels (see kload.h): the core
 * clock the timed chase reads next to the TSC (pebs/cycles.c: fixed counter 1 or a GP
 * counter), and the sampler (loads/sampler.h: loads/kpebs.c on Intel, loads/kibs.c on AMD);
 * every load kernel then runs the sampling step through it (loads/kstep.c) or SKIPs
 * <p>_source, <p>_overhead and <p>_remote (p: pebs or ibs) with the sampler's exact reason.
 */
#include "loads/kload.h"
#include "loads/sampler.h"
#include "kernel/fmt.h"

static uint64_t (*core_read)(void *);
static void *core_ctx;
static const char *core_name;
static const struct sampler *sampler;

void kload_set_core_clock(uint64_t (*read)(void *ctx), void *ctx, const char *name)
{
	core_read = read;
	core_ctx = ctx;
	core_name = name ? name : "core clock";
}

uint64_t (*kload_core_clock(void **ctx, const char **name))(void *ctx)
{
	*ctx = core_ctx;
	*name = core_name;
	return core_read;
}

void kload_set_sampler(const struct sampler *s)
{
	sampler = s;
}

const struct sampler *kload_sampler(void)
{
	return sampler;
}

const char *kload_pebs_unavailable(void)
{
	if (!sampler)
		return "no sampler registered (neither the PEBS nor the IBS step joined the run)";
	return sampler->unavailable(sampler->self);
}

int kload_sample_agg(const struct load_run *r, enum load_target target,
		     const struct pebs_agg **out, const char **why)
{
	*out = NULL;
	*why = kload_pebs_unavailable();
	return *why ? -1 : kstep_sample_agg(r, target, sampler, out, why);
}

void kload_pebs_step(struct ktest *t, const struct load_run *r, enum load_target target)
{
	const char *why = kload_pebs_unavailable();

	if (why) {	/* named after the sampler: pebs_* (Intel), ibs_* (AMD; docs/output.md) */
		const char *p = sampler && sampler->prefix ? sampler->prefix : "pebs";
		char n[24];

		fmt_snprintf(n, sizeof(n), "%s_source", p);
		kt_skip_sub(t, n, "%s", why);
		fmt_snprintf(n, sizeof(n), "%s_overhead", p);	/* it did not run: no cost */
		kt_skip_sub(t, n, "%s", why);
		fmt_snprintf(n, sizeof(n), "%s_remote", p);
		if (target == TGT_REMOTE)
			kt_skip_sub(t, n, "%s", why);
		return;
	}
	kstep_sample(t, r, target, sampler);
}
