/*
 * needs.c: the SKIP reason for each need a test table entry declares (kernel/ktap.h).
 * Reasons name the register and bits that decided, so a user can check them.
 */
#include "kernel/ktap.h"
#include "kernel/cpu.h"
#include "kernel/hw.h"

#include <stddef.h>

const char *ktest_need_reason(unsigned needs)
{
	if (needs & (NEED_PMU | NEED_PEBS | NEED_LOAD_LATENCY)) {
		struct cpuid_regs r = { 0, 0, 0, 0 };

		if (cpu.vendor != VENDOR_INTEL)
			return "not an Intel CPU: no Intel PMU";
		if (cpu.max_leaf >= 0xa)
			cpuid_count(0xa, 0, &r);
		if ((r.eax & 0xff) == 0)
			return "CPUID.0AH: perfmon version 0";
	}
	if (needs & (NEED_PEBS | NEED_LOAD_LATENCY)) {
		if (!cpu.ds)
			return "CPUID.01H:EDX.DS[21] = 0: no debug store, no PEBS";
	}
	if ((needs & NEED_APIC) && !cpu.apic)
		return "CPUID.01H:EDX.APIC[9] = 0: no local APIC";
	return NULL;
}
