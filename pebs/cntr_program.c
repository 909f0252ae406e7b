/*
 * cntr_program.c: `pebs_counters=on` on the DS path (PEBS record format 6, Lion Cove /
 * Skymont): MSR_PEBS_DATA_CFG bit 4 with the PEBS counter in bits 47:32 and fixed counter 1
 * (CPU_CLK_UNHALTED.CORE) in bits 55:48, that fixed counter counting in OS and USR, and
 * IA32_FIXED_CTR_CTRL put back at teardown. Facts: docs/hardware.md §4.3 (counter group),
 * docs/arch-pebs.md "Counter snapshots" (Linux perf_event.h PEBS_DATACFG_CNTR/_FIX_SHIFT,
 * ds.c setup_pebs_adaptive_sample_data). The arch-PEBS path programs its own (CFG_C bits
 * 35-37, arch_program.c).
 */
#include "pebs/pebs.h"
#include "pebs/msr.h"
#include "kernel/fmt.h"
#include "kernel/hw.h"

#include <string.h>

#define CORE_CYCLES 1	/* IA32_FIXED_CTR1 */

bool pebs_cntr_option(const struct cmdline *cl, cmdline_warn_fn warn)
{
	const char *v = cmdline_get(cl, "pebs_counters");

	if (!v || !strcmp(v, "off"))
		return false;
	if (!strcmp(v, "on"))
		return true;
	if (warn)
		warn("pebs_counters: expected on or off; using off");
	return false;
}

int pebs_cntr_data_cfg(struct pebs_session *s)
{
	const struct pebs_caps *c = s->caps;

	if (c->pebs_fmt != 6 || !s->adaptive || !(c->fixed_mask & (1u << CORE_CYCLES))) {
		fmt_snprintf(s->err, sizeof(s->err), "pebs_counters=on needs PEBS format 6 with "
			     "fixed counter %u, or architectural PEBS (format %u)", CORE_CYCLES,
			     c->pebs_fmt);
		return -1;
	}
	s->data_cfg |= PEBS_DATACFG_CNTR | (1ull << s->counter) << PEBS_DATACFG_CNTR_SHIFT |
		       (1ull << CORE_CYCLES) << PEBS_DATACFG_FIX_SHIFT;
	return 0;
}

int pebs_cntr_enable(struct pebs_session *s)
{
	uint64_t v;
	int vec;

	if (rdmsr_safe(MSR_IA32_FIXED_CTR_CTRL, &s->arch_saved.fixed_ctrl))
		s->arch_saved.fixed_ctrl = 0;
	v = s->arch_saved.fixed_ctrl | FIXED_CTRL_OS(CORE_CYCLES) | FIXED_CTRL_USR(CORE_CYCLES);
	vec = wrmsr_safe(MSR_IA32_FIXED_CTR_CTRL, v);
	if (vec) {
		fmt_snprintf(s->err, sizeof(s->err), "IA32_FIXED_CTR_CTRL <- 0x%llx: fault (vector "
			     "%d)", (unsigned long long)v, vec);
		return -1;
	}
	s->global_ctrl |= GLOBAL_FIXED(CORE_CYCLES);
	return 0;
}

void pebs_cntr_restore(struct pebs_session *s)
{
	(void)wrmsr_safe(MSR_IA32_FIXED_CTR_CTRL, s->arch_saved.fixed_ctrl);
}
