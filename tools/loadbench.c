/*
 * loadbench.c: the load kernels as a Linux program, for comparing bare metal with Linux on
 * one box and for benchmarking the kernels here. Same chain builder, kernels and sizing as
 * the bare-metal tests (loads/), 2 MiB pages where Linux gives them.
 *
 *   loadbench [--sizes 16K,256K,8M,256M] [--json] [--ppo N] [--reps N] [--rounds N]
 *             [--budget-ms N] [--seed N] [--no-huge]
 *   loadbench --pebs [--seed N] [--no-huge]     (Linux perf cross-check: loadbench_pebs.c)
 *   loadbench --loaded [--pebs] [--injectors N] [--mix read|rw]   (loaded latency:
 *             loadbench_loaded.c)
 *   loadbench --bandwidth [--threads N]         (GB/s per level and mode: loadbench_bw.c)
 *
 * One row per working-set size: size_bytes, ns_per_load, tsc_per_load (JSON Lines under
 * --json; comments then go to stderr). No --sizes: the default sweep, 16 KiB to 4x L3 at
 * --ppo points per octave. Method: docs/latency-method.md §9.
 */
#include "kernel/cmdline.h"
#include "kernel/cpu.h"
#include "kernel/ktap_detail.h"
#include "kernel/tsc.h"
#include "loads/chain.h"
#include "loads/chase.h"
#include "loads/geometry.h"
#include "loads/plan.h"
#include "loads/steady.h"
#include "tools/coreclk.h"
#include "tools/loadbench_args.h"
#include "tools/loadbench_bw.h"
#include "tools/loadbench_host.h"
#include "tools/loadbench_loaded.h"
#include "tools/loadbench_pebs.h"
#include "tools/loadbench_print.h"
#include "tools/lb_sweep.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define REWARM_STEPS (32u << 10)	/* re-warm laps up to 2 MiB working sets (< 1 ms each) */
#define WARM_BOUND_MS 50u		/* warm-up bound per size and round (loads/steady.h) */


static uint64_t align_2m(uint64_t x)
{
	return (x + (2ull << 20) - 1) & ~((2ull << 20) - 1);
}

/* Every chain in its own 2 MiB-aligned region, built once. */
static int build_all(const struct opts *o, struct point *pt, uint8_t *base, uint32_t *scratch)
{
	uint64_t off = 0;

	for (unsigned i = 0; i < o->nsizes; i++) {
		struct chain_params p = { .bytes = o->sizes[i], .stride = 64, .line = 64,
					  .page = 4096, .seed = o->seed + i, .vary_slot = true };

		if (chain_build(&pt[i].c, base + off, &p, scratch))
			return -1;
		off += align_2m(o->sizes[i]);
	}
	return 0;
}

/* The sweep's state: what the measurement has learnt about the caches (tools/lb_sweep.h),
 * and the progress line on a terminal. */
static struct lb_warm warm_state;
static uint64_t past_x100;		/* when the mark moved: that size's TSC/load x100 */
static bool progress;
static unsigned done_steps, all_steps;
static uint64_t t_start;

static void show_progress(const struct opts *o, uint64_t size, unsigned rd, uint64_t hz)
{
	char b[24];

	if (!progress)
		return;
	fprintf(stderr, "\r\033[Kloadbench: %u/%u measurements, round %u/%u, size %s, %llu s",
		++done_steps, all_steps, rd + 1, o->rounds, lb_size_str(size, b, sizeof(b)),
		(unsigned long long)((rdtsc_ordered() - t_start) / hz));
	fflush(stderr);
}

/* The reference the "past every cache" rule compares with (tools/lb_sweep.h): a 16 KiB
 * chain, L1 on every x86 core, measured once before the sweep (a few ms). */
static int l1_probe(const struct opts *o, uint64_t hz, uint32_t *scratch)
{
	static uint8_t mem[16 << 10] __attribute__((aligned(4096)));
	struct chain_params p = { .bytes = sizeof(mem), .stride = 64, .line = 64, .page = 4096,
				  .seed = o->seed, .vary_slot = true };
	struct chase_cfg cfg = { .kind = CHASE_LOAD, .reps = 5, .budget_ticks = hz / 1000 * 2,
				 .min_steps = 2 * CHASE_UNROLL, .rewarm_steps = REWARM_STEPS };
	struct chase_result r;
	struct chain c;

	if (chain_build(&c, mem, &p, scratch) || chase_measure(&c, &cfg, &r))
		return -1;
	lb_warm_note(&warm_state, sizeof(mem), c.nodes, &r);
	return 0;
}

/* One size, one round: warmed until steady (loads/steady.h, tools/lb_sweep.h), then the
 * fastest of the reps. */
static int measure_one(const struct opts *o, struct point *pt, unsigned rd, uint64_t hz,
		       uint64_t size)
{
	struct chase_cfg cfg = { .kind = CHASE_LOAD, .reps = o->reps,
				 .budget_ticks = hz / 1000 * o->budget_ms / o->rounds,
				 .min_steps = 2 * CHASE_UNROLL, .rewarm_steps = REWARM_STEPS,
				 .warm_max_ticks = hz / 1000 * WARM_BOUND_MS };
	struct chase_result r;

	show_progress(o, size, rd, hz);
	lb_warm_cfg(&warm_state, size, &cfg);
	if (chase_measure(&pt->c, &cfg, &r))
		return -1;
	if (lb_warm_note(&warm_state, size, pt->c.nodes, &r))
		past_x100 = r.tsc_min_x100;
	pt->round_x100[rd] = r.tsc_min_x100;
	pt->steps += r.steps_per_rep * r.reps;
	pt->warm_bound += r.warm_bound;
	pt->warm_ticks += r.warm_ticks;
	return 0;
}

static void summarise(const struct opts *o, struct point *pt)
{
	uint64_t v[MAX_ROUNDS];

	memcpy(v, pt->round_x100, sizeof(v));
	pt->med_x100 = chase_median(v, o->rounds);
	pt->min_x100 = v[0];
	pt->max_x100 = v[o->rounds - 1];
	pt->noisy = steady_noisy(pt->min_x100, pt->max_x100, pt->med_x100);
}

/* Rounds over all sizes (ascending, then descending, ...): a burst of noise from other
 * tenants hits one round of a size, not all its repetitions. A size whose rounds still
 * spread beyond STEADY_SPREAD_PCT is measured again (all its rounds, up to STEADY_REMEASURE
 * times) and keeps the noisy mark if it stays so. */
static int measure_all(const struct opts *o, struct point *pt, uint64_t hz)
{
	all_steps = o->rounds * o->nsizes;
	for (unsigned rd = 0; rd < o->rounds; rd++) {
		for (unsigned k = 0; k < o->nsizes; k++) {
			unsigned i = rd % 2 ? o->nsizes - 1 - k : k;

			if (measure_one(o, &pt[i], rd, hz, o->sizes[i]))
				return -1;
		}
	}
	for (unsigned i = 0; i < o->nsizes; i++) {
		summarise(o, &pt[i]);
		while (pt[i].noisy && pt[i].remeasured < STEADY_REMEASURE) {
			pt[i].remeasured++;
			pt[i].warm_bound = 0;
			all_steps += o->rounds;
			for (unsigned rd = 0; rd < o->rounds; rd++)
				if (measure_one(o, &pt[i], rd, hz, o->sizes[i]))
					return -1;
			summarise(o, &pt[i]);
		}
	}
	return 0;
}


int main(int argc, char **argv)
{
	struct opts o = { .ppo = 4, .reps = 7, .rounds = 5, .budget_ms = 40, .seed = 1, .huge = true,
			  .max_mem = LB_MEM_CAP };
	static struct point pt[MAX_SIZES];
	struct cache_geometry g;
	struct lb_buf buf;
	uint64_t hz, cpt, total = 0, max = 0, t_all, t_build, warm = 0;
	unsigned remeasured = 0;
	char capped[320] = "";
	struct cc_result cc;
	char ccline[320];
	uint32_t *scratch;
	FILE *info;

	lb_console_init();
	if (lb_parse_args(argc, argv, &o)) {
		lb_usage(stderr);
		return 2;
	}
	log_set_full(true);	/* a host tool's log has no budget: every chain line (§6) */
	if (o.loaded)
		return lb_loaded_main(&o, argc, argv);
	if (o.pebs)
		return lb_pebs_main(&o, argc, argv);
	if (o.bandwidth)
		return lb_bw_main(&o);
	info = o.json ? stderr : stdout;
	lb_console = info;
	cpu_probe(&cpu);
	geometry_probe(&g, &cpu);
	if (!o.nsizes)
		o.nsizes = lb_default_sizes(g.l3.size, o.ppo, o.max_mem, o.sizes, MAX_SIZES, capped,
					    sizeof(capped));
	for (unsigned i = 0; i < o.nsizes; i++) {
		total += align_2m(o.sizes[i]);
		max = o.sizes[i] > max ? o.sizes[i] : max;
	}
	if (lb_resident_bytes(o.sizes, o.nsizes) > o.max_mem) {
		char a[24], b[24];

		fprintf(stderr, "loadbench: these sizes keep %s resident (every chain at once, so "
			"the rounds can interleave), over the cap of %s: measure fewer or smaller "
			"sizes, or raise it with --max-mem\n",
			lb_size_str(lb_resident_bytes(o.sizes, o.nsizes), a, sizeof(a)),
			lb_size_str(o.max_mem, b, sizeof(b)));
		return 2;
	}

	fprintf(info, "# loadbench: %s\n", cpu.brand[0] ? cpu.brand : cpu.vendor_str);
	geometry_print(&g);
	if (capped[0])
		fprintf(info, "# memory cap: %s\n", capped);
	scratch = malloc(chain_scratch_bytes(&(struct chain_params){ .bytes = max > (16 << 10) ? max : 16 << 10, .stride = 64 }));
	if (!scratch || lb_buf_map(&buf, total, o.huge)) {
		fprintf(stderr, "loadbench: cannot map %llu bytes\n", (unsigned long long)total);
		return 1;
	}
	lb_pin_cpu();
	hz = lb_tsc_hz(50);
	lb_core_per_tsc(&cpu, hz, &cc);
	cpt = cc.ratio_x1000;
	cc_describe(&cc, ccline, sizeof(ccline));
	fprintf(info, "# pages: %s\n", buf.pages);
	fprintf(info, "# tsc: %llu kHz (vs CLOCK_MONOTONIC); core/tsc %s\n",
		(unsigned long long)(hz / 1000), ccline);
	fprintf(info, "# method: random cyclic chain over every 64 B line, seed %llu+i; per size and "
		"round: laps until two successive laps agree within %u%% (>= 2 laps of >= %u loads, "
		"16K-load laps past every cache as measured: from the last of %u sizes in a row "
		"that stayed >= %ux a 16K chain's loads when warmed; bound %u laps (%u past every "
		"cache) or %u ms: warm-bound), a re-warm lap before "
		"each rep up to 2 MiB, the fastest of %u reps (preemption only adds time); %u "
		"interleaved rounds, median of those; spread > %u%%: re-measured up to %u times, "
		"then marked noisy; %u ms timed per size; interrupts not controlled (user space)\n",
		(unsigned long long)o.seed, STEADY_TOL_PCT, STEADY_MIN_UNIT, LB_PAST_CONFIRM,
		LB_PAST_X, STEADY_MAX_LAPS, STEADY_PAST_LLC_LAPS, WARM_BOUND_MS, o.reps, o.rounds,
		STEADY_SPREAD_PCT, STEADY_REMEASURE, o.budget_ms);

	t_build = rdtsc_ordered();
	if (build_all(&o, pt, buf.base, scratch)) {
		fprintf(stderr, "loadbench: cannot build a chain (size too small?)\n");
		return 1;
	}
	t_all = rdtsc_ordered();
	t_build = t_all - t_build;
	if (l1_probe(&o, hz, scratch)) {
		fprintf(stderr, "loadbench: the 16 KiB reference chain failed\n");
		return 1;
	}
	progress = isatty(2);
	t_start = t_all;
	if (measure_all(&o, pt, hz)) {
		fprintf(stderr, "loadbench: measurement failed\n");
		return 1;
	}
	t_all = rdtsc_ordered() - t_all;
	if (progress)
		fprintf(stderr, "\r\033[K");
	if (warm_state.past) {
		char a[24], b[24], c[24];

		fprintf(info, "# warm-up: past every cache from %s as measured (warmed, still %llux "
			"the %s chain's loads, %u times in a row): short warm-ups from there; "
			"CPUID's L3: %s\n", lb_size_str(warm_state.past, a, sizeof(a)),
			(unsigned long long)(past_x100 / (warm_state.l1_x100 ? warm_state.l1_x100 : 1)),
			geometry_size_str(warm_state.l1_size, b, sizeof(b)), LB_PAST_CONFIRM,
			geometry_size_str(g.l3.size, c, sizeof(c)));
	} else {
		fprintf(info, "# warm-up: no size measured past every cache: full laps everywhere\n");
	}
	if (!o.json)
		fprintf(info, "# %12s %12s %12s %10s %10s %10s %8s\n", "size_bytes", "ns_per_load",
			"tsc_per_load", "cyc(est)", "tsc_min", "tsc_max", "spread");
	for (unsigned i = 0; i < o.nsizes; i++)
		lb_print_point(&o, &pt[i], o.sizes[i], hz, cpt);
	lb_print_levels(&o, pt, &g, hz, info);
	for (unsigned i = 0; i < o.nsizes; i++) {
		warm += pt[i].warm_ticks;
		remeasured += pt[i].remeasured != 0;
	}
	fprintf(info, "# sweep: %u sizes, chains built in %llu ms, measured in %llu ms (warm-up "
		"%llu ms; %u sizes re-measured)\n", o.nsizes,
		(unsigned long long)(t_build * 1000 / hz), (unsigned long long)(t_all * 1000 / hz),
		(unsigned long long)(warm * 1000 / hz), remeasured);
	return 0;
}
