/*
 * linux_glue.h: what Linux's arch/x86/events/intel/ds.c data-source code needs to compile on
 * the host, and the interface the oracle driver calls (tests/scripts/linux_oracle.t). The
 * Linux text itself is extracted from the installed linux-source tarball at test time into
 * build/linux-oracle/ and never enters the repository; this file is ours. The kernel's
 * context is reduced to what the decode functions read: the table they index
 * (hybrid_var(pmu, pebs_data_source)), x86_pmu.pebs_no_tlb / pebs_block, and the event's
 * load/store flags.
 */
#ifndef TESTS_ORACLE_LINUX_GLUE_H
#define TESTS_ORACLE_LINUX_GLUE_H

#include <stdint.h>

/* The table set-ups Linux's intel_pmu_init picks (core.c), by the function that builds them. */
enum lx_setup {
	LX_TABLE_A,	/* pebs_data_source[] as is (SNB..BDW) */
	LX_NHM,		/* + intel_pmu_pebs_data_source_nhm */
	LX_SKL,		/* + __intel_pmu_pebs_data_source_skl(false) */
	LX_SKL_PMEM,	/* + __intel_pmu_pebs_data_source_skl(true) */
	LX_GRT,		/* + __intel_pmu_pebs_data_source_grt */
	LX_CMT,		/* + __intel_pmu_pebs_data_source_cmt */
	LX_LNC,		/* lnc_pebs_data_source[] */
};

/* The decode function x86_pmu.pebs_latency_data (or the fixed one) that reads the word. */
enum lx_fn { LX_LOAD_LATENCY, LX_STORE_LATENCY, LX_GRT_LATENCY, LX_CMT_LATENCY, LX_LNC_LATENCY };

void lx_setup(enum lx_setup s, int pebs_no_tlb, int pebs_block);
/* Linux's perf_mem_data_src for this aux word, as our vocabulary: "level snoop hit remote
 * stlb lock" (level/snoop as pebs_level_id/pebs_snoop_id name them, the rest y/n/?). */
void lx_decode(enum lx_fn fn, int store, uint64_t status, char *out, unsigned n);

#endif
