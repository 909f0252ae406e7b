/*
 * ibs_tables.c: the IBS facts that are data: which Zen family/model range decodes how
 * (struct ibs_family) and the two DataSrc tables (IBS_OP_DATA2 DataSrc[2:0] before Zen 4,
 * DataSrc[4:0] from Zen 4) mapped to the project's levels. Sources per row; the reasoning and
 * the PPR wording: docs/ibs.md "Families", "DataSrc", "Errata".
 */
#include "ibs/ibs_decode.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const struct ibs_family families[] = {
	{ .name = "Zen 1-2", .family = 0x17, .model_lo = 0x00, .model_hi = 0xff,
	  .table = IBS_DS_LEGACY, .l2miss = false, .erratum_1293 = false, .hit_st_valid = true,
	  .source = "PPR 17h IBS_OP_DATA2/3; L2Miss not decoded (docs/ibs.md: unverified)" },
	{ .name = "Zen 3", .family = 0x19, .model_lo = 0x00, .model_hi = 0x0f,
	  .table = IBS_DS_LEGACY, .l2miss = true, .erratum_1293 = true, .hit_st_valid = false,
	  .source = "PPR 19h M01h; erratum 1293 and CacheHitSt: Linux ibs.c "
		    "perf_ibs_get_op_data2(), perf_ibs_cache_hit_st_valid()" },
	{ .name = "Zen 4", .family = 0x19, .model_lo = 0x10, .model_hi = 0x1f,
	  .table = IBS_DS_EXT, .l2miss = true, .erratum_1293 = false, .hit_st_valid = true,
	  .source = "PPR 19h M11h (Genoa); CPUID 8000_001BH EAX[11]" },
	{ .name = "Zen 3", .family = 0x19, .model_lo = 0x20, .model_hi = 0x5f,
	  .table = IBS_DS_LEGACY, .l2miss = true, .erratum_1293 = false, .hit_st_valid = false,
	  .source = "PPR 19h M21h/M50h; CacheHitSt: Linux ibs.c perf_ibs_cache_hit_st_valid()" },
	{ .name = "Zen 4", .family = 0x19, .model_lo = 0x60, .model_hi = 0x7f,
	  .table = IBS_DS_EXT, .l2miss = true, .erratum_1293 = false, .hit_st_valid = true,
	  .source = "PPR 19h M61h/M70h (Raphael, Phoenix); CPUID 8000_001BH EAX[11]" },
	{ .name = "Zen 4", .family = 0x19, .model_lo = 0xa0, .model_hi = 0xaf,
	  .table = IBS_DS_EXT, .l2miss = true, .erratum_1293 = false, .hit_st_valid = true,
	  .source = "PPR 19h MA0h (Bergamo, Siena); CPUID 8000_001BH EAX[11]" },
	/* Zen 6 before the Zen 5 catch-all (ibs/amd_zen.c ranges; first match wins) */
	{ .name = "Zen 6", .family = 0x1a, .model_lo = 0x50, .model_hi = 0x5f,
	  .table = IBS_DS_EXT, .l2miss = true, .erratum_1293 = false, .hit_st_valid = true,
	  .strmst_rmtsocket = true,
	  .source = "Linux amd.c X86_FEATURE_ZEN6 ranges; DATA2 StrmSt/RmtSocket by CPUID "
		    "8000_001BH EAX[16] (Linux tip e267b4178134)" },
	{ .name = "Zen 6", .family = 0x1a, .model_lo = 0x80, .model_hi = 0xaf,
	  .table = IBS_DS_EXT, .l2miss = true, .erratum_1293 = false, .hit_st_valid = true,
	  .strmst_rmtsocket = true,
	  .source = "Linux amd.c X86_FEATURE_ZEN6 ranges" },
	{ .name = "Zen 6", .family = 0x1a, .model_lo = 0xc0, .model_hi = 0xcf,
	  .table = IBS_DS_EXT, .l2miss = true, .erratum_1293 = false, .hit_st_valid = true,
	  .strmst_rmtsocket = true,
	  .source = "Linux amd.c X86_FEATURE_ZEN6 ranges" },
	{ .name = "Zen 6", .family = 0x1a, .model_lo = 0xd8, .model_hi = 0xef,
	  .table = IBS_DS_EXT, .l2miss = true, .erratum_1293 = false, .hit_st_valid = true,
	  .strmst_rmtsocket = true,
	  .source = "Linux amd.c X86_FEATURE_ZEN6 ranges (D0-D7 stay Zen 5: ibs/amd_zen.c)" },
	{ .name = "Zen 5", .family = 0x1a, .model_lo = 0x00, .model_hi = 0xff,
	  .table = IBS_DS_EXT, .l2miss = true, .erratum_1293 = false, .hit_st_valid = true,
	  .erratum_1606 = true,
	  .source = "PPR 1Ah M02h (Turin); CPUID 8000_001BH EAX[11]; erratum 1606 (Revision "
		    "Guide 1Ah M00h-0Fh): Linux perf_ibs_init() sets L3MissOnly with LdLatEn on "
		    "every ZEN5 part (898138efc990), so here on every Zen 5 row" },
};

const struct ibs_family *ibs_family_lookup(unsigned family, unsigned model)
{
	for (unsigned i = 0; i < ARRAY_SIZE(families); i++)
		if (families[i].family == family && model >= families[i].model_lo &&
		    model <= families[i].model_hi)
			return &families[i];
	return 0;
}

const struct ibs_family *ibs_family_at(unsigned i)
{
	return i < ARRAY_SIZE(families) ? &families[i] : 0;
}

/* DataSrc[2:0], PPR 17h/19h (Zen 1-3) IBS_OP_DATA2; Linux amd/ibs.h IBS_DATA_SRC_*. */
static const struct ibs_dsrc_row legacy[8] = {
	[0] = { .level = PEBS_LVL_NA, .valid = false, .ppr = "no valid status" },
	[1] = { .level = PEBS_LVL_NA, .valid = false, .ppr = "reserved" },
	[2] = { .level = PEBS_LVL_L3, .valid = true,
		.ppr = "local cache: L3 or another core's cache in the CCX" },
	[3] = { .level = PEBS_LVL_RAM, .valid = true, .rmt_node_applies = true, .ppr = "DRAM" },
	[4] = { .level = PEBS_LVL_ANY_CACHE, .remote = true, .valid = true,
		.ppr = "remote cache: another CCX" },
	[5] = { .level = PEBS_LVL_NA, .valid = false, .ppr = "reserved" },
	[6] = { .level = PEBS_LVL_NA, .valid = false, .ppr = "reserved" },
	[7] = { .level = PEBS_LVL_IO, .valid = true, .ppr = "other: MMIO/config/PCI/APIC" },
};

/* DataSrc[4:0], PPR 19h M11h and 1Ah (Zen 4, Zen 5) IBS_OP_DATA2; Linux amd/ibs.h
 * IBS_DATA_SRC_EXT_*; RmtNode applies as Linux ibs.c ZEN4_RMT_NODE_BITS. */
static const struct ibs_dsrc_row ext[32] = {
	[0] = { .level = PEBS_LVL_NA, .valid = false, .ppr = "no valid status" },
	[1] = { .level = PEBS_LVL_L3, .valid = true,
		.ppr = "local L3 or other L1/L2 in the CCX" },
	[2] = { .level = PEBS_LVL_ANY_CACHE, .remote = true, .valid = true,
		.ppr = "peer cache in a near CCX" },
	[3] = { .level = PEBS_LVL_RAM, .valid = true, .rmt_node_applies = true, .ppr = "DRAM" },
	[5] = { .level = PEBS_LVL_ANY_CACHE, .remote = true, .valid = true,
		.ppr = "peer cache in a far CCX" },
	[6] = { .level = PEBS_LVL_PMEM, .valid = true, .rmt_node_applies = true,
		.ppr = "DRAM address map with the long-latency bit" },
	[7] = { .level = PEBS_LVL_IO, .valid = true, .ppr = "MMIO/config/PCI/APIC" },
	[8] = { .level = PEBS_LVL_CXL, .valid = true, .rmt_node_applies = true,
		.ppr = "extension memory (CXL)" },
	[12] = { .level = PEBS_LVL_NA, .valid = true, .ppr = "peer agent memory" },
};

const struct ibs_dsrc_row *ibs_dsrc_row(unsigned table, unsigned code)
{
	static const struct ibs_dsrc_row reserved = { .level = PEBS_LVL_NA, .ppr = "reserved" };
	const struct ibs_dsrc_row *r;

	if (table == IBS_DS_LEGACY && code < ARRAY_SIZE(legacy))
		r = &legacy[code];
	else if (table == IBS_DS_EXT && code < ARRAY_SIZE(ext))
		r = &ext[code];
	else
		return &reserved;
	return r->ppr ? r : &reserved;
}

const char *ibs_dsrc_table_name(unsigned table)
{
	return table == IBS_DS_EXT ? "ibs-ext" : table == IBS_DS_LEGACY ? "ibs-legacy" : "none";
}
