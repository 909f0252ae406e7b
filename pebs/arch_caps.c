/*
 * arch_caps.c: the architectural-PEBS probe (PERF_CAPABILITIES[11:8] = 0xF): CPUID.(07H,1)
 * ArchPerfmonExt, leaf 23H sub-leaves 0, 1, 4 and 5, and the gate Linux applies before it
 * uses arch PEBS (core.c update_pmu_cap: sub-leaf 0 EAX[4] and EAX[5] both set; sub-leaf 5
 * names no counter that sub-leaf 1 lacks). Facts: docs/arch-pebs.md "Enumeration"; Intel
 * ISE "Architectural PEBS" as implemented in Linux ds.c intel_pebs_init.
 */
#include "pebs/arch_msr.h"
#include "pebs/caps.h"
#include "kernel/fmt.h"
#include "kernel/hw.h"

#define WHY(...) fmt_snprintf(c->pebs_why, PEBS_REASON_LEN, __VA_ARGS__)

void pebs_arch_caps_probe(struct pebs_caps *c, const struct cpu_info *ci)
{
	struct cpuid_regs r;

	if (ci->max_leaf < 7)
		return;
	cpuid_count(7, 1, &r);
	c->arch_ext = r.eax & CPUID_7_1_EAX_ARCH_PERFMON_EXT;
	if (!c->arch_ext || ci->max_leaf < 0x23)
		return;
	cpuid_count(0x23, 0, &r);
	c->arch_leaf0 = r.eax;
	if (r.eax & CPUID_23_0_EAX_CNTR) {
		cpuid_count(0x23, 1, &r);
		c->arch_gp = r.eax;
		c->arch_fixed = r.ebx;
	}
	if (c->arch_leaf0 & CPUID_23_0_EAX_PEBS_CAPS) {
		cpuid_count(0x23, 4, &r);
		c->arch_caps = r.ebx;
	}
	if (c->arch_leaf0 & CPUID_23_0_EAX_PEBS_CNTRS) {
		cpuid_count(0x23, 5, &r);
		c->arch_pebs_gp = r.eax;
		c->arch_pebs_fixed = r.ecx;
	}
}

void pebs_arch_caps_reason(struct pebs_caps *c)
{
	const uint32_t both = CPUID_23_0_EAX_PEBS_CAPS | CPUID_23_0_EAX_PEBS_CNTRS;

	if (!c->arch_ext)
		WHY("IA32_PERF_CAPABILITIES[11:8] = 0xf but CPUID.(07H,1):EAX[8] = 0: "
		    "leaf 23H not enumerated");
	else if ((c->arch_leaf0 & both) != both)
		WHY("CPUID.23H.0:EAX[5:4] = %u: arch-PEBS sub-leaves 4 and 5 not both present",
		    (c->arch_leaf0 >> 4) & 3);
	else if ((c->arch_leaf0 & CPUID_23_0_EAX_CNTR) &&
		 ((c->arch_pebs_gp & ~c->arch_gp) || (c->arch_pebs_fixed & ~c->arch_fixed)))
		WHY("CPUID.23H.5 PEBS counters 0x%x/0x%x outside CPUID.23H.1 0x%x/0x%x",
		    c->arch_pebs_gp, c->arch_pebs_fixed, c->arch_gp, c->arch_fixed);
	else if (!c->uarch)
		WHY("model %02X_%02XH%s%s: architectural PEBS, but not in the PEBS table",
		    c->family, c->model, c->core_type ? " " : "",
		    cpu_core_type_name(c->core_type));
	else if (!pebs_caps_pebs_gp(c))
		WHY("CPUID.23H.5:EAX = 0x%x: no PEBS-capable GP counter among %u",
		    c->arch_pebs_gp, c->n_gp);
}
