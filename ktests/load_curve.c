/*
 * load_curve.c: test load_curve (on request: tests=load_curve): the latency curve, the
 * working set from 16 KiB to 4x L3 (CPUID/overrides) at `sweep=short` 1 point per octave
 * (default) or `sweep=full` 4 per octave, one '#' row per size: bytes, TSC/load, ns/load,
 * core cycles/load where a counter is registered. Same chains and timing as load_l1..dram
 * (docs/latency-method.md §9). Subtests: chain_cycle over all sizes; curve_rises (last point
 * >= 400% of the first: DRAM vs L1 is 20-100x on every part in docs/latency-method.md §6),
 * SKIP under software emulation, where the sweep is also capped at KLOAD_TCG_DRAM_CAP.
 */
#include "ktests/tests.h"
#include "kernel/cmdline.h"
#include "kernel/fmt.h"
#include "loads/kload.h"

#include <string.h>

#define X100(v) (unsigned long long)((v) / 100), (unsigned long long)((v) % 100)
#define MAX_POINTS 96

enum kt_result test_load_curve(struct ktest *t)
{
	const struct cache_geometry *g = kload_geometry();
	const char *mode = cmdline_get(&kcmdline, "sweep"), *emu = kload_timing_unjudgeable();
	unsigned ppo = mode && !strcmp(mode, "full") ? 4 : 1, n, bad = 0, done = 0;
	uint64_t sizes[MAX_POINTS], hi = 4 * g->l3.size, first = 0, last = 0;

	kload_test_begin();
	kload_print_geometry(t);
	if (emu && hi > KLOAD_TCG_DRAM_CAP)
		hi = KLOAD_TCG_DRAM_CAP;
	n = load_sweep_sizes(16 << 10, hi, ppo, sizes, MAX_POINTS);
	kt_info(t, "load_curve: %u sizes, %u per octave (sweep=%s)%s", n, ppo,
		ppo == 4 ? "full" : "short", emu ? ", capped under software emulation" : "");
	kt_info(t, "%12s %10s %10s %10s", "bytes", "TSC/load", "ns/load", "core/load");
	for (unsigned i = 0; i < n; i++) {
		struct load_run r = { .name = "load_curve", .kind = CHASE_LOAD, .ws = sizes[i],
				      .ps = PS_2M, .stride = 64 };
		int rc = load_run(&r);

		if (rc == -1) {
			kt_info(t, "%12llu stopped: %s", (unsigned long long)sizes[i], r.why);
			break;
		}
		if (rc) {
			bad++;
			kt_info(t, "%12llu chain broken: %s", (unsigned long long)sizes[i], r.why);
			continue;
		}
		if (r.res.have_core)
			kt_info(t, "%12llu %7llu.%02llu %7llu.%02llu %7llu.%02llu",
				(unsigned long long)sizes[i], X100(r.res.tsc_med_x100),
				X100(r.ns_x100), X100(r.res.core_med_x100));
		else
			kt_info(t, "%12llu %7llu.%02llu %7llu.%02llu %10s",
				(unsigned long long)sizes[i], X100(r.res.tsc_med_x100),
				X100(r.ns_x100), "-");
		if (!done++)
			first = r.ns_x100;
		last = r.ns_x100;
	}
	if (!done)
		return kt_skip(t, "no working set could be mapped");
	kt_check(t, bad == 0, "chain_cycle (%u of %u sizes broken)", bad, done + bad);
	if (emu)
		kt_skip_sub(t, "curve_rises", "%s", emu);
	else
		kt_check(t, load_step_ok(first, last, 400),
			 "curve_rises (%llu.%02llu ns >= 400%% of %llu.%02llu ns)", X100(last),
			 X100(first));
	return kt_verdict(t);
}
