/*
 * load_cpus.c: test load_cpus (issue 15): the plain-load kernels load_l1..load_dram run on
 * each application processor `cpus=` selects (default `types`: one CPU of each core type
 * other than the boot CPU's; `all`: every online CPU), each on that CPU: the chain's build and
 * timed step (interrupts off, its own TSC and core counter), then the PEBS step with that
 * CPU's own probe, DS area, buffer, PMU programming and PMI through its own LVTPC, decoded
 * with its core type (loads/kpebs.h kpebs_check_cpu; SDM Vol. 3B 18.4.9, Vol. 2A CPUID 1AH).
 * The boot CPU's runs are the tests load_l1..load_dram. Per CPU a line
 * `# load_cpus: cpu<i> apic=<id> type=<P-core|E-core|-> node=<n> format=<f|-> model=<name>`
 * and `# load_cpus: cpu<i> caches l1d=<size> l2=<size> l3=<size> (<source>)` (that CPU's own
 * caches from CPUID 04H / 8000_001DH read on it, SDM Vol. 2A Table 3-8: its working sets
 * are sized from them),
 * then per level the §3 lines of kernel `load_<lvl>@cpu<i>` and subtests prefixed
 * `cpu<i>_<lvl>_` (docs/output.md §3 "Per-CPU runs"): chain_cycle, chain_placement,
 * step_over_<below> (SKIP where timing is not judged), pebs_source/pebs_overhead/... (SKIP with
 * that CPU's reason where it cannot run PEBS), and cpu<i>_ran when the call failed. One CPU
 * measures at a time (the boot CPU waits in smp_call), so the PMI dispatch state in apic.c
 * and the kload buffer pool, used by one CPU after the other, need no locks.
 */
#include "ktests/tests.h"
#include "apic/apic.h"
#include "kernel/extable.h"
#include "kernel/fmt.h"
#include "kernel/mm.h"
#include "loads/cpus_plan.h"
#include "loads/geometry.h"
#include "loads/kload.h"
#include "loads/kpebs.h"
#include "smp/smp.h"

#define LEVEL_BOUND_MS 30000u	/* one level on one CPU: build, time, PEBS step */

struct cpu_run {
	struct ktest *t;
	unsigned cpu;
	enum load_level level;
	struct pebs_cpu *pc;
	struct kpebs_levels lv;
	uint64_t below_ns_x100;	/* this CPU's result for the level below, 0: none */
	const struct cache_geometry *boot;	/* the boot CPU's (its l1d=/l2=/l3= overrides) */
	struct cache_geometry geom;	/* this CPU's own, read on it */
};

/* On the AP: flush TLB entries of buffers the boot CPU mapped since this CPU last ran. */
static void fresh_tlb(void)
{
	write_cr3(read_cr3());
}

static void ap_probe(void *arg)
{
	struct cpu_run *c = arg;

	fresh_tlb();
	pebs_cpu_init(c->pc);
	geometry_probe_cpu(&c->geom, &cpu, c->boot);
}

static void step_over(struct cpu_run *c, const struct load_run *r, const char *sub)
{
	const char *emu = kload_timing_unjudgeable();
	unsigned m = load_step_margin_pct[c->level];
	char name[48];

	fmt_snprintf(name, sizeof(name), "%sstep_over_%s", sub, load_level_name(c->level - 1));
	if (emu)
		kt_skip_sub(c->t, name, "%s", emu);
	else if (!c->below_ns_x100)
		kt_skip_sub(c->t, name, "%s not measured on this CPU",
			    load_level_name(c->level - 1));
	else
		kt_check(c->t, load_step_ok(c->below_ns_x100, r->ns_x100, m), "%s # %llu.%02llu ns "
			 ">= %u%% of %llu.%02llu ns", name, (unsigned long long)(r->ns_x100 / 100),
			 (unsigned long long)(r->ns_x100 % 100), m,
			 (unsigned long long)(c->below_ns_x100 / 100),
			 (unsigned long long)(c->below_ns_x100 % 100));
}

/* On the AP: one level's kernel, timed and PEBS-measured there. */
static void ap_level(void *arg)
{
	struct cpu_run *c = arg;
	const char *why = kpebs_cpu_unavailable(c->pc), *note;
	struct load_run r = { .kind = CHASE_LOAD, .ps = PS_2M, .stride = 64 };
	char kname[32], sub[32], b[48];
	int rc;

	fresh_tlb();
	cpus_plan_names(c->cpu, c->level, kname, sizeof(kname), sub, sizeof(sub));
	r.name = kname;
	r.ws = kload_ws(c->level, &note);
	rc = load_run(&r);
	if (rc == -1) {
		fmt_snprintf(b, sizeof(b), "%schain_cycle", sub);
		kt_skip_sub(c->t, b, "%s", r.why);
		return;
	}
	if (*note)
		kt_info(c->t, "%s: working set %llu KiB%s", kname, (unsigned long long)(r.ws >> 10),
			note);
	if (rc == 0) {
		load_run_print(c->t, &r);
		if (why) {
			fmt_snprintf(b, sizeof(b), "%spebs_source", sub);
			kt_skip_sub(c->t, b, "%s", why);
			fmt_snprintf(b, sizeof(b), "%spebs_overhead", sub);
			kt_skip_sub(c->t, b, "%s", why);
		} else {
			kpebs_check_cpu(c->t, &r, (enum load_target)c->level, c->pc, &c->lv, sub);
		}
	}
	kt_check(c->t, r.walk_len == r.chain.nodes, "%schain_cycle", sub);
	kt_check(c->t, !r.chain.near_left && !r.chain.page_left, "%schain_placement", sub);
	if (rc)
		return;
	if (c->level > LOAD_L1)
		step_over(c, &r, sub);
	c->below_ns_x100 = r.ns_x100;
}

/* 0: the call finished; else a failed cpu<i>_ran subtest was reported. */
static int call(struct cpu_run *c, smp_fn fn)
{
	int rc = smp_call(c->cpu, fn, c, LEVEL_BOUND_MS);

	if (rc == SMP_CALL_DONE)
		return 0;
	kt_check(c->t, false, "cpu%u_ran # %s", c->cpu,
		 rc == SMP_CALL_TIMEOUT ? "no answer within the bound: CPU left alone" :
		 rc == SMP_CALL_NOT_ONLINE ? "not online" : "exception on that CPU");
	return -1;
}

static void run_cpu(struct ktest *t, unsigned i, struct pebs_cpu *pc)
{
	struct cpu_run c = { .t = t, .cpu = i, .pc = pc, .boot = kload_geometry() };
	const struct percpu *p = smp_cpu(i);
	const struct pebs_model *mod;
	char fmtv[8] = "-", caches[64];

	if (call(&c, ap_probe))
		return;
	mod = pebs_model_lookup(pc->caps.family, pc->caps.model, pebs_cpu_core(pc));
	if (!kpebs_cpu_unavailable(pc))
		fmt_snprintf(fmtv, sizeof(fmtv), "%u", pc->caps.pebs_fmt);
	kt_info(t, "load_cpus: cpu%u apic=%u type=%s node=%u format=%s model=%s", i, p->apic_id,
		cpus_plan_type(p->core_type), p->node, fmtv, mod ? mod->name : "-");
	kt_info(t, "load_cpus: cpu%u caches %s (%s)", i,
		geometry_sizes_str(&c.geom, caches, sizeof(caches)), geometry_src_name(c.geom.l2.src));
	kload_geometry_use(&c.geom);	/* working sets and line size from this CPU's caches */
	for (c.level = LOAD_L1; c.level <= LOAD_DRAM; c.level++)
		if (call(&c, ap_level))
			break;
	kload_geometry_use(NULL);
}

enum kt_result test_load_cpus(struct ktest *t)
{
	struct cpus_plan_in in = { .online = smp_online_count(), .why_none = smp_why_none(),
				   .mode = smp_cpus()->mode };
	struct pebs_cpu *pc;
	char why[160];

	for (unsigned i = 1; i < smp_cpu_count(); i++)
		in.aps += smp_cpu(i)->state == CPU_ONLINE && smp_selected(i);
	if (cpus_plan_skip(&in, why, sizeof(why)))
		return kt_skip(t, "%s", why);
	kload_test_begin();
	pc = kalloc(sizeof(*pc), 64);	/* ~30 KiB, reused CPU after CPU */
	if (!pc)
		return kt_skip(t, "out of memory for the per-CPU PEBS state");
	for (unsigned i = 1; i < smp_cpu_count(); i++) {
		if (smp_cpu(i)->state != CPU_ONLINE || !smp_selected(i))
			continue;
		/* the runner's watchdog, afresh for each CPU: cpus=all on many CPUs is not cut
		 * short, and a CPU's four bounded calls (4 x LEVEL_BOUND_MS) fit its budget */
		apic_watchdog_arm(t->desc->timeout_ms);
		run_cpu(t, i, pc);
	}
	return kt_verdict(t);
}
