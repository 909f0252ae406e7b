/*
 * load_loaded.c: test load_loaded (on request: tests=load_loaded; issue 32), loaded latency as
 * Intel MLC's --loaded_latency measures it: the load_dram pointer chase on the boot CPU (its
 * chain, sizing and timing, loads/kload.h) while every other selected CPU injects traffic
 * (loads/inject.h, one smp_call per CPU and step, smp/smp.h) with a delay swept from 0 to idle
 * (loads/loaded.h). The injectors: the CPUs cpus= names other than the boot CPU; without cpus=
 * every online AP (MLC's default: all other cores). loaded=rw: each line read and written back.
 * Per step one line: injected GB/s (each injector's own bytes and TSC), the probe's ns and core
 * cycles per load, p50/p99 and data-source shares of its PEBS/IBS samples (loads/sampler.h).
 * Subtests: injectors_ran (every injector started, stopped and counted bytes in every step but
 * idle), steps_printed (>= 8), samples_accounted (SKIP without a sampler), curve_monotone and
 * idle_is_dram (SKIP where timing is not judged: software emulation). SDM Vol. 3B 18.17 (TSC),
 * Vol. 3A 9.4 (the APs).
 */
#include "ktests/tests.h"
#include "kernel/cmdline.h"
#include "kernel/mm.h"
#include "kernel/tsc.h"
#include "loads/inject.h"
#include "loads/inject_cpus.h"
#include "loads/kload.h"
#include "loads/kprefetch.h"
#include "loads/loaded.h"
#include "loads/sampler.h"
#include "smp/smp.h"

#include <string.h>

#define X100(v) (unsigned long long)((v) / 100), (unsigned long long)((v) % 100)
#define START_MS 2000u	/* an injector not running by then is reported */
#define STEP_MS 20000u	/* an injector stops by itself after this long */
#define INJ_MIN (4ull << 20)

static struct inject_cpu *inj;
static unsigned ninj;
static struct inject_group grp;	/* static: the runner's undo reaches it after a jump back */
static struct loaded_point pts[LOADED_MAX_STEPS];

static bool wanted(unsigned i)
{
	return smp_cpu(i)->state == CPU_ONLINE &&
	       (!cmdline_get(&kcmdline, "cpus") || smp_selected(i));
}

/* The injector CPUs and their buffers; 0, or -1 with *why. */
static int setup(struct ktest *t, enum loaded_mix mix, const char **why)
{
	const struct cache_geometry *g = kload_geometry();
	uint64_t per, want;
	const char *note = "";

	ninj = 0;
	grp = (struct inject_group){ 0 };
	for (unsigned i = 1; i < smp_cpu_count(); i++)
		ninj += wanted(i);
	if (!ninj) {
		*why = smp_online_count() < 2 ? "one CPU online: no CPU left to inject traffic" :
		       "cpus= selects no CPU but the boot CPU: no injector";
		return -1;
	}
	inj = kalloc(ninj * sizeof(*inj), 64);
	if (!inj) {
		*why = "no memory for the injectors' state";
		return -1;
	}
	memset(inj, 0, ninj * sizeof(*inj));
	want = 4 * g->l3.size / ninj;	/* together 4x L3: their lines come from DRAM */
	want = want < INJ_MIN ? INJ_MIN : (want + (2u << 20) - 1) & ~((2ull << 20) - 1);
	per = kload_ws_cap(want, &note);
	for (unsigned i = 1, k = 0; i < smp_cpu_count(); i++) {
		if (!wanted(i))
			continue;
		inj[k].cpu = i;
		inj[k].job.buf = mm_map_buffer(per, PS_2M);
		inj[k].job.bytes = per;
		inj[k].job.mix = mix;
		if (!inj[k].job.buf) {
			*why = "mm_map_buffer failed for an injector's buffer";
			return -1;
		}
		memset(inj[k].job.buf, 0x5a, per);
		k++;
	}
	grp = (struct inject_group){ .inj = inj, .n = ninj, .start_ms = START_MS,
				     .step_ms = STEP_MS };
	kt_info(t, "load_loaded: %u injectors (cpus=%s), mix=%s, %llu KiB each%s", ninj,
		cmdline_get(&kcmdline, "cpus") ? "as given" : "all online, MLC's default",
		mix == LOADED_RW ? "rw 1:1 (64 B read + 64 B written per line)" : "read",
		(unsigned long long)(per >> 10), note);
	return 0;
}

static uint64_t step_gbps(void)
{
	static struct loaded_inj res[64];
	uint64_t sum = 0;

	for (unsigned k = 0; k < ninj; k += 64) {
		unsigned n = ninj - k < 64 ? ninj - k : 64;

		for (unsigned i = 0; i < n; i++)
			res[i] = inj[k + i].job.res;
		sum += loaded_total_mbps(res, n, tsc_hz);
	}
	return sum;
}

/* One step: injectors at delay (none when idle), the probe timed and sampled. */
static bool step(struct ktest *t, unsigned i, const struct load_run *r, struct loaded_point *p,
		 const struct sampler *s, unsigned *bad_inj)
{
	struct sampler_result sr;
	struct load_run q;
	char line[200];
	bool idle = p->delay == LOADED_IDLE, ok = idle || inject_cpus_start(&grp, p->delay);
	int rc = load_retime(&q, r, "load_loaded", CHASE_LOAD);

	if (rc == 0 && s && kstep_sample_once(&q, TGT_DRAM, s, &sr) == 0)
		loaded_point_samples(p, s->aggregate(s->self));
	if (!idle) {
		ok &= inject_cpus_stop(&grp);
		p->mbps = step_gbps();
		for (unsigned k = 0; k < ninj; k++)
			ok &= inj[k].job.res.bytes > 0;
	}
	*bad_inj += !ok;
	if (rc) {
		kt_info(t, "load_loaded: step %u not timed: %s", i, q.why);
		return false;
	}
	p->ns_x100 = q.ns_x100;
	p->core_x100 = q.res.have_core ? q.res.core_med_x100 : 0;
	p->noise_pct = loaded_noise_pct(q.res.tsc_med_x100, q.res.tsc_min_x100);
	loaded_line(line, sizeof(line), "load_loaded", i, p);
	kt_info(t, "%s", line);
	return true;
}

enum kt_result test_load_loaded(struct ktest *t)
{
	const char *m = cmdline_get(&kcmdline, "loaded"), *why = NULL, *emu, *note;
	enum loaded_mix mix = m && !strcmp(m, "rw") ? LOADED_RW : LOADED_READ;
	const struct sampler *s = kload_sampler();
	const char *swhy = s ? s->unavailable(s->self) : "no sampler registered";
	uint64_t delays[LOADED_MAX_STEPS], unit;
	unsigned n = loaded_sweep(delays, LOADED_MAX_STEPS), printed = 0, bad_inj = 0;
	struct load_run r;
	int rc;

	kload_test_begin();
	kload_print_geometry(t);
	if (setup(t, mix, &why))
		return kt_skip(t, "%s", why);
	/* prefetch=off|on: on the probe and every injector for the whole sweep, the idle probe
	 * included (Intel MLC's prefetchers-off figures), restored after (loads/kprefetch.h) */
	kprefetch_begin(t, "load_loaded", wanted);
	rc = kload_level_run(&r, LOAD_DRAM, &note);
	if (rc) {
		kprefetch_end(t, "load_loaded");
		if (rc == -1)
			return kt_skip(t, "the DRAM chain: %s", r.why);
		kt_check(t, false, "chain_cycle # %s", r.why);
		return kt_verdict(t);
	}
	r.name = "load_loaded";	/* its lines: the probe's chain and idle timing */
	load_run_print(t, &r);
	unit = inject_calibrate(1u << 16);
	kt_info(t, "load_loaded: probe cpu0 = load_dram %llu.%02llu ns%s; %u steps, delay loop "
		"%llu.%02llu TSC/iteration; sampler %s%s", X100(r.ns_x100), note, n, X100(unit),
		s ? s->name : "-", swhy ? " not run" : "");
	if (swhy)
		s = NULL;
	memset(pts, 0, sizeof(pts));
	for (unsigned i = 0; i < n; i++) {
		pts[i].delay = delays[i];
		printed += step(t, i, &r, &pts[i], s, &bad_inj);
	}
	emu = kload_timing_unjudgeable();
	inject_cpus_done(&grp);
	loaded_judge(t, pts, n, ninj, bad_inj, printed, swhy, emu, r.ns_x100);
	kprefetch_end(t, "load_loaded");
	return kt_verdict(t);
}
