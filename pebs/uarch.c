/*
 * uarch.c: the microarchitecture table (see uarch.h). One row per model family the reference
 * documents; every row cites ../shared/reference/pebs-facts.md. Events are umask<<8|event.
 * SDM Vol. 3B ch. 20 (PEBS facilities per microarchitecture).
 */
#include "pebs/uarch.h"

#include <stddef.h>

#define ALL_CORES 0
#define P_CORE 0x40
#define E_CORE 0x20

const struct pebs_uarch pebs_uarch_table[] = {
	/* Core 2 Merom/Clovertown: PEBS disabled by errata AJ67-AJ69, AJ106 (§7.1 L-CORE) */
	{ "Core 2 (Merom)", 6, { 0x0f }, ALL_CORES, 0, 0x1, 0, 0, 0, 0, 0, DSRC_NONE,
	  Q_PEBS_BROKEN | Q_BUF_ONE_PAGE, "§4.1 §7.1 L-DS L-CORE" },
	/* Core 2 Penryn/Dunnington: fmt 0, PEBS on PMC0, no load latency (§4.1, §6) */
	{ "Core 2 (Penryn)", 6, { 0x16, 0x17, 0x1d }, ALL_CORES, 0, 0x1, 0, 0, 0, 0, 0, DSRC_NONE,
	  Q_BUF_ONE_PAGE, "§4.1 §7.1 L-DS" },
	/* Nehalem / Westmere: fmt 1, LL 0x100B on PMC0-3 with LL_EN, store 0x010C (§6, S0) */
	{ "Nehalem/Westmere", 6, { 0x1a, 0x1e, 0x2e, 0x25, 0x2c, 0x2f }, ALL_CORES, 1, 0xf,
	  0x100b, 0xf, 0x010c, 0xf, 0, DSRC_NHM, Q_NHM_CTR_RESET | Q_MIN_PERIOD_32,
	  "§4.1 §5.3 §6 §7.1 S0 L-DS L-CORE" },
	/* Sandy Bridge / Ivy Bridge: fmt 1, LL 0x01CD PMC3 only, precise store 0x02CD + PS_EN */
	{ "Sandy/Ivy Bridge", 6, { 0x2a, 0x2d, 0x3a, 0x3e }, ALL_CORES, 1, 0xf, 0x01cd, 0x8,
	  0x02cd, 0x8, 0, DSRC_SNB, Q_PS_EN_STORE | Q_UCODE_GATE | Q_HT_ERRATUM,
	  "§4.1 §5.3 §6 §7.1 S1 SDMp691 L-DS" },
	/* Haswell / Broadwell: fmt 2, LL 0x01CD PMC0-3, DataLA store 0x82D0 */
	{ "Haswell/Broadwell", 6, { 0x3c, 0x3f, 0x45, 0x46, 0x3d, 0x47, 0x4f, 0x56 }, ALL_CORES,
	  2, 0xf, 0x01cd, 0xf, 0x82d0, 0xf, 0, DSRC_SNB, Q_HT_ERRATUM | Q_HSW_PERIOD,
	  "§4.1 §5.3 §6 §7.1 S4 L-DS" },
	/* Skylake client family: fmt 3 */
	{ "Skylake", 6, { 0x4e, 0x5e, 0x8e, 0x9e, 0xa5, 0xa6 }, ALL_CORES, 3, 0xf, 0x01cd, 0xf,
	  0x82d0, 0xf, 0, DSRC_SKL, Q_TFA_PMC3, "§4.1 §5.3 §6 §7.1 L-DS" },
	/* Skylake server (SKX/CLX/CPX): fmt 3, pmem data-source patch */
	{ "Skylake-SP", 6, { 0x55 }, ALL_CORES, 3, 0xf, 0x01cd, 0xf, 0x82d0, 0xf, 0,
	  DSRC_SKL_PMEM, Q_TFA_PMC3, "§4.1 §5.3 §6 L-DS" },
	/* Ice Lake / Tiger Lake / Rocket Lake client: baseline, LL on PMC0-7 */
	{ "Ice/Tiger Lake", 6, { 0x7d, 0x7e, 0x8c, 0x8d, 0xa7 }, ALL_CORES, 4, 0, 0x01cd, 0xff,
	  0x82d0, 0xf, 0, DSRC_SKL, 0, "§4.1 §5.3 §6 L-DS" },
	/* Ice Lake server */
	{ "Ice Lake-SP", 6, { 0x6a, 0x6c }, ALL_CORES, 4, 0, 0x01cd, 0xff, 0x82d0, 0xf, 0,
	  DSRC_SKL_PMEM, 0, "§4.1 §5.3 §6 L-DS" },
	/* Tremont (Snow Ridge, JSL/EHL, LKF): first adaptive part; no load-latency facility in
	 * Linux (§6 last row). QEMU's Icelake-Server CPU model also reports 06_86. */
	{ "Tremont", 6, { 0x86, 0x96, 0x9c }, ALL_CORES, 4, 0, 0, 0, 0, 0, 0, DSRC_NONE, 0,
	  "§4.1 §6 L-CORE intel_tnt_extra_regs" },
	/* Golden/Raptor Cove servers: SPR/EMR need MEM_LOADS_AUX; LL on PMC1-7, store PMC0 */
	{ "Sapphire/Emerald Rapids", 6, { 0x8f, 0xcf }, ALL_CORES, 0xff, 0, 0x01cd, 0xfe,
	  0x02cd, 0x1, 0x8203, DSRC_SKL_PMEM, Q_LL_NEEDS_AUX, "§5.3 §6 §7.1 L-DS L-CORE" },
	/* Granite Rapids: GLC tables, no aux requirement (§6 "not set for GNR") */
	{ "Granite Rapids", 6, { 0xad, 0xae }, ALL_CORES, 0xff, 0, 0x01cd, 0xfe, 0x02cd, 0x1, 0,
	  DSRC_SKL_PMEM, 0, "§5.3 §6 L-DS L-CORE" },
	/* Alder/Raptor Lake P-cores (hybrid): GLC, aux required */
	{ "Golden/Raptor Cove (ADL/RPL P)", 6, { 0x97, 0x9a, 0xb7, 0xba, 0xbf }, P_CORE, 0xff, 0,
	  0x01cd, 0xfe, 0x02cd, 0x1, 0x8203, DSRC_SKL, Q_LL_NEEDS_AUX, "§5.3 §6 §7.1 L-CORE" },
	/* Alder/Raptor Lake E-cores and ADL-N: Gracemont */
	{ "Gracemont", 6, { 0x97, 0x9a, 0xb7, 0xba, 0xbf, 0xbe }, E_CORE, 0xff, 0, 0x05d0, 0x3,
	  0x06d0, 0xf, 0, DSRC_GRT, 0, "§5.3 §6 L-DS intel_grt_pebs_event_constraints" },
	/* ADL-N is not hybrid: core type 0 */
	{ "Gracemont (ADL-N)", 6, { 0xbe }, ALL_CORES, 0xff, 0, 0x05d0, 0x3, 0x06d0, 0xf, 0,
	  DSRC_GRT, 0, "§5.3 §6 L-DS" },
	/* Meteor Lake / ARL-U P-cores (Redwood Cove): GLC events, no aux requirement */
	{ "Redwood Cove (MTL P)", 6, { 0xaa, 0xac, 0xb5 }, P_CORE, 0xff, 0, 0x01cd, 0xfe, 0x02cd,
	  0x1, 0, DSRC_SKL, 0, "§5.3 §6 L-CORE" },
	/* Crestmont: SRF/GRR (not hybrid) and MTL E-cores */
	{ "Crestmont", 6, { 0xaf, 0xb6 }, ALL_CORES, 0xff, 0, 0x05d0, 0x3, 0x06d0, 0xf, 0,
	  DSRC_CMT, 0, "§5.3 §6 L-DS cmt_latency_data" },
	{ "Crestmont (MTL E)", 6, { 0xaa, 0xac, 0xb5 }, E_CORE, 0xff, 0, 0x05d0, 0x3, 0x06d0, 0xf,
	  0, DSRC_CMT, 0, "§5.3 §6 L-DS" },
	/* Lion Cove P-cores: LNL/ARL/ARL-H, fmt 6, LL on PMC2-9, store PMC0-1 */
	{ "Lion Cove", 6, { 0xbd, 0xc6, 0xc5 }, P_CORE, 6, 0, 0x01cd, 0x3fc, 0x02cd, 0x3, 0,
	  DSRC_LNC, 0, "§4.1 §5.4 §6 L-DS lnc constraints" },
	/* Skymont E-cores of LNL/ARL */
	{ "Skymont", 6, { 0xbd, 0xc6, 0xc5 }, E_CORE, 6, 0, 0x05d0, 0x3, 0x06d0, 0xf, 0, DSRC_CMT,
	  0, "§4.1 §5.3 §6 L-DS" },
	/* Architectural-PEBS parts (fmt 0xF): PTL, CWF; DMR is family 19 (§4.1, §4.8) */
	{ "Panther Lake (arch PEBS)", 6, { 0xcc }, ALL_CORES, 0xf, 0, 0x01cd, 0x3fc, 0x02cd, 0x3,
	  0, DSRC_LNC, 0, "§4.1 §4.8 §5.4 L-PATCH" },
	{ "Clearwater Forest (arch PEBS)", 6, { 0xdd }, ALL_CORES, 0xf, 0, 0x05d0, 0x3, 0x06d0,
	  0xf, 0, DSRC_CMT, 0, "§4.1 §4.8 GH" },
	{ "Diamond Rapids (arch PEBS)", 19, { 0x01 }, ALL_CORES, 0xf, 0, 0x01cd, 0, 0x02cd, 0, 0,
	  DSRC_PNC, 0, "§4.1 §5.5 L-PATCH DMR" },
};
const unsigned pebs_uarch_count = sizeof(pebs_uarch_table) / sizeof(pebs_uarch_table[0]);

/* Baseline PEBS on an unknown model: PEBS on every counter, no model-specific event (§4.7). */
const struct pebs_uarch pebs_uarch_arch = {
	"architectural (baseline)", 0, { 0 }, ALL_CORES, 0xff, 0, 0, 0, 0, 0, 0, DSRC_NONE, 0,
	"§4.7 L-DS PMU_FL_PEBS_ALL",
};

/* PEBS broken below these microcode revisions (§7.1, L-CORE snb ucode check). */
static const struct pebs_ucode_gate ucode_gates[] = {
	{ 6, 0x2a, 7, 0x28 },	/* SNB */
	{ 6, 0x2d, 6, 0x618 },	/* SNB-EP */
	{ 6, 0x2d, 7, 0x70c },	/* SNB-EP */
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
