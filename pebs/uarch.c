/*
 * uarch.c: lookups over the microarchitecture table (see uarch.h). The rows themselves are
 * generated into pebs/pmu_tables.c (tools/gen-tables.py, `make tables`) from Intel perfmon
 * and data/tables/uarch.toml; this file keeps the architectural fallback row, the microcode
 * gates and the lookups. SDM Vol. 3B ch. 20 (ch. 18 in editions before 2022): PEBS
 * facilities per microarchitecture.
 */
#include "pebs/uarch.h"

#include <stddef.h>

#define ALL_CORES 0
#define P_CORE 0x40

/* Baseline PEBS on an unknown model: PEBS on every counter, no model-specific event. */
const struct pebs_uarch pebs_uarch_arch = {
	.name = "architectural (baseline)", .family = 0, .model = 0,
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

const struct pebs_uarch *pebs_uarch_find(uint32_t family, uint32_t model, uint8_t core_type,
					 uint32_t native)
{
	const struct pebs_uarch *any = NULL, *type = NULL;

	for (unsigned i = 0; i < pebs_uarch_count; i++) {
		const struct pebs_uarch *u = &pebs_uarch_table[i];

		if (u->family != family || u->model != model)
			continue;
		if (u->core_type && u->core_type == core_type) {
			if (native && u->native == native)
				return u;
			if (!type)
				type = u;
		}
		if (!u->core_type && !any)
			any = u;
	}
	if (type)
		return type;
	/* A die without E-cores of a hybrid model (i5-12400: 06_97H with CPUID.07H:EDX[15] = 0,
	 * so no CPUID.1AH core type) has only P-cores: the P-core row. */
	if (!any && !core_type)
		return pebs_uarch_find(family, model, P_CORE, 0);
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
		[DSRC_ARW] = "arw",
	};

	if ((unsigned)id < sizeof(names) / sizeof(names[0]) && names[id])
		return names[id];
	return "?";
}
