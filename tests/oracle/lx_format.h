/*
 * lx_format.h: Linux's perf_mem_data_src in the oracles' vocabulary (docs/tables.md "Linux
 * as the oracle"): "level snoop hit remote stlb lock", level and snoop as pebs_level_id /
 * pebs_snoop_id name them, the rest y/n/? . Included by the glue files (linux_glue.c,
 * ibs_glue.c) after the extracted Linux text, which defines the PERF_MEM_* names.
 */
#ifndef TESTS_ORACLE_LX_FORMAT_H
#define TESTS_ORACLE_LX_FORMAT_H

#include <stdio.h>

static const char *level(union perf_mem_data_src d)
{
	static const char *const num[16] = {
		[PERF_MEM_LVLNUM_L1] = "L1", [PERF_MEM_LVLNUM_L2] = "L2",
		[PERF_MEM_LVLNUM_L3] = "L3", [PERF_MEM_LVLNUM_L4] = "L4",
		[PERF_MEM_LVLNUM_L2_MHB] = "L2_MHB", [PERF_MEM_LVLNUM_MSC] = "MSC",
		[PERF_MEM_LVLNUM_CXL] = "CXL", [PERF_MEM_LVLNUM_ANY_CACHE] = "ANY_CACHE",
		[PERF_MEM_LVLNUM_LFB] = "LFB", [PERF_MEM_LVLNUM_RAM] = "RAM",
		[PERF_MEM_LVLNUM_PMEM] = "PMEM",
	};

	if (num[d.mem_lvl_num])
		return num[d.mem_lvl_num];
	if (d.mem_lvl & PERF_MEM_LVL_IO)
		return "IO";
	if (d.mem_lvl & PERF_MEM_LVL_UNC)
		return "UNCACHED";
	return "NA";
}

/* One name per snoop bit set, '|'-joined (Linux can set NONE|MISS). */
static void snoop(union perf_mem_data_src d, char *b, unsigned n)
{
	static const struct { unsigned bit; const char *name; } s[] = {
		{ PERF_MEM_SNOOP_NA, "NA" }, { PERF_MEM_SNOOP_NONE, "NONE" },
		{ PERF_MEM_SNOOP_HIT, "HIT" }, { PERF_MEM_SNOOP_MISS, "MISS" },
		{ PERF_MEM_SNOOP_HITM, "HITM" },
	};
	unsigned o = 0;

	b[0] = '\0';
	if (d.mem_snoopx & PERF_MEM_SNOOPX_FWD) {
		snprintf(b, n, "FWD");
		return;
	}
	for (unsigned i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		if (d.mem_snoop & s[i].bit)
			o += (unsigned)snprintf(b + o, n - o, "%s%s", o ? "|" : "", s[i].name);
	if (!o)
		snprintf(b, n, "NA");
}

static void lx_format(union perf_mem_data_src d, char *out, unsigned n)
{
	char sn[32];

	snoop(d, sn, sizeof(sn));
	snprintf(out, n, "%s %s %c %c %c %c", level(d), sn,
		 d.mem_lvl & PERF_MEM_LVL_HIT ? 'y' : d.mem_lvl & PERF_MEM_LVL_MISS ? 'n' : '?',
		 d.mem_remote ? 'y' : 'n',
		 d.mem_dtlb & PERF_MEM_TLB_MISS ? 'y' : d.mem_dtlb & PERF_MEM_TLB_HIT ? 'n' : '?',
		 d.mem_lock & PERF_MEM_LOCK_LOCKED ? 'y' : d.mem_lock & PERF_MEM_LOCK_NA ? '?' : 'n');
}

#endif
