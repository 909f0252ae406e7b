/*
 * ibs_glue.c: the IBS oracle's entry point (ibs_glue.h), compiled after the Linux text that
 * tests/scripts/ibs_oracle.t extracts from arch/x86/events/amd/ibs.c (it #includes this file
 * at the end of build/ibs-oracle/linux_part.c). Runs what perf_ibs_parse_ld_st_data() runs for
 * the data source (perf_ibs_get_mem_op, perf_ibs_get_op_data2 with erratum 1293,
 * perf_ibs_get_data_src) on the CPU and IBS capabilities given, and says the result in the
 * oracles' vocabulary (lx_format.h).
 */
#include "tests/oracle/lx_format.h"

/* include/linux/perf_event.h PERF_MEM_NA: what perf_ibs_parse_ld_st_data() starts from */
#define PERF_MEM_NA (PERF_MEM_S(OP, NA) | PERF_MEM_S(LVL, NA) | PERF_MEM_S(SNOOP, NA) | \
		     PERF_MEM_S(LOCK, NA) | PERF_MEM_S(TLB, NA) | PERF_MEM_S(LVLNUM, NA))

void ibs_lx_decode(unsigned family, unsigned model, uint32_t caps, uint64_t data2,
		   uint64_t data3, char *out, unsigned n)
{
	struct perf_ibs_data ibs_data = { .regs = { 0 } };
	struct perf_sample_data data;
	union ibs_op_data3 op_data3 = { .val = data3 };
	union ibs_op_data2 op_data2;

	boot_cpu_data.x86 = family;
	boot_cpu_data.x86_model = model;
	ibs_caps = caps;
	ibs_data.regs[ibs_op_msr_idx(MSR_AMD64_IBSOPDATA2)] = data2;
	ibs_data.regs[ibs_op_msr_idx(MSR_AMD64_IBSOPDATA3)] = data3;
	data.data_src.val = PERF_MEM_NA;
	perf_ibs_get_mem_op(&op_data3, &data);
	op_data2.val = perf_ibs_get_op_data2(&ibs_data, &op_data3);
	perf_ibs_get_data_src(&ibs_data, &data, &op_data2, &op_data3);
	lx_format(data.data_src, out, n);
}
