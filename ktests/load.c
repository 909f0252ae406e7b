/*
 * load.c: tests load_l1, load_l2, load_l3, load_dram: a pointer chase sized for each level
 * (loads/plan.c from CPUID, docs/latency-method.md §9), timed with interrupts off. Subtests:
 *   chain_cycle      the chain is one cycle through every node (walked in the kernel)
 *   chain_placement  no consecutive neighbouring lines / same-page pairs (chain.h rules)
 *   step_over_<Lx>   ns/load at least load_step_margin_pct of the level below (plan.h
 *                    justifies the margins); SKIP under software emulation, or when
 *                    something moved behind the test (kernel/trust.h). Where the two levels
 *                    time alike (loads/alike.h) it names the likely cause: the buffer's memory
 *                    type, CR0.CD, or the platform (SKIP there)
 *   l1_core_cycles   (load_l1) 3..7 core cycles/load (published 4-5); needs a core counter
 *   pebs_source      the PEBS step (loads/kload.h), SKIP with the reason until it can run
 * The PEBS step runs right after the timing, while the chain is still in its buffer.
 */
#include "ktests/tests.h"
#include "kernel/fmt.h"
#include "loads/alike.h"
#include "loads/kload.h"
#include "loads/kprefetch.h"

#define X100(v) (unsigned long long)((v) / 100), (unsigned long long)((v) % 100)

static void step_verdict(struct ktest *t, const struct load_run *r, enum load_level l)
{
	const char *emu = kload_timing_unjudgeable();
	const struct load_run *below;
	struct load_run tmp;
	const char *note;
	unsigned m = load_step_margin_pct[l];
	char name[24];

	fmt_snprintf(name, sizeof(name), "step_over_%s", load_level_name(l - 1));
	if (emu) {
		kt_skip_sub(t, name, "%s", emu);
		return;
	}
	below = kload_level_last(l - 1);
	if (!below) {
		if (kload_level_run(&tmp, l - 1, &note)) {
			kt_skip_sub(t, name, "%s not measured: %s", load_level_name(l - 1), tmp.why);
			return;
		}
		below = kload_level_last(l - 1);
	}
	if (!load_step_ok(below->ns_x100, r->ns_x100, m) &&
	    levels_alike(below->ns_x100, r->ns_x100)) {
		char cause[240];

		if (kload_alike_cause(r->base, cause, sizeof(cause)))
			kt_skip_sub(t, name, "%s times like %s (%llu.%02llu ns): %s", r->name,
				    load_level_name(l - 1), X100(r->ns_x100), cause);
		else
			kt_check(t, false, "%s # %llu.%02llu ns, alike: %s", name,
				 X100(r->ns_x100), cause);
		return;
	}
	kt_check(t, load_step_ok(below->ns_x100, r->ns_x100, m),
		 "%s # %llu.%02llu ns >= %u%% of %llu.%02llu ns", name, X100(r->ns_x100), m,
		 X100(below->ns_x100));
}

static void l1_cycles(struct ktest *t, const struct load_run *r)
{
	const char *emu = kload_timing_unjudgeable();

	if (emu)
		kt_skip_sub(t, "l1_core_cycles", "%s", emu);
	else if (!r->res.have_core)
		kt_skip_sub(t, "l1_core_cycles", "no core-cycle counter registered (TSC only)");
	else
		kt_check(t, r->res.core_med_x100 >= 300 && r->res.core_med_x100 <= 700,
			 "l1_core_cycles # %llu.%02llu in 3..7", X100(r->res.core_med_x100));
}

static bool boot_cpu_only(unsigned i)
{
	(void)i;
	return false;
}

static enum kt_result level_run(struct ktest *t, enum load_level l)
{
	struct load_run r;
	const char *note;
	char ws[24];
	int rc;

	rc = kload_level_run(&r, l, &note);
	if (rc == -1)
		return kt_skip(t, "%s", r.why);
	if (*note && log_full())	/* the ws= of its time line shows the size */
		kt_info(t, "%s: working set %s%s", r.name, geometry_size_str(r.ws, ws, sizeof(ws)),
			note);
	if (rc == 0) {
		load_run_print(t, &r);
		kload_pebs_step(t, &r, (enum load_target)l);
	}
	kload_check_chain(t, &r);
	if (rc)
		return kt_verdict(t);
	if (l == LOAD_L1)
		l1_cycles(t, &r);
	else
		step_verdict(t, &r, l);
	return kt_verdict(t);
}

/* One level's kernel; with prefetch=off|on the boot CPU's prefetchers are set around it and
 * restored after (loads/kprefetch.h: idle latency as Intel MLC measures it with them off). */
static enum kt_result level_test(struct ktest *t, enum load_level l)
{
	enum kt_result v;

	kload_test_begin();
	kload_print_geometry(t);
	kprefetch_begin(t, t->desc->name, boot_cpu_only);
	v = level_run(t, l);
	kprefetch_end(t, t->desc->name);
	return v == KT_SKIP ? v : kt_verdict(t);
}

enum kt_result test_load_l1(struct ktest *t)
{
	return level_test(t, LOAD_L1);
}

enum kt_result test_load_l2(struct ktest *t)
{
	return level_test(t, LOAD_L2);
}

enum kt_result test_load_l3(struct ktest *t)
{
	return level_test(t, LOAD_L3);
}

enum kt_result test_load_dram(struct ktest *t)
{
	return level_test(t, LOAD_DRAM);
}
