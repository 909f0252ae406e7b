/*
 * count.c: INST_RETIRED.ANY counting on fixed counter 0 or GP counter 0 (see count.h).
 * Fixed counters and the global MSRs exist from perfmon version 2 (§1.4); on version 1 the
 * GP counter's EVTSEL.EN alone starts it. Every access is _safe: a fault is reported.
 */
#include "pebs/count.h"
#include "pebs/msr.h"
#include "pebs/msr_note.h"
#include "kernel/fmt.h"
#include "kernel/hw.h"

#include <string.h>

#define INST_RETIRED_ANY 0x00c0	/* architectural event, CPUID.0AH:EBX[1] */

static int step(struct pmu_count *pc, uint32_t msr, uint64_t v)
{
	return msr_note_write(&pc->fault, pc->err, sizeof(pc->err), msr, v);
}

int pmu_count_start(struct pmu_count *pc, const struct pebs_caps *c)
{
	const char *why;

	memset(pc, 0, sizeof(*pc));
	pc->caps = c;
	if (!pebs_caps_pmu_ok(c, &why)) {
		fmt_snprintf(pc->err, sizeof(pc->err), "%s", why);
		return -1;
	}
	pc->fixed = c->version >= 2 && (c->fixed_mask & 1);
	if (!pc->fixed && (c->n_gp == 0 || (c->ebx_len >= 2 && (c->arch_events_unavail & 2)))) {
		fmt_snprintf(pc->err, sizeof(pc->err),
			     "CPUID.0AH: no fixed counter 0 and INST_RETIRED.ANY unavailable");
		return -1;
	}
	if (c->version >= 2 && step(pc, MSR_IA32_PERF_GLOBAL_CTRL, 0))
		return -1;
	if (pc->fixed) {
		if (step(pc, MSR_IA32_FIXED_CTR_CTRL, 0) || step(pc, MSR_IA32_FIXED_CTR(0), 0) ||
		    step(pc, MSR_IA32_FIXED_CTR_CTRL, FIXED_CTRL_OS(0) | FIXED_CTRL_USR(0)) ||
		    step(pc, MSR_IA32_PERF_GLOBAL_CTRL, GLOBAL_FIXED(0)))
			return -1;
		return 0;
	}
	if (step(pc, MSR_IA32_PERFEVTSEL(0), 0) || step(pc, MSR_IA32_PMC(0), 0) ||
	    step(pc, MSR_IA32_PERFEVTSEL(0),
		 INST_RETIRED_ANY | EVTSEL_OS | EVTSEL_USR | EVTSEL_EN) ||
	    (c->version >= 2 && step(pc, MSR_IA32_PERF_GLOBAL_CTRL, 1)))
		return -1;
	return 0;
}

uint64_t pmu_count_stop(struct pmu_count *pc)
{
	const struct pebs_caps *c = pc->caps;
	uint64_t v = 0;
	int vec;

	if (c->version >= 2)
		(void)step(pc, MSR_IA32_PERF_GLOBAL_CTRL, 0);
	if (pc->fixed) {
		vec = rdmsr_safe(MSR_IA32_FIXED_CTR(0), &v);
		(void)step(pc, MSR_IA32_FIXED_CTR_CTRL, 0);
	} else {
		(void)step(pc, MSR_IA32_PERFEVTSEL(0), 0);
		vec = rdmsr_safe(MSR_IA32_PMC(0), &v);
	}
	if (vec && !pc->fault) {
		pc->fault = vec;
		fmt_snprintf(pc->err, sizeof(pc->err), "counter read: fault (vector %d)", vec);
	}
	return pc->fault ? 0 : v;
}
