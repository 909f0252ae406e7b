/*
 * loaded_judge.c: load_loaded's verdicts as KTAP subtests (loads/loaded.h loaded_judge), one
 * copy for the kernel (ktests/load_loaded.c), loadbench --loaded (tools/loadbench_loaded.c)
 * and model-log --kernels loaded: the injectors' bookkeeping, every step printed, every sample
 * accounted for in a data source, the curve monotone within noise and the idle step at
 * load_dram's latency (the arithmetic in loads/loaded.c; the tolerances are the project's,
 * docs/output.md "Loaded latency").
 */
#include "loads/loaded.h"
#include "kernel/ktap.h"

void loaded_judge(struct ktest *t, const struct loaded_point *pt, unsigned n, unsigned ninj,
		  unsigned short_steps, unsigned printed, const char *no_samples,
		  const char *no_timing, uint64_t dram_ns_x100)
{
	char d[200];

	kt_check(t, short_steps == 0, "injectors_ran # %u injectors x %u steps, %u steps short",
		 ninj, n - 1, short_steps);
	kt_check(t, printed == n && n >= 8, "steps_printed # %u of %u", printed, n);
	if (no_samples)
		kt_skip_sub(t, "samples_accounted", "%s", no_samples);
	else
		kt_check(t, loaded_accounted(pt, n, d, sizeof(d)), "samples_accounted # %s", d);
	if (no_timing) {
		kt_skip_sub(t, "curve_monotone", "%s", no_timing);
		kt_skip_sub(t, "idle_is_dram", "%s", no_timing);
		return;
	}
	kt_check(t, loaded_monotone(pt, n, LOADED_NOISE_PCT, d, sizeof(d)), "curve_monotone # %s",
		 d);
	kt_check(t, loaded_idle_ok(&pt[n - 1], dram_ns_x100, LOADED_FLOOR_PCT, d, sizeof(d)),
		 "idle_is_dram # %s", d);
}
