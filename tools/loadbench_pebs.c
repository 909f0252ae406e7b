/*
 * loadbench_pebs.c: `loadbench --pebs`, the Linux perf cross-check of the load kernels (issue 14
 * §3). The same four plain-load kernels as the bare-metal tests (load_l1..load_dram, working
 * sets from loads/plan.c load_ws, chains from loads/chain.c), each timed like the kernel does
 * (loads/chase.c; interrupts cannot be turned off here) and then sampled through
 * perf_event_open with the load-latency event at the minimum threshold (tools/loadbench_perf.c:
 * Intel mem-loads with ldlat=3 on cpu / cpu_core / cpu_atom, AMD ibs_op) with PERF_SAMPLE_ADDR,
 * WEIGHT(_STRUCT) and DATA_SRC. Samples whose address lies in the chain are decoded
 * (tools/perf_dsrc.c) and aggregated by sample/aggregate.c; the log is KTAP with the kernel's own
 * lines (kernel/ktap.c, loads/kload_print.c, loads/kpebs_print.c) and verdicts
 * (loads/pebs_verdict.c), the cost of sampling included (loads/pebs_cost.c), so that
 * `tools/pebs-report kernel.log loadbench.log` compares the two level by level.
 * Exit status: 0 every verdict passed, 1 one failed, 2 usage, 3/4/5 no PMU / no permission /
 * no load-latency event (tools/loadbench_perf.h; the reason on stderr).
 */
#define _GNU_SOURCE
#include "tools/loadbench_pebs.h"
#include "kernel/console.h"
#include "kernel/cpu.h"
#include "kernel/ktap.h"
#include "kernel/tsc.h"
#include "loads/kload.h"
#include "loads/kpebs_ktap.h"
#include "loads/kpebs_print.h"
#include "loads/pebs_cost.h"
#include "loads/pebs_verdict.h"
#include "loads/steady.h"
#include "sample/agg_print.h"
#include "tools/loadbench_host.h"
#include "tools/loadbench_perf.h"
#include "tools/perf_dsrc.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LDLAT 3			/* the SDM minimum: no latency filter */
#define BUDGET_MS 60		/* timed per kernel, as KLOAD_BUDGET_MS */
#define REPS 9			/* as KLOAD_REPS */
#define WORK_BUDGET_MS 300	/* sampling stops here even short of its records */
#define BASE_CHUNKS 8		/* unarmed chunks for the cost */
#define RING_ORDER 6		/* 64 pages of ring */

struct sampler {
	struct pebs_agg agg;
	uintptr_t lo, hi;		/* the chain's bytes */
	uint64_t outside;		/* samples of other loads (harness, drain) */
};

struct bench {
	struct load_run r;
	struct lb_pmu pmu;
	struct lb_perf ev;
	struct sampler s;
	uintptr_t p;			/* chase position */
	uint64_t chunk_steps, deadline, hz, lost, throttle, sav;
	char why[1024];
	enum lbp_status st;
};

static struct bench B;

static void on_sample(void *ctx, const struct perf_sample *x)
{
	struct sampler *s = ctx;

	if (x->addr < s->lo || x->addr >= s->hi) {
		s->outside++;
		return;
	}
	perf_dsrc_agg_add(&s->agg, x->data_src, x->weight);
}

static uint64_t tsc_clock(void *ctx)
{
	(void)ctx;
	return rdtsc_ordered();
}

/* One chunk of the kernel; drains the ring when armed. */
static bool chunk(void *ctx)
{
	struct bench *b = ctx;

	b->p = chase_loads(b->p, b->chunk_steps);
	if (b->ev.map)
		lbp_drain(&b->ev);
	return rdtsc() < b->deadline;
}

/* A pebs_cost_armed_fn: open the event at sav, run chunks to the records or the budget. */
static int armed(void *ctx, uint64_t sav, uint64_t *records, uint64_t *pmis, uint64_t *used)
{
	struct pebs_cost_run *run = ctx;
	struct bench *b = run->ctx;

	pebs_agg_init(&b->s.agg);
	b->s.outside = 0;
	b->sav = sav;
	b->st = lbp_open(&b->ev, &b->pmu, sav, RING_ORDER, on_sample, &b->s, b->why,
			 sizeof(b->why));
	if (b->st != LBP_OK)
		return -1;
	b->deadline = rdtsc() + b->hz / 1000 * WORK_BUDGET_MS;
	lbp_enable(&b->ev, true);
	while (b->s.agg.records < PEBS_MEASURE_RECORDS && pebs_cost_chunk(run))
		;
	lbp_enable(&b->ev, false);
	lbp_drain(&b->ev);
	b->lost = b->ev.ring.st.lost + b->ev.ring.st.lost_samples;
	b->throttle = b->ev.ring.st.throttle;
	if (b->ev.ring.err) {
		snprintf(b->why, sizeof(b->why), "perf ring: %s", b->ev.ring.err);
		lbp_close(&b->ev);
		return -1;
	}
	lbp_close(&b->ev);
	*records = b->s.agg.records;
	*pmis = 0;
	*used = sav;
	return 0;
}

static int build_and_time(struct load_run *r, uint8_t *base, uint32_t *scratch, uint64_t seed,
			  const struct cache_geometry *g)
{
	struct chain_params p = { .bytes = r->ws, .stride = 64, .line = 64, .page = 4096,
				  .seed = seed, .vary_slot = true };
	struct chase_cfg cfg = { .kind = CHASE_LOAD, .reps = REPS, .min_steps = 2 * CHASE_UNROLL,
				 .budget_ticks = B.hz / 1000 * BUDGET_MS,
				 .warm_max_steps = r->ws > g->l3.size ? 64u << 10 : 0,
				 .warm_max_ticks = B.hz / 1000 * BUDGET_MS,
				 .warm_max_laps = r->ws > g->l3.size ? STEADY_PAST_LLC_LAPS : 0 };
	uint64_t t0 = rdtsc_ordered();

	if (chain_build(&r->chain, base, &p, scratch))
		return -1;
	r->walk_len = chain_walk_len(&r->chain);
	r->build_ticks = rdtsc_ordered() - t0;
	if (chase_measure(&r->chain, &cfg, &r->res))
		return -1;
	r->ns_x100 = chase_ns_x100(r->res.tsc_med_x100, B.hz);
	return 0;
}

static void judge(struct ktest *t, const char *sub, enum pv_result v, const char *d)
{
	if (v == PV_SKIP)
		kt_skip_sub(t, sub, "%s", d);
	else
		kt_check(t, v == PV_PASS, "%s # %s", sub, d);
}

static const char *const names[LOAD_NLEVELS] = { "load_l1", "load_l2", "load_l3", "load_dram" };
static const enum pebs_level target[LOAD_NLEVELS] = { PEBS_LVL_L1, PEBS_LVL_L2, PEBS_LVL_L3,
						       PEBS_LVL_RAM };

/* One kernel as a KTAP test. */
static enum kt_result kernel(struct ktest *t, unsigned k, const struct cache_geometry *g,
			     uint8_t *base, uint32_t *scratch, uint64_t seed, uint64_t *p50)
{
	struct load_run *r = &B.r;
	struct pebs_cost_run bl = { .work = chunk, .ctx = &B, .clock = tsc_clock }, run;
	struct pebs_cost cost;
	struct kp_pebs kp;
	char d[256];
	int rc;

	*r = (struct load_run){ .name = names[k], .kind = CHASE_LOAD, .ps = PS_2M, .stride = 64,
				.ws = load_ws((enum load_level)k, g) };
	if (build_and_time(r, base, scratch, seed, g))
		return kt_skip(t, "chain build or timing rejected ws=%llu",
			       (unsigned long long)r->ws);
	load_run_lines(kpk_line, t, r, B.hz);
	B.s.lo = (uintptr_t)base;
	B.s.hi = (uintptr_t)base + r->ws;
	B.p = r->chain.head;
	B.chunk_steps = r->res.steps_per_rep;
	bl.steps_per_chunk = B.chunk_steps;
	run = bl;
	B.deadline = rdtsc() + B.hz / 1000 * 30;
	pebs_cost_baseline(&bl, BASE_CHUNKS);
	/* armed() gets the run as its context, and the bench through run.ctx */
	rc = pebs_cost_measure(&cost, &bl, &run, pebs_cost_default_sav(r->ns_x100), true, false,
			       B.hz, armed, &run);
	if (rc) {
		kt_check(t, false, "pebs_source # %s", B.why);
		return kt_verdict(t);
	}
	kp = (struct kp_pebs){ .ev = PEBS_EV_LOAD, .ldlat = B.pmu.ibs ? 0 : LDLAT,
			       .sav = B.sav, .dropped = B.lost, .pmis_known = false, .agg = &B.s.agg,
			       .cost = &cost };
	kp_pebs_line(kpk_line, t, r->name, &kp, (int)target[k], r->res.tsc_med_x100, false);
	kp_table(kpk_line, t, r->name, &B.s.agg);
	kt_info(t, "%s: perf pmu=%s precise_ip=%d samples_outside_chain=%llu throttled=%llu",
		r->name, B.pmu.name, B.ev.precise, (unsigned long long)B.s.outside,
		(unsigned long long)B.throttle);
	judge(t, "pebs_overhead", pv_overhead(&cost, kp.sav, d, sizeof(d)), d);
	judge(t, "pebs_source", pv_source(&B.s.agg, target[k], d, sizeof(d)), d);
	judge(t, "pebs_latency", pv_latency(&B.s.agg, target[k], r->res.tsc_med_x100, false, d,
					    sizeof(d)), d);
	p50[k] = B.s.agg.lvl[target[k]].count ? pebs_agg_percentile(&B.s.agg.lvl[target[k]], 500)
					      : 0;
	if (k && p50[k] && p50[k - 1])
		judge(t, "pebs_rises", pv_rises(p50[k - 1], load_level_name((enum load_level)(k - 1)),
					       p50[k], d, sizeof(d)), d);
	return kt_verdict(t);
}

/* Can this process sample at all? The reason and exit status when not. */
static enum lbp_status preflight(int cpu_nr)
{
	char why[1024];
	enum lbp_status st = lbp_find(lbp_sysfs_root(), cpu_nr, LDLAT, &B.pmu);

	if (st != LBP_OK) {
		fprintf(stderr, "loadbench --pebs: %s\n", B.pmu.why);
		return st;
	}
	st = lbp_perm_check(lbp_paranoid_path(), why, sizeof(why));
	if (st != LBP_OK) {
		fprintf(stderr, "loadbench --pebs: %s\n", why);
		return st;
	}
	st = lbp_open(&B.ev, &B.pmu, 100003, 0, NULL, NULL, why, sizeof(why));
	lbp_close(&B.ev);
	if (st != LBP_OK)
		fprintf(stderr, "loadbench --pebs: %s\n", why);
	return st;
}

enum lbp_status lb_pebs_ready(int cpu_nr, uint64_t hz, char *why, size_t n)
{
	enum lbp_status st = lbp_find(lbp_sysfs_root(), cpu_nr, LDLAT, &B.pmu);

	B.hz = hz;
	if (st != LBP_OK) {
		snprintf(why, n, "%s", B.pmu.why);
		return st;
	}
	st = lbp_perm_check(lbp_paranoid_path(), why, n);
	if (st != LBP_OK)
		return st;
	st = lbp_open(&B.ev, &B.pmu, 100003, 0, NULL, NULL, why, n);
	lbp_close(&B.ev);
	if (st == LBP_OK)
		snprintf(why, n, "perf %s: %s", B.pmu.name, B.pmu.event);
	return st;
}

const struct pebs_agg *lb_pebs_sample(const struct load_run *r, char *why, size_t n)
{
	struct pebs_cost_run run = { .work = chunk, .ctx = &B, .clock = tsc_clock };
	uint64_t recs, pmis, used;

	B.s.lo = (uintptr_t)r->base;
	B.s.hi = (uintptr_t)r->base + r->ws;
	B.p = r->chain.head;
	B.chunk_steps = r->res.steps_per_rep ? r->res.steps_per_rep : 4096;
	run.steps_per_chunk = B.chunk_steps;
	if (armed(&run, pebs_cost_default_sav(r->ns_x100), &recs, &pmis, &used)) {
		snprintf(why, n, "%s", B.why);
		return NULL;
	}
	return &B.s.agg;
}

int lb_pebs_main(const struct opts *o, int argc, char **argv)
{
	struct cache_geometry g;
	struct lb_buf buf;
	uint64_t p50[LOAD_NLEVELS] = { 0 }, max;
	uint32_t *scratch;
	enum lbp_status st;
	char cmd[512] = "", line[200];
	int cpu_now;

	lb_console = stdout;
	lb_pin_cpu();
	cpu_now = sched_getcpu();
	st = preflight(cpu_now < 0 ? 0 : cpu_now);
	if (st != LBP_OK)
		return (int)st;
	cpu_probe(&cpu);
	geometry_probe(&g, &cpu);
	max = load_ws(LOAD_DRAM, &g);
	scratch = malloc(chain_scratch_bytes(&(struct chain_params){ .bytes = max, .stride = 64 }));
	if (!scratch || lb_buf_map(&buf, max, o->huge)) {
		fprintf(stderr, "loadbench: cannot map %llu bytes\n", (unsigned long long)max);
		return 1;
	}
	B.hz = lb_tsc_hz(50);
	for (int i = 1; i < argc; i++)
		snprintf(cmd + strlen(cmd), sizeof(cmd) - strlen(cmd), " %s", argv[i]);
	ktap_begin();
	ktap_plan(LOAD_NLEVELS);	/* the plan follows the version line (docs/output.md) */
	ktap_diag("output-format: %u", OUTPUT_FORMAT);
	ktap_diag("pebs-kernel loadbench (Linux perf_event_open, user space)");
	ktap_diag("cmdline: loadbench%s", cmd);
	ktap_diag("cpu: %s %02X_%02XH stepping %u \"%s\"", cpu.vendor_str, cpu.family, cpu.model,
		  cpu.stepping, cpu.brand);
	if (cpu.hypervisor)
		ktap_diag("hypervisor: \"%s\"", cpu.hv_sig);
	ktap_diag("tsc: %llu kHz (measured against CLOCK_MONOTONIC)",
		  (unsigned long long)(B.hz / 1000));
	for (unsigned i = 0; geometry_header_line(&g, i, line, sizeof(line)); i++)
		ktap_diag("%s", line);
	ktap_diag("core clock: none (Linux user space: TSC only, TSC != core clock)");
	ktap_diag("pmu: perf %s type %u: %s; pages %s; CPU %d", B.pmu.name, B.pmu.type,
		  B.pmu.event, buf.pages, cpu_now);
	for (unsigned k = 0; k < LOAD_NLEVELS; k++) {
		const struct ktest_desc desc = { .name = names[k], .needs = NEED_NONE };
		struct ktest t = { .desc = &desc };
		enum kt_result v;

		ktap_test_start(&t, k + 1);	/* its lines are held until its plan is known */
		v = kernel(&t, k, &g, buf.base, scratch, o->seed + k, p50);

		ktap_result(&t, k + 1, v, NULL);
	}
	ktap_totals();
	kprintf("# EXIT: STATUS=%d\n", ktap_get_totals()->fail ? 1 : 0);
	free(scratch);
	return ktap_get_totals()->fail ? 1 : 0;
}
