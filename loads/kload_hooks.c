/*
 * kload_hooks.c: what the PMU side registers with the load kernels (see kload.h): the core
 * clock the timed chase reads next to the TSC (pebs/cycles.c: fixed counter 1 or a GP
 * counter), and the PEBS step: its check (loads/kpebs.c on Intel, loads/kibs.c on AMD) and,
 * optionally, its own reason for not running; every load kernel then runs the step or SKIPs
 * pebs_source, pebs_overhead and pebs_remote with that exact reason.
 */
#include "loads/kload.h"

static uint64_t (*core_read)(void *);
static void *core_ctx;
static const char *core_name;
static kload_pebs_fn pebs_check;
static const char *(*pebs_unavailable)(void);

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

void kload_set_pebs_check(kload_pebs_fn fn)
{
	pebs_check = fn;
}

void kload_set_pebs_unavailable(const char *(*fn)(void))
{
	pebs_unavailable = fn;
}

const char *kload_pebs_unavailable(void)
{
	const char *why = pebs_unavailable ? pebs_unavailable() :
			  ktest_need_reason(NEED_PEBS | NEED_LOAD_LATENCY);

	if (why)
		return why;
	if (!pebs_check)
		return "PEBS load-latency check not registered (PMU driver/decoder not joined yet)";
	return NULL;
}

void kload_pebs_step(struct ktest *t, const struct load_run *r, enum load_target target)
{
	const char *why = kload_pebs_unavailable();

	if (why) {
		kt_skip_sub(t, "pebs_source", "%s", why);
		kt_skip_sub(t, "pebs_overhead", "%s", why);	/* PEBS did not run: no cost */
		if (target == TGT_REMOTE)
			kt_skip_sub(t, "pebs_remote", "%s", why);
		return;
	}
	pebs_check(t, r, target);
}
