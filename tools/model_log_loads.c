/*
 * model_log_loads.c: model-log's load kernels around the PEBS step: the synthesized `chain`
 * and `time` lines (no chain is built, nothing is timed; see model-log.c) and, for the hybrid
 * model, test load_cpus on the E-core as ktests/load_cpus.c runs it on an AP.
 */
#include "tools/model_log.h"
#include "loads/geometry.h"
#include "loads/plan.h"
#include "model/pmu_model.h"

#include <stdio.h>

/* The `chain` and `time` lines (loads/kload.c load_run_print formats) of kernel `name`,
 * synthesized. */
void ml_timing_lines(struct ktest *t, const char *name, uint64_t tsc_khz, uint64_t ws,
		     unsigned stride, const char *pages, const char *unit, uint64_t core)
{
	uint64_t tsc = core * 100 / 110, ns = tsc * 1000000 / tsc_khz;
	uint64_t nodes = ws / stride, steps = nodes * 4 > 200000 ? 200000 : nodes * 4;
	char w[24];

	kt_info(t, "%s: chain ws=%s pages=%s nodes=%llu stride=%u walk=%llu/%llu rules=held "
		"build_ms=%llu", name, geometry_size_str(ws, w, sizeof(w)), pages,
		(unsigned long long)nodes, stride, (unsigned long long)nodes,
		(unsigned long long)nodes, (unsigned long long)(ws >> 22));
	kt_info(t, "%s: time unit=%s tsc=%llu.%02llu min=%llu.%02llu max=%llu.%02llu "
		"ns=%llu.%02llu core=%llu.%02llu ratio=1.10 steps=%llu ms=%llu", name, unit,
		X100(tsc), X100(tsc * 98 / 100), X100(tsc * 105 / 100), X100(ns), X100(core),
		(unsigned long long)steps, (unsigned long long)(steps * 9 * ns / 100 / 1000000));
}

uint64_t ml_timing(struct ktest *t, unsigned k, const char *name, uint64_t tsc_khz, uint64_t ws,
		   const struct ml_opts *o)
{
	uint64_t core = ml_target_lat_x100(k, o) * (97 + ml_rand() % 7) / 100;

	ml_timing_lines(t, name, tsc_khz, ws, 64, "2M", "load", core);
	return core;
}

/* Test `num`, load_cpus, on the E-core (CPU 1), as ktests/load_cpus.c runs it on an AP. */
void ml_ecore_test(unsigned num, uint64_t tsc_khz, const struct cache_geometry *g,
		   const struct ml_opts *bo)
{
	static const char *const lv[4] = { "l1", "l2", "l3", "dram" };
	static struct pebs_cpu pc;	/* ~30 KiB: not on the stack */
	const struct ktest_desc desc = { .name = "load_cpus", .needs = NEED_NONE };
	struct ktest t = { .desc = &desc };
	const struct pebs_model *pm;
	struct ml_opts o = *bo;
	uint64_t ns[4];
	char name[32], sub[32];

	ktap_test_start(&t, num);
	model_select(1);
	pebs_cpu_init(&pc);
	pm = pebs_model_lookup(pc.caps.family, pc.caps.model, pebs_cpu_core(&pc));
	kt_info(&t, "load_cpus: cpu1 apic=%u type=E-core node=0 format=%u model=%s", pc.apic_id,
		pc.caps.pebs_fmt, pm ? pm->name : "-");
	o.cpu = 1;
	o.pc = &pc;
	o.sub = sub;
	for (unsigned k = 0; k < 4; k++) {
		uint64_t core;

		snprintf(name, sizeof(name), "load_%s@cpu1", lv[k]);
		snprintf(sub, sizeof(sub), "cpu1_%s_", lv[k]);
		core = ml_timing(&t, k, name, tsc_khz, load_ws((enum load_level)k, g), &o);
		ns[k] = core * 100 / 110 * 1000000 / tsc_khz;
		ml_pebs_step(&t, k, name, &pc.caps, &o, core);
		kt_check(&t, true, "%schain_cycle", sub);
		kt_check(&t, true, "%schain_placement", sub);
		if (k)
			kt_check(&t, load_step_ok(ns[k - 1], ns[k], load_step_margin_pct[k]),
				 "%sstep_over_%s # %llu.%02llu ns >= %u%% of %llu.%02llu ns", sub,
				 load_level_name((enum load_level)(k - 1)), X100(ns[k]),
				 load_step_margin_pct[k], X100(ns[k - 1]));
	}
	ktap_result(&t, num, kt_verdict(&t), NULL);
	model_select(0);
}
