/*
 * needs.c: the SKIP reason for each need a test table entry declares (kernel/ktap.h), from
 * the capability probe (pebs/caps.h). Reasons name the register and bits that decided, so a
 * user can check them.
 */
#include "kernel/ktap.h"
#include "kernel/cpu.h"
#include "pebs/caps.h"

#include <stddef.h>

const char *ktest_need_reason(unsigned needs)
{
	const struct pebs_caps *c = pebs_caps_init();
	const char *why = NULL;

	if ((needs & NEED_PMU) && !pebs_caps_pmu_ok(c, &why))
		return why;
	if ((needs & NEED_PEBS) && !pebs_caps_pebs_ok(c, &why))
		return why;
	if ((needs & NEED_LOAD_LATENCY) && !pebs_caps_ll_ok(c, &why))
		return why;
	if ((needs & NEED_APIC) && !cpu.apic)
		return "CPUID.01H:EDX.APIC[9] = 0: no local APIC";
	return NULL;
}
