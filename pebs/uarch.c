/*
 * uarch.c: the microarchitecture table (see uarch.h). One row per model family, in designated
 * initialisers so that a row reads against its source; every row cites the primary source
 * in .src (Linux arch/x86/events/intel/{ds,core}.c, SDM Vol. 3B "Performance Monitoring")
 * and the section of docs/hardware.md that explains it. Events are umask<<8|event, named as
 * in Intel's perfmon event lists. SDM Vol. 3B ch. 20 (ch. 18 in editions before 2022): PEBS
 * facilities per microarchitecture.
 */
#include "pebs/uarch.h"

#include <stddef.h>

#define ALL_CORES 0
#define P_CORE 0x40
#define E_CORE 0x20

const struct pebs_uarch pebs_uarch_table[] = {
	{	/* PEBS disabled: errata AJ67 (CPL leak), AJ68, AJ69, AJ106 (hardware.md §7.1) */
		.name = "Core 2 (Merom)", .family = 6, .models = { 0x0f }, .core_type = ALL_CORES,
		.pebs_fmt = 0, .pebs_gp = 0x1, .dsrc = DSRC_NONE,
		.quirks = Q_PEBS_BROKEN | Q_BUF_ONE_PAGE,
		.src = "hardware.md §4.1 §7.1; Linux core.c intel_clovertown_quirk, "
		       "ds.c intel_core2_pebs_event_constraints",
	},
	{	/* format 0, PEBS on PMC0 only, no load-latency facility */
		.name = "Core 2 (Penryn)", .family = 6, .models = { 0x16, 0x17, 0x1d },
		.core_type = ALL_CORES, .pebs_fmt = 0, .pebs_gp = 0x1, .dsrc = DSRC_NONE,
		.quirks = Q_BUF_ONE_PAGE,
		.src = "hardware.md §4.1 §7.1; Linux ds.c intel_core2_pebs_event_constraints, "
		       "intel_ds_init (one-page buffer)",
	},
	{	/* MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD + LL_EN; MEM_STORE_RETIRED.DTLB_MISS */
		.name = "Nehalem/Westmere", .family = 6,
		.models = { 0x1a, 0x1e, 0x2e, 0x25, 0x2c, 0x2f }, .core_type = ALL_CORES,
		.pebs_fmt = 1, .pebs_gp = 0xf, .ll_event = 0x100b, .ll_gp = 0xf,
		.st_event = 0x010c, .st_gp = 0xf, .dsrc = DSRC_NHM,
		.quirks = Q_NHM_CTR_RESET | Q_MIN_PERIOD_32,
		.src = "hardware.md §4.1 §5.3 §6 §7.1; SDM Vol. 3B Nehalem \"Load Latency "
		       "Performance Monitoring Facility\"; Linux ds.c "
		       "intel_nehalem_pebs_event_constraints, core.c intel_pmu_nhm_enable_all, "
		       "nhm_limit_period",
	},
	{	/* MEM_TRANS_RETIRED.LATENCY_ABOVE_THRESHOLD on PMC3 only; PRECISE_STORE + PS_EN */
		.name = "Sandy/Ivy Bridge", .family = 6, .models = { 0x2a, 0x2d, 0x3a, 0x3e },
		.core_type = ALL_CORES, .pebs_fmt = 1, .pebs_gp = 0xf, .ll_event = 0x01cd,
		.ll_gp = 0x8, .st_event = 0x02cd, .st_gp = 0x8, .dsrc = DSRC_SNB,
		.quirks = Q_PS_EN_STORE | Q_UCODE_GATE | Q_HT_ERRATUM,
		.src = "hardware.md §4.1 §5.3 §6 §7.1; SDM Vol. 3B Sandy Bridge \"Load Latency "
		       "Performance Monitoring Facility\" and PEBS event table; Linux ds.c "
		       "intel_snb_pebs_event_constraints, core.c intel_snb_check_microcode",
	},
	{	/* MEM_TRANS_RETIRED.LOAD_LATENCY; DataLA store MEM_UOPS_RETIRED.ALL_STORES */
		.name = "Haswell/Broadwell", .family = 6,
		.models = { 0x3c, 0x3f, 0x45, 0x46, 0x3d, 0x47, 0x4f, 0x56 },
		.core_type = ALL_CORES, .pebs_fmt = 2, .pebs_gp = 0xf, .ll_event = 0x01cd,
		.ll_gp = 0xf, .st_event = 0x82d0, .st_gp = 0xf, .dsrc = DSRC_SNB,
		.quirks = Q_HT_ERRATUM | Q_HSW_PERIOD,
		.src = "hardware.md §4.1 §5.3 §6 §7.1; SDM Vol. 3B Haswell PEBS record table; "
		       "Linux ds.c intel_hsw_pebs_event_constraints, core.c hsw_limit_period, "
		       "bdw_limit_period",
	},
	{	/* client Skylake family: format 3; MEM_INST_RETIRED.ALL_STORES */
		.name = "Skylake", .family = 6, .models = { 0x4e, 0x5e, 0x8e, 0x9e, 0xa5, 0xa6 },
		.core_type = ALL_CORES, .pebs_fmt = 3, .pebs_gp = 0xf, .ll_event = 0x01cd,
		.ll_gp = 0xf, .st_event = 0x82d0, .st_gp = 0xf, .dsrc = DSRC_SKL,
		.quirks = Q_TFA_PMC3,
		.src = "hardware.md §4.1 §5.3 §6 §7.1; Linux ds.c intel_skl_pebs_event_constraints, "
		       "core.c tfa_get_event_constraints",
	},
	{	/* SKX/CLX/CPX: format 3, data-source table with PMEM */
		.name = "Skylake-SP", .family = 6, .models = { 0x55 }, .core_type = ALL_CORES,
		.pebs_fmt = 3, .pebs_gp = 0xf, .ll_event = 0x01cd, .ll_gp = 0xf,
		.st_event = 0x82d0, .st_gp = 0xf, .dsrc = DSRC_SKL_PMEM, .quirks = Q_TFA_PMC3,
		.src = "hardware.md §4.1 §5.3 §6; Linux ds.c intel_skl_pebs_event_constraints, "
		       "intel_pmu_pebs_data_source_skl(pmem=true)",
	},
	{	/* Ice Lake / Tiger Lake / Rocket Lake client: baseline, load latency on PMC0-7 */
		.name = "Ice/Tiger Lake", .family = 6, .models = { 0x7d, 0x7e, 0x8c, 0x8d, 0xa7 },
		.core_type = ALL_CORES, .pebs_fmt = 4, .pebs_gp = 0, .ll_event = 0x01cd,
		.ll_gp = 0xff, .st_event = 0x82d0, .st_gp = 0xf, .dsrc = DSRC_SKL,
		.src = "hardware.md §4.1 §5.3 §6; Linux ds.c intel_icl_pebs_event_constraints",
	},
	{	/* Ice Lake server */
		.name = "Ice Lake-SP", .family = 6, .models = { 0x6a, 0x6c }, .core_type = ALL_CORES,
		.pebs_fmt = 4, .pebs_gp = 0, .ll_event = 0x01cd, .ll_gp = 0xff,
		.st_event = 0x82d0, .st_gp = 0xf, .dsrc = DSRC_SKL_PMEM,
		.src = "hardware.md §4.1 §5.3 §6; Linux ds.c intel_icl_pebs_event_constraints, "
		       "intel_pmu_pebs_data_source_skl(pmem=true)",
	},
	{	/* Snow Ridge, JSL/EHL, LKF: first adaptive part, no load-latency facility in Linux.
		 * QEMU's Icelake-Server CPU model also reports 06_86. */
		.name = "Tremont", .family = 6, .models = { 0x86, 0x96, 0x9c },
		.core_type = ALL_CORES, .pebs_fmt = 4, .pebs_gp = 0, .dsrc = DSRC_NONE,
		.src = "hardware.md §4.1 §6; Linux core.c intel_tnt_extra_regs (no LDLAT entry)",
	},
	{	/* SPR/EMR: MEM_TRANS_RETIRED.LOAD_LATENCY needs MEM_LOADS_AUX (0x8203) beside it;
		 * MEM_TRANS_RETIRED.STORE_SAMPLE on PMC0 */
		.name = "Sapphire/Emerald Rapids", .family = 6, .models = { 0x8f, 0xcf },
		.core_type = ALL_CORES, .pebs_fmt = 0xff, .pebs_gp = 0, .ll_event = 0x01cd,
		.ll_gp = 0xfe, .st_event = 0x02cd, .st_gp = 0x1, .aux_event = 0x8203,
		.dsrc = DSRC_SKL_PMEM, .quirks = Q_LL_NEEDS_AUX,
		.src = "hardware.md §5.3 §6 §7.1; Linux ds.c intel_glc_pebs_event_constraints, "
		       "core.c intel_pmu_hw_config (PMU_FL_MEM_LOADS_AUX)",
	},
	{	/* Granite Rapids: the Golden Cove tables, no MEM_LOADS_AUX requirement */
		.name = "Granite Rapids", .family = 6, .models = { 0xad, 0xae },
		.core_type = ALL_CORES, .pebs_fmt = 0xff, .pebs_gp = 0, .ll_event = 0x01cd,
		.ll_gp = 0xfe, .st_event = 0x02cd, .st_gp = 0x1, .dsrc = DSRC_SKL_PMEM,
		.src = "hardware.md §5.3 §6; Linux ds.c intel_glc_pebs_event_constraints, "
		       "core.c intel_pmu_init (no PMU_FL_MEM_LOADS_AUX for GNR)",
	},
	{	/* Alder/Raptor Lake P-cores (hybrid): Golden Cove, MEM_LOADS_AUX required */
		.name = "Golden/Raptor Cove (ADL/RPL P)", .family = 6,
		.models = { 0x97, 0x9a, 0xb7, 0xba, 0xbf }, .core_type = P_CORE, .pebs_fmt = 0xff,
		.pebs_gp = 0, .ll_event = 0x01cd, .ll_gp = 0xfe, .st_event = 0x02cd, .st_gp = 0x1,
		.aux_event = 0x8203, .dsrc = DSRC_SKL, .quirks = Q_LL_NEEDS_AUX,
		.src = "hardware.md §5.3 §6 §7.1; Linux ds.c intel_glc_pebs_event_constraints, "
		       "core.c intel_pmu_hw_config (PMU_FL_MEM_LOADS_AUX)",
	},
	{	/* Alder/Raptor Lake E-cores: Gracemont MEM_UOPS_RETIRED.LOAD_LATENCY/STORE_LATENCY */
		.name = "Gracemont", .family = 6, .models = { 0x97, 0x9a, 0xb7, 0xba, 0xbf, 0xbe },
		.core_type = E_CORE, .pebs_fmt = 0xff, .pebs_gp = 0, .ll_event = 0x05d0,
		.ll_gp = 0x3, .st_event = 0x06d0, .st_gp = 0xf, .dsrc = DSRC_GRT,
		.src = "hardware.md §5.3 §6; Linux ds.c intel_grt_pebs_event_constraints, "
		       "core.c intel_grt_extra_regs",
	},
	{	/* ADL-N is not hybrid: core type 0 */
		.name = "Gracemont (ADL-N)", .family = 6, .models = { 0xbe },
		.core_type = ALL_CORES, .pebs_fmt = 0xff, .pebs_gp = 0, .ll_event = 0x05d0,
		.ll_gp = 0x3, .st_event = 0x06d0, .st_gp = 0xf, .dsrc = DSRC_GRT,
		.src = "hardware.md §5.3 §6; Linux ds.c intel_grt_pebs_event_constraints",
	},
	{	/* Meteor Lake / ARL-U P-cores (Redwood Cove): Golden Cove events, no aux event */
		.name = "Redwood Cove (MTL P)", .family = 6, .models = { 0xaa, 0xac, 0xb5 },
		.core_type = P_CORE, .pebs_fmt = 0xff, .pebs_gp = 0, .ll_event = 0x01cd,
		.ll_gp = 0xfe, .st_event = 0x02cd, .st_gp = 0x1, .dsrc = DSRC_SKL,
		.src = "hardware.md §5.3 §6; Linux ds.c intel_glc_pebs_event_constraints, "
		       "core.c intel_pmu_init (METEORLAKE)",
	},
	{	/* Crestmont: SRF/GRR (not hybrid) */
		.name = "Crestmont", .family = 6, .models = { 0xaf, 0xb6 }, .core_type = ALL_CORES,
		.pebs_fmt = 0xff, .pebs_gp = 0, .ll_event = 0x05d0, .ll_gp = 0x3,
		.st_event = 0x06d0, .st_gp = 0xf, .dsrc = DSRC_CMT,
		.src = "hardware.md §5.3 §6; Linux ds.c cmt_latency_data, core.c intel_cmt_extra_regs",
	},
	{	/* Crestmont E-cores of Meteor Lake / ARL-U */
		.name = "Crestmont (MTL E)", .family = 6, .models = { 0xaa, 0xac, 0xb5 },
		.core_type = E_CORE, .pebs_fmt = 0xff, .pebs_gp = 0, .ll_event = 0x05d0,
		.ll_gp = 0x3, .st_event = 0x06d0, .st_gp = 0xf, .dsrc = DSRC_CMT,
		.src = "hardware.md §5.3 §6; Linux ds.c cmt_latency_data",
	},
	{	/* Lion Cove P-cores: LNL/ARL/ARL-H, format 6, load latency PMC2-9, stores PMC0-1 */
		.name = "Lion Cove", .family = 6, .models = { 0xbd, 0xc6, 0xc5 },
		.core_type = P_CORE, .pebs_fmt = 6, .pebs_gp = 0, .ll_event = 0x01cd,
		.ll_gp = 0x3fc, .st_event = 0x02cd, .st_gp = 0x3, .dsrc = DSRC_LNC,
		.src = "hardware.md §4.1 §5.4 §6; Linux ds.c intel_lnc_pebs_event_constraints, "
		       "lnc_latency_data",
	},
	{	/* Skymont E-cores of LNL/ARL */
		.name = "Skymont", .family = 6, .models = { 0xbd, 0xc6, 0xc5 }, .core_type = E_CORE,
		.pebs_fmt = 6, .pebs_gp = 0, .ll_event = 0x05d0, .ll_gp = 0x3, .st_event = 0x06d0,
		.st_gp = 0xf, .dsrc = DSRC_CMT,
		.src = "hardware.md §4.1 §5.3 §6; Linux ds.c cmt_latency_data",
	},
	{	/* architectural PEBS (format 0xF): Panther Lake Cougar Cove P-cores, the Lion
		 * Cove constraints (docs/arch-pebs.md "Parts") */
		.name = "Cougar Cove (PTL P, arch PEBS)", .family = 6, .models = { 0xcc },
		.core_type = P_CORE, .pebs_fmt = 0xf, .pebs_gp = 0, .ll_event = 0x01cd,
		.ll_gp = 0x3fc, .st_event = 0x02cd, .st_gp = 0x3, .dsrc = DSRC_LNC,
		.src = "hardware.md §4.1 §4.8 §5.4; Linux ds.c intel_pebs_init (format 0xF), "
		       "intel_lnc_pebs_event_constraints; Panther Lake PMU enabling (2025)",
	},
	{	/* Panther Lake Darkmont E-cores: the Skymont/Crestmont events and layout */
		.name = "Darkmont (PTL E, arch PEBS)", .family = 6, .models = { 0xcc },
		.core_type = E_CORE, .pebs_fmt = 0xf, .pebs_gp = 0, .ll_event = 0x05d0,
		.ll_gp = 0x3, .st_event = 0x06d0, .st_gp = 0xf, .dsrc = DSRC_CMT,
		.src = "hardware.md §4.1 §4.8 §5.3; Linux ds.c cmt_latency_data, core.c "
		       "intel_pmu_init (PANTHERLAKE_L, Skymont path); docs/arch-pebs.md",
	},
	{	/* architectural PEBS: Clearwater Forest (Darkmont E-cores) */
		.name = "Clearwater Forest (arch PEBS)", .family = 6, .models = { 0xdd },
		.core_type = ALL_CORES, .pebs_fmt = 0xf, .pebs_gp = 0, .ll_event = 0x05d0,
		.ll_gp = 0x3, .st_event = 0x06d0, .st_gp = 0xf, .dsrc = DSRC_CMT,
		.src = "hardware.md §4.1 §4.8; Linux ds.c intel_pebs_init (format 0xF), "
		       "arch-PEBS patch series (2025)",
	},
	{	/* architectural PEBS: Diamond Rapids is DisplayFamily 19 */
		.name = "Diamond Rapids (arch PEBS)", .family = 19, .models = { 0x01 },
		.core_type = ALL_CORES, .pebs_fmt = 0xf, .pebs_gp = 0, .ll_event = 0x01cd,
		.ll_gp = 0xfc, .st_event = 0x02cd, .st_gp = 0x3, .dsrc = DSRC_PNC,
		.src = "hardware.md §4.1 §5.5; Linux ds.c intel_pnc_pebs_event_constraints (tip "
		       "d345b6bb8860 \"Add core PMU support for DMR\"), pnc_latency_data (tip "
		       "d2bdcde9626c); docs/arch-pebs.md",
	},
};
const unsigned pebs_uarch_count = sizeof(pebs_uarch_table) / sizeof(pebs_uarch_table[0]);

/* Baseline PEBS on an unknown model: PEBS on every counter, no model-specific event. */
const struct pebs_uarch pebs_uarch_arch = {
	.name = "architectural (baseline)", .family = 0, .models = { 0 },
	.core_type = ALL_CORES, .pebs_fmt = 0xff, .pebs_gp = 0, .dsrc = DSRC_NONE,
	.src = "hardware.md §4.7; Linux ds.c/core.c PMU_FL_PEBS_ALL",
};

/* PEBS broken below these microcode revisions (hardware.md §7.1). Source of every row:
 * Linux arch/x86/events/intel/core.c intel_snb_pebs_broken. */
static const struct pebs_ucode_gate ucode_gates[] = {
	{ .family = 6, .model = 0x2a, .stepping = 7, .min_rev = 0x28 },	/* SNB */
	{ .family = 6, .model = 0x2d, .stepping = 6, .min_rev = 0x618 },	/* SNB-EP */
	{ .family = 6, .model = 0x2d, .stepping = 7, .min_rev = 0x70c },	/* SNB-EP */
};

const struct pebs_uarch *pebs_uarch_find(uint32_t family, uint32_t model, uint8_t core_type)
{
	const struct pebs_uarch *any = NULL;

	for (unsigned i = 0; i < pebs_uarch_count; i++) {
		const struct pebs_uarch *u = &pebs_uarch_table[i];

		if (u->family != family)
			continue;
		for (unsigned k = 0; k < PEBS_MAX_MODELS && u->models[k]; k++) {
			if (u->models[k] != model)
				continue;
			if (u->core_type && u->core_type == core_type)
				return u;
			if (!u->core_type && !any)
				any = u;
		}
	}
	/* A die without E-cores of a hybrid model (i5-12400: 06_97H with CPUID.07H:EDX[15] = 0,
	 * so no CPUID.1AH core type) has only P-cores: the P-core row. */
	if (!any && !core_type)
		return pebs_uarch_find(family, model, P_CORE);
	return any;
}

uint32_t pebs_ucode_min(uint32_t family, uint32_t model, uint32_t stepping)
{
	for (unsigned i = 0; i < sizeof(ucode_gates) / sizeof(ucode_gates[0]); i++) {
		const struct pebs_ucode_gate *g = &ucode_gates[i];

		if (g->family == family && g->model == model && g->stepping == stepping)
			return g->min_rev;
	}
	return 0;
}

const char *pebs_dsrc_name(enum pebs_dsrc_id id)
{
	static const char *const names[] = {
		[DSRC_NONE] = "none", [DSRC_NHM] = "nhm", [DSRC_SNB] = "snb",
		[DSRC_SKL] = "skl", [DSRC_SKL_PMEM] = "skl-pmem", [DSRC_GRT] = "grt",
		[DSRC_CMT] = "cmt", [DSRC_LNC] = "lnc", [DSRC_PNC] = "pnc",
	};

	if ((unsigned)id < sizeof(names) / sizeof(names[0]) && names[id])
		return names[id];
	return "?";
}
