/*
 * loadbench_loaded.c: `loadbench --loaded`, test load_loaded (ktests/load_loaded.c) as a Linux
 * program: the same probe (the load_dram chain of loads/chain.c, timed by loads/chase.c), the
 * same injector (loads/inject.c's assembly passes and run loop, one pinned thread per other
 * allowed CPU, sched_setaffinity(2)), the same sweep, lines and verdicts (loads/loaded.c), so
 * `pebs-report kernel.log loadbench.log` compares the two step by step. --pebs samples the
 * probe thread through perf (tools/loadbench_pebs.c: mem-loads ldlat=3 / AMD ibs_op) at every
 * step; without it, or where perf refuses, samples_accounted SKIPs with the reason. Interrupts
 * and the scheduler stay on (user space). On a terminal a progress line on stderr.
 */
#define _GNU_SOURCE
#include "tools/loadbench_loaded.h"
#include "kernel/console.h"
#include "kernel/cpu.h"
#include "kernel/ktap.h"
#include "kernel/tsc.h"
#include "loads/inject.h"
#include "loads/kload.h"
#include "loads/kpebs_ktap.h"
#include "loads/loaded.h"
#include "loads/plan.h"
#include "loads/steady.h"
#include "tools/loadbench_host.h"
#include "tools/loadbench_pebs.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BUDGET_MS 60	/* timed per step, as KLOAD_BUDGET_MS */
#define REPS 9		/* as KLOAD_REPS */
#define INJ_MIN (4ull << 20)
#define MAX_INJ 1024u

struct inj {
	int cpu;
	pthread_t th;
	struct lb_buf buf;
	struct inject_job job;
};

static struct inj inj[MAX_INJ];
static unsigned ninj;
static struct loaded_point pts[LOADED_MAX_STEPS];

static void *inj_main(void *arg)
{
	struct inj *x = arg;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(x->cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	inject_run(&x->job);
	return NULL;
}

/* The injectors: one per allowed CPU but `probe`, at most `max` (0: all). */
static int pick(const cpu_set_t *allowed, int probe, unsigned max, uint64_t per, bool huge,
		enum loaded_mix mix)
{
	for (int c = 0; c < CPU_SETSIZE && ninj < MAX_INJ && (!max || ninj < max); c++) {
		if (c == probe || !CPU_ISSET(c, allowed))
			continue;
		inj[ninj].cpu = c;
		if (lb_buf_map(&inj[ninj].buf, per, huge))
			return -1;
		memset(inj[ninj].buf.base, 0x5a, per);
		inj[ninj].job = (struct inject_job){ .buf = inj[ninj].buf.base, .bytes = per,
						     .mix = mix };
		ninj++;
	}
	return 0;
}

/* Start every injector at delay and wait until each runs; false when one did not start. */
static bool start(uint64_t delay, uint64_t hz)
{
	bool ok = true;

	for (unsigned k = 0; k < ninj; k++) {
		struct inject_job *j = &inj[k].job;

		inject_job_arm(j, delay, hz * 20);
		if (pthread_create(&inj[k].th, NULL, inj_main, &inj[k]))
			return false;
	}
	for (unsigned k = 0; k < ninj; k++) {
		uint64_t t0 = rdtsc();

		while (!__atomic_load_n(&inj[k].job.running, __ATOMIC_ACQUIRE) &&
		       rdtsc() - t0 < hz * 2)
			sched_yield();
		ok &= inj[k].job.running != 0;
	}
	return ok;
}

static bool stop(uint64_t hz, uint64_t *mbps)
{
	static struct loaded_inj res[MAX_INJ];
	bool ok = true;

	for (unsigned k = 0; k < ninj; k++)
		__atomic_store_n(&inj[k].job.stop, 1, __ATOMIC_RELEASE);
	for (unsigned k = 0; k < ninj; k++) {
		pthread_join(inj[k].th, NULL);
		res[k] = inj[k].job.res;
		ok &= res[k].stopped && res[k].bytes > 0;
	}
	*mbps = loaded_total_mbps(res, ninj, hz);
	return ok;
}

static int time_chain(struct load_run *r, uint64_t hz, const struct cache_geometry *g)
{
	struct chase_cfg cfg = { .kind = CHASE_LOAD, .reps = REPS, .min_steps = 2 * CHASE_UNROLL,
				 .budget_ticks = hz / 1000 * BUDGET_MS,
				 .warm_max_steps = r->ws > g->l3.size ? 64u << 10 : 0,
				 .warm_max_ticks = hz / 1000 * BUDGET_MS,
				 .warm_max_laps = r->ws > g->l3.size ? STEADY_PAST_LLC_LAPS : 0 };

	if (chase_measure(&r->chain, &cfg, &r->res))
		return -1;
	r->ns_x100 = chase_ns_x100(r->res.tsc_med_x100, hz);
	return 0;
}

static void progress(bool on, unsigned i, unsigned n, uint64_t delay, uint64_t t0, uint64_t hz)
{
	char d[24];

	if (!on)
		return;
	snprintf(d, sizeof(d), delay == LOADED_IDLE ? "idle" : "%llu", (unsigned long long)delay);
	fprintf(stderr, "\r\033[Kloadbench --loaded: step %u/%u, delay %s, %llu s", i + 1, n, d,
		(unsigned long long)((rdtsc_ordered() - t0) / hz));
	fflush(stderr);
}

/* The sweep as test load_loaded; returns its verdict. */
static enum kt_result sweep(struct ktest *t, struct load_run *r, uint64_t hz,
			    const struct cache_geometry *g, const char *swhy, bool tty)
{
	uint64_t d[LOADED_MAX_STEPS], t0 = rdtsc_ordered();
	unsigned n = loaded_sweep(d, LOADED_MAX_STEPS), printed = 0, bad = 0;
	uint64_t idle = r->ns_x100;
	char line[256], why[1024];

	for (unsigned i = 0; i < n; i++) {
		struct loaded_point *p = &pts[i];
		const struct pebs_agg *a;
		bool ok = true;

		progress(tty, i, n, d[i], t0, hz);
		*p = (struct loaded_point){ .delay = d[i] };
		if (d[i] != LOADED_IDLE)
			ok = start(d[i], hz);
		if (time_chain(r, hz, g) == 0) {
			p->ns_x100 = r->ns_x100;
			p->noise_pct = loaded_noise_pct(r->res.tsc_med_x100, r->res.tsc_min_x100);
			printed++;
		}
		if (!swhy) {
			a = lb_pebs_sample(r, why, sizeof(why));
			if (a)
				loaded_point_samples(p, a);
			else
				kt_info(t, "load_loaded: step %u not sampled: %s", i, why);
		}
		if (d[i] != LOADED_IDLE)
			ok &= stop(hz, &p->mbps);
		bad += !ok;
		loaded_line(line, sizeof(line), "load_loaded", i, p);
		kt_info(t, "%s", line);
	}
	if (tty)
		fprintf(stderr, "\r\033[K");
	loaded_judge(t, pts, n, ninj, bad, printed, swhy, NULL, idle);
	return kt_verdict(t);
}

int lb_loaded_main(const struct opts *o, int argc, char **argv)
{
	const struct ktest_desc desc = { .name = "load_loaded", .needs = NEED_NONE };
	struct ktest t = { .desc = &desc };
	enum loaded_mix mix = o->rw ? LOADED_RW : LOADED_READ;
	static char swhy_buf[1024];
	const char *swhy = "no --pebs: the probe is not sampled";
	struct cache_geometry g;
	struct load_run r;
	struct lb_buf buf;
	cpu_set_t allowed;
	uint64_t hz, per;
	uint32_t *scratch;
	char cmd[512] = "", line[200];
	int probe;

	lb_console = stdout;
	sched_getaffinity(0, sizeof(allowed), &allowed);
	lb_pin_cpu();
	probe = sched_getcpu();
	cpu_probe(&cpu);
	geometry_probe(&g, &cpu);
	hz = lb_tsc_hz(50);
	if (o->pebs && lb_pebs_ready(probe, hz, swhy_buf, sizeof(swhy_buf)) == LBP_OK)
		swhy = NULL;
	else if (o->pebs)
		swhy = swhy_buf;
	r = (struct load_run){ .name = "load_loaded", .kind = CHASE_LOAD, .ps = PS_2M, .stride = 64,
			       .ws = load_ws(LOAD_DRAM, &g) };
	scratch = malloc(chain_scratch_bytes(&(struct chain_params){ .bytes = r.ws, .stride = 64 }));
	if (!scratch || lb_buf_map(&buf, r.ws, o->huge)) {
		fprintf(stderr, "loadbench: cannot map %llu bytes\n", (unsigned long long)r.ws);
		return 1;
	}
	r.base = buf.base;
	if (chain_build(&r.chain, r.base, &(struct chain_params){ .bytes = r.ws, .stride = 64,
			.line = 64, .page = 4096, .seed = o->seed, .vary_slot = true }, scratch)) {
		fprintf(stderr, "loadbench: cannot build the probe's chain\n");
		return 1;
	}
	r.walk_len = chain_walk_len(&r.chain);
	per = 4 * g.l3.size / (o->injectors ? o->injectors : 1);
	per = per < INJ_MIN ? INJ_MIN : (per + (2u << 20) - 1) & ~((2ull << 20) - 1);
	if (pick(&allowed, probe, o->injectors, per, o->huge, mix)) {
		fprintf(stderr, "loadbench: cannot map the injectors' buffers\n");
		return 1;
	}
	for (int i = 1; i < argc; i++)
		snprintf(cmd + strlen(cmd), sizeof(cmd) - strlen(cmd), " %s", argv[i]);
	ktap_begin();
	ktap_plan(1);
	ktap_diag("output-format: %u", OUTPUT_FORMAT);
	ktap_diag("pebs-kernel loadbench (Linux user space, pinned threads)");
	ktap_diag("cmdline: loadbench%s", cmd);
	ktap_diag("cpu: %s %02X_%02XH stepping %u \"%s\"", cpu.vendor_str, cpu.family, cpu.model,
		  cpu.stepping, cpu.brand);
	if (cpu.hypervisor)
		ktap_diag("hypervisor: \"%s\"", cpu.hv_sig);
	ktap_diag("tsc: %llu kHz (measured against CLOCK_MONOTONIC)", (unsigned long long)(hz / 1000));
	for (unsigned i = 0; geometry_header_line(&g, i, line, sizeof(line)); i++)
		ktap_diag("%s", line);
	ktap_diag("core clock: none (Linux user space: TSC only, TSC != core clock)");
	ktap_test_start(&t, 1);
	if (!ninj) {
		ktap_result(&t, 1, kt_skip(&t, "one allowed CPU: no CPU left to inject traffic"),
			    NULL);
	} else {
		kt_info(&t, "load_loaded: %u injectors (threads on cpus other than %d), mix=%s, %llu "
			"KiB each, pages %s", ninj, probe, mix == LOADED_RW ? "rw 1:1 (64 B read + "
			"64 B written per line)" : "read", (unsigned long long)(per >> 10),
			inj[0].buf.pages);
		time_chain(&r, hz, &g);
		load_run_lines(kpk_line, &t, &r, hz);
		kt_info(&t, "load_loaded: probe cpu%d = load_dram %llu.%02llu ns; %u steps, delay loop "
			"%llu.%02llu TSC/iteration; sampler %s", probe,
			(unsigned long long)(r.ns_x100 / 100), (unsigned long long)(r.ns_x100 % 100),
			loaded_sweep((uint64_t[LOADED_MAX_STEPS]){ 0 }, LOADED_MAX_STEPS),
			(unsigned long long)(inject_calibrate(1u << 16) / 100),
			(unsigned long long)(inject_calibrate(1u << 16) % 100),
			swhy ? "perf not run" : swhy_buf);
		ktap_result(&t, 1, sweep(&t, &r, hz, &g, swhy, isatty(2)), NULL);
	}
	ktap_totals();
	kprintf("# EXIT: STATUS=%d\n", ktap_get_totals()->fail ? 1 : 0);
	free(scratch);
	return ktap_get_totals()->fail ? 1 : 0;
}
