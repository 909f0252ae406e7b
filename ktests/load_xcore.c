/*
 * load_xcore.c: tests load_snoop and load_hitm (loads/xcore.h): the boot CPU times loads of
 * lines a helper CPU read last (clean snoop hit in another core) or wrote last (HITM). Non-
 * PEBS subtests, which run wherever there are two CPUs (software emulation included):
 *   handshake_every_line  the helper answered every line within its bound
 *   values_from_helper    each load returned what the line's last writer left (HITM: the
 *                         helper's value; snoop: the boot CPU's, and the helper read it too)
 *   xcore_slower_than_l1  a cross-core load costs >= 3x a re-load of the same line (an L1
 *                         hit); SKIP where timing is not judged
 * then the PEBS step (loads/xcore_pebs.c; SKIP with the reason where PEBS cannot run), after
 * a line naming the data-source codes each model table gives such loads (SDM Vol. 3B table
 * 18-24 codes and the XSNP_HIT/XSNP_HITM rows of the later tables, pebs/datasrc_tables.c).
 * One CPU: the test SKIPs with the reason.
 */
#include "ktests/tests.h"
#include "kernel/tsc.h"
#include "loads/kload.h"
#include "loads/xcore.h"
#include "smp/smp.h"

#define BRIEF_LOADS 128u

static unsigned long long ns_x100(uint64_t ticks)
{
	return tsc_hz ? (unsigned long long)(ticks * 100000000000ull / tsc_hz) : 0;
}

static void print_run(struct ktest *t, const struct xcore_run *r)
{
	const struct percpu *h = smp_cpu(r->helper);
	unsigned long long m = ns_x100(r->tsc_med), mn = ns_x100(r->tsc_min);
	unsigned long long a = ns_x100(r->tsc_mean), l = ns_x100(r->l1_med);

	kt_info(t, "%s: helper cpu%u (APIC id %u, package %u core %u), %u loads timed",
		r->name, r->helper, h->apic_id, h->topo.package, h->topo.core, r->loads);
	kt_info(t, "%s time: per load median %llu.%02llu ns (%llu TSC), min %llu.%02llu ns "
		"(%llu TSC), mean %llu.%02llu ns; core cycles %s%llu; L1 re-load median "
		"%llu.%02llu ns (%llu TSC); timer overhead %llu TSC removed", r->name,
		m / 100, m % 100, (unsigned long long)r->tsc_med, mn / 100, mn % 100,
		(unsigned long long)r->tsc_min, a / 100, a % 100,
		r->core_med ? "median " : "none (TSC only) ",
		(unsigned long long)r->core_med, l / 100, l % 100,
		(unsigned long long)r->l1_med, (unsigned long long)r->overhead);
}

static enum kt_result xcore_test(struct ktest *t, const char *name, enum xcore_kind kind)
{
	const struct timing_plan *tp = kload_timing();
	const char *emu = kload_timing_unjudgeable();
	struct xcore_run r = { .name = name, .kind = kind };
	char codes[200];
	int h = xcore_pick_helper(), rc;

	if (smp_online_count() < 2)
		return kt_skip(t, "one CPU online: a cross-core load needs a helper CPU (%s)",
			       smp_why_none() ? smp_why_none() : "the MADT lists one processor");
	if (h < 0)
		return kt_skip(t, "no application processor online to act as the helper");
	r.helper = (unsigned)h;
	r.want = tp->brief ? BRIEF_LOADS : XCORE_MAX_LOADS;
	r.budget_ms = tp->budget_ms;
	rc = xcore_run(&r);
	if (r.loads)
		print_run(t, &r);
	if (rc)
		kt_info(t, "%s: %s", name, r.why);
	kt_check(t, rc == 0, "handshake_every_line");
	kt_check(t, r.loads && r.bad_values == 0 && r.helper_sum_ok, "values_from_helper # %u "
		 "of %u loads wrong%s", r.bad_values, r.loads,
		 r.helper_sum_ok ? "" : ", helper's read sum wrong");
	if (emu)
		kt_skip_sub(t, "xcore_slower_than_l1", "%s", emu);
	else
		kt_check(t, r.loads && r.tsc_med >= 3 * r.l1_med, "xcore_slower_than_l1 # median "
			 "%llu TSC vs L1 re-load %llu TSC", (unsigned long long)r.tsc_med,
			 (unsigned long long)r.l1_med);
	xcore_expected_text(kind, codes, sizeof(codes));
	kt_detail(t, "%s: expected PEBS data sources (local cache, snoop %s) per table: %s", name,
		  kind == XCORE_SNOOP ? "Hit or Fwd" : "HitM", codes);
	if (rc == 0)
		xcore_pebs_step(t, &r);
	else
		kt_skip_sub(t, "pebs_source", "the kernel did not run: %s", r.why);
	return kt_verdict(t);
}

enum kt_result test_load_snoop(struct ktest *t)
{
	return xcore_test(t, "load_snoop", XCORE_SNOOP);
}

enum kt_result test_load_hitm(struct ktest *t)
{
	return xcore_test(t, "load_hitm", XCORE_HITM);
}
