/*
 * linux_glue.c: the oracle's entry points (linux_glue.h), compiled after the Linux text that
 * tests/scripts/linux_oracle.t extracts (it #includes this file at the end of the generated
 * build/linux-oracle/linux_part.c). Builds each table the way core.c intel_pmu_init does and
 * turns Linux's perf_mem_data_src into our vocabulary (docs/tables.md "Linux as the oracle").
 */
#include <stdio.h>

#include "tests/oracle/lx_format.h"

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

void lx_decode(enum lx_fn fn, int store, uint64_t status, char *out, unsigned n)
{
	struct x86_hybrid_pmu pmu = { .pmu_type = fn == LX_LNC_LATENCY ? hybrid_big : hybrid_small };
	struct perf_event ev = { .pmu = &pmu };
	union perf_mem_data_src d;

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
	lx_format(d, out, n);
}
