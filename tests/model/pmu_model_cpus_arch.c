/*
 * pmu_model_cpus_arch.c: the architectural-PEBS CPUs of the PMU model (format 0xF; see
 * pmu_model_arch.c). Signatures from the model numbers (docs/hardware.md §9); events and
 * counters from pebs/uarch.c's rows and their sources (Linux ds.c
 * intel_lnc_pebs_event_constraints for Cougar Cove, cmt constraints for Darkmont,
 * intel_pnc_pebs_event_constraints for Panther Cove). CPUID.23H.4:EBX enumerates the AUX,
 * GPR, XMM, LBR and counter groups (docs/arch-pebs.md "Enumeration"); which groups a real part
 * enumerates, its counter counts and PERF_CAPABILITIES' low bits are illustrative
 * (UNVERIFIED). No DS: the legacy PEBS MSRs #GP on these rows.
 */
#include "model/pmu_model.h"

#define MISC_EMON 0x81ull
#define ARCH_PERF_CAP 0x2f05ull	/* LBR fmt 5, PEBS fmt 0xF [11:8], FW_WRITE [13] */
#define ARCH_CAPS 0x60020378u	/* AUX[30] GPR[29] XMM[17] LBR[9:8] counters[6:3] */

/* Panther Lake 06_CC P-core (Cougar Cove): load latency on PMC2-9, stores on PMC0-1. */
const struct model_cpu model_ptl_p = {
	.name = "Panther Lake P", .signature = 0xc06c1, .core_type = 0x40, .version = 6,
	.n_gp = 10, .gp_width = 48, .n_fixed = 4, .fixed_width = 48, .pdcm = true,
	.perf_cap = ARCH_PERF_CAP, .misc_enable = MISC_EMON, .microcode = 0x100,
	.pebs_gp = 0x3ff, .ll_event = 0x01cd, .ll_gp = 0x3fc, .st_event = 0x02cd,
	.split_latency = true, .arch_caps = ARCH_CAPS, .arch_pebs_gp = 0x3ff,
};

/* Panther Lake 06_CC E-core (Darkmont): MEM_UOPS_RETIRED.LOAD_LATENCY on PMC0-1. */
const struct model_cpu model_ptl_e = {
	.name = "Panther Lake E", .signature = 0xc06c1, .core_type = 0x20, .version = 6,
	.n_gp = 8, .gp_width = 48, .n_fixed = 4, .fixed_width = 48, .pdcm = true,
	.perf_cap = ARCH_PERF_CAP, .misc_enable = MISC_EMON, .microcode = 0x100,
	.pebs_gp = 0xff, .ll_event = 0x05d0, .ll_gp = 0x3, .st_event = 0x06d0,
	.split_latency = true, .arch_caps = ARCH_CAPS, .arch_pebs_gp = 0xff,
};

/* Clearwater Forest 06_DD (Darkmont, not hybrid). */
const struct model_cpu model_cwf = {
	.name = "Clearwater Forest", .signature = 0xd06d1, .version = 6, .n_gp = 8,
	.gp_width = 48, .n_fixed = 4, .fixed_width = 48, .pdcm = true,
	.perf_cap = ARCH_PERF_CAP, .misc_enable = MISC_EMON, .microcode = 0x100,
	.pebs_gp = 0xff, .ll_event = 0x05d0, .ll_gp = 0x3, .st_event = 0x06d0,
	.split_latency = true, .arch_caps = ARCH_CAPS, .arch_pebs_gp = 0xff,
};

/* Diamond Rapids, DisplayFamily 19 model 01 (Panther Cove): load latency on PMC2-7. */
const struct model_cpu model_dmr = {
	.name = "Diamond Rapids", .signature = 0x400f11, .version = 6, .n_gp = 10,
	.gp_width = 48, .n_fixed = 4, .fixed_width = 48, .pdcm = true,
	.perf_cap = ARCH_PERF_CAP, .misc_enable = MISC_EMON, .microcode = 0x100,
	.pebs_gp = 0x3ff, .ll_event = 0x01cd, .ll_gp = 0xfc, .st_event = 0x02cd,
	.split_latency = true, .arch_caps = ARCH_CAPS, .arch_pebs_gp = 0x3ff,
};

/* Nova Lake DisplayFamily 18 model 01, P-core (Coyote Cove): Panther Cove's PEBS, load
 * latency on PMC2-7 (Linux intel_pnc_pebs_event_constraints; tip c847a208f43b). */
const struct model_cpu model_nvl_p = {
	.name = "Nova Lake P", .signature = 0x300f11, .core_type = 0x40, .version = 6,
	.n_gp = 10, .gp_width = 48, .n_fixed = 4, .fixed_width = 48, .pdcm = true,
	.perf_cap = ARCH_PERF_CAP, .misc_enable = MISC_EMON, .microcode = 0x100,
	.pebs_gp = 0x3ff, .ll_event = 0x01cd, .ll_gp = 0xfc, .st_event = 0x02cd,
	.split_latency = true, .arch_caps = ARCH_CAPS, .arch_pebs_gp = 0x3ff,
};

/* Nova Lake 12_01H (family 18) E-core (Arctic Wolf): loads 0x5d0 and stores 0x6d0 on PMC0-7 (Linux
 * intel_arw_pebs_event_constraints, INTEL_HYBRID_LAT_CONSTRAINT on 0xff; tip c847a208f43b). */
const struct model_cpu model_nvl_e = {
	.name = "Nova Lake E", .signature = 0x300f11, .core_type = 0x20, .version = 6,
	.n_gp = 8, .gp_width = 48, .n_fixed = 4, .fixed_width = 48, .pdcm = true,
	.perf_cap = ARCH_PERF_CAP, .misc_enable = MISC_EMON, .microcode = 0x100,
	.pebs_gp = 0xff, .ll_event = 0x05d0, .ll_gp = 0xff, .st_event = 0x06d0,
	.split_latency = true, .arch_caps = ARCH_CAPS, .arch_pebs_gp = 0xff,
};

const struct model_cpu *const model_arch_cpus[] = {
	&model_ptl_p, &model_ptl_e, &model_cwf, &model_dmr, &model_nvl_p, &model_nvl_e, NULL,
};
