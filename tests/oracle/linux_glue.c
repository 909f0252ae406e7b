/*
 * linux_glue.c: the oracle's entry points (linux_glue.h), compiled after the Linux text that
 * tests/scripts/linux_oracle.t extracts (it #includes this file at the end of the generated
 * build/linux-oracle/linux_part.c). Builds each table the way core.c intel_pmu_init does and
 * turns Linux's perf_mem_data_src into our vocabulary (docs/tables.md "Linux as the oracle").
 */
#include <stdio.h>

static u64 pristine[PERF_PEBS_DATA_SOURCE_MAX];
static u64 built[PERF_PEBS_DATA_SOURCE_MAX];
static bool saved;

void lx_setup(enum lx_setup s, int pebs_no_tlb, int pebs_block)
{
	if (!saved) {
		memcpy(pristine, pebs_data_source, sizeof(pristine));
		saved = true;
	}
	memcpy(pebs_data_source, pristine, sizeof(pristine));
	memcpy(built, pristine, sizeof(built));
	switch (s) {
	case LX_TABLE_A:
		break;
	case LX_NHM:
		intel_pmu_pebs_data_source_nhm();
		memcpy(built, pebs_data_source, sizeof(built));
		break;
	case LX_SKL:
	case LX_SKL_PMEM:
		__intel_pmu_pebs_data_source_skl(s == LX_SKL_PMEM, built);
		break;
	case LX_GRT:
		__intel_pmu_pebs_data_source_grt(built);
		break;
	case LX_CMT:
		__intel_pmu_pebs_data_source_cmt(built);
		break;
	case LX_LNC:
		memcpy(built, lnc_pebs_data_source, sizeof(built));
		break;
	}
	lx_table = built;
	x86_pmu.pebs_no_tlb = pebs_no_tlb;
	x86_pmu.pebs_block = pebs_block;
}

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

void lx_decode(enum lx_fn fn, int store, uint64_t status, char *out, unsigned n)
{
	struct x86_hybrid_pmu pmu = { .pmu_type = fn == LX_LNC_LATENCY ? hybrid_big : hybrid_small };
	struct perf_event ev = { .pmu = &pmu };
	union perf_mem_data_src d;
	char sn[32];

	ev.hw.flags = store ? PERF_X86_EVENT_PEBS_STLAT : PERF_X86_EVENT_PEBS_LDLAT;
	switch (fn) {
	case LX_LOAD_LATENCY:
		d.val = load_latency_data(&ev, status);
		break;
	case LX_STORE_LATENCY:
		d.val = store_latency_data(&ev, status);
		break;
	case LX_GRT_LATENCY:
		d.val = grt_latency_data(&ev, status);
		break;
	case LX_CMT_LATENCY:
		d.val = cmt_latency_data(&ev, status);
		break;
	default:
		d.val = lnc_latency_data(&ev, status);
		break;
	}
	snoop(d, sn, sizeof(sn));
	snprintf(out, n, "%s %s %c %c %c %c", level(d), sn,
		 d.mem_lvl & PERF_MEM_LVL_HIT ? 'y' : d.mem_lvl & PERF_MEM_LVL_MISS ? 'n' : '?',
		 d.mem_remote ? 'y' : 'n',
		 d.mem_dtlb & PERF_MEM_TLB_MISS ? 'y' : d.mem_dtlb & PERF_MEM_TLB_HIT ? 'n' : '?',
		 d.mem_lock & PERF_MEM_LOCK_LOCKED ? 'y' : d.mem_lock & PERF_MEM_LOCK_NA ? '?' : 'n');
}
