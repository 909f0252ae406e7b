/*
 * model_log_loaded.c: tools/model-log's test load_loaded (--kernels loaded), as
 * ktests/load_loaded.c prints and judges it, through the same loads/loaded.c code: the setup
 * and probe lines, one line per step of loads/loaded.c's sweep, the verdicts. SYNTHESIZED (see
 * model-log.c): the injected bandwidth per step is the load-dependent DRAM latency model's
 * (tests/model/loaded_model.h: a queueing model, not a measurement) for `injectors` injectors,
 * the probe's timed latency is load_dram's scaled by that model (+-1 % seeded jitter). The
 * PEBS samples of every step are the kernel's measurement code over the PMU model, the RAM
 * latencies scaled by the same factor, so p50/p99 follow the curve.
 */
#include "tools/model_log.h"
#include "loads/geometry.h"
#include "loads/loaded.h"
#include "loads/plan.h"
#include "model/loaded_model.h"
#include "pebs/measure.h"

#include <stdio.h>

void ml_loaded_test(unsigned num, const struct pebs_caps *c, const struct cache_geometry *g,
		    const struct ml_opts *o, const struct loaded_mem *mem, unsigned injectors,
		    uint64_t dram_core_x100)
{
	const struct ktest_desc desc = { .name = "load_loaded", .needs = NEED_NONE };
	struct ktest t = { .desc = &desc };
	static struct loaded_point pt[LOADED_MAX_STEPS];
	uint64_t d[LOADED_MAX_STEPS], ws = load_ws(LOAD_DRAM, g), idle_ns;
	unsigned n = loaded_sweep(d, LOADED_MAX_STEPS), printed = 0;
	uint64_t per = 4 * g->l3.size / injectors;
	char line[200];

	ktap_test_start(&t, num);
	per = per < (4ull << 20) ? 4ull << 20 : (per + (2u << 20) - 1) & ~((2ull << 20) - 1);
	kt_info(&t, "load_loaded: %u injectors (cpus=all online, MLC's default), mix=read, %llu "
		"KiB each", injectors, (unsigned long long)(per >> 10));
	ml_timing_lines(&t, "load_loaded", o->tsc_khz, ws, 64, "2M", "load", dram_core_x100);
	idle_ns = dram_core_x100 * 100 / 110 * 1000000 / o->tsc_khz;
	kt_info(&t, "load_loaded: probe cpu0 = load_dram %llu.%02llu ns; %u steps, delay loop "
		"%llu.%02llu TSC/iteration; sampler PEBS (model %s memory)", X100(idle_ns), n,
		X100(mem->iter_ps * o->tsc_khz / 10000000), mem->name);
	for (unsigned i = 0; i < n; i++) {
		struct ml_opts so = *o;
		struct loaded_point *p = &pt[i];
		struct pebs_measure *m;
		const char *err;
		unsigned pct;

		*p = (struct loaded_point){ .delay = d[i] };
		p->mbps = loaded_model_mbps(mem, injectors, d[i]);
		pct = loaded_model_pct(mem, p->mbps);
		p->core_x100 = dram_core_x100 * pct / 100 * (99 + ml_rand() % 3) / 100;
		p->ns_x100 = p->core_x100 * 100 / 110 * 1000000 / o->tsc_khz;
		p->noise_pct = 1;	/* the +-1 % jitter */
		so.ram_pct = o->ram_pct * pct / 100;
		m = ml_pebs_quiet(c, &so, ml_mix_row(o->mix, 3), &err);
		if (m)
			loaded_point_samples(p, &m->agg);
		else
			kt_info(&t, "load_loaded: step %u not sampled: %s", i, err);
		loaded_line(line, sizeof(line), "load_loaded", i, p);
		kt_info(&t, "%s", line);
		printed++;
	}
	loaded_judge(&t, pt, n, injectors, 0, printed, NULL, NULL, idle_ns);
	ktap_result(&t, num, kt_verdict(&t), NULL);
}
