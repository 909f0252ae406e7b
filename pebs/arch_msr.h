/*
 * arch_msr.h: architectural-PEBS registers and CPUID leaf 23H bits under their SDM/ISE names
 * (docs/arch-pebs.md "Enumeration" and "Registers"; Linux msr-index.h ARCH_PEBS_*,
 * MSR_IA32_PMC_V6_*, perf_event.h union arch_pebs_index, union cpuid35_eax). The addresses
 * IA32_PEBS_BASE/INDEX and GLOBAL_STATUS[54] are in pebs/msr.h.
 */
#ifndef PEBS_ARCH_MSR_H
#define PEBS_ARCH_MSR_H

/* IA32_PEBS_BASE: physical base (4 KiB aligned) | size code (buffer = 4 KiB << code) */
#define  ARCH_BASE_SIZE_MASK		0xfull
#define  ARCH_BASE_RSVD_MASK		0xff0ull	/* 11:4 */
#define  ARCH_BASE_MAX_CODE		15u

/* IA32_PEBS_INDEX */
#define  ARCH_INDEX_WR_SHIFT		4		/* 26:4 write offset, 16-B units */
#define  ARCH_INDEX_WR_MASK		(0x7fffffull << 4)
#define  ARCH_INDEX_FULL		(1ull << 31)
#define  ARCH_INDEX_EN			(1ull << 32)
#define  ARCH_INDEX_THRESH_SHIFT	36		/* 58:36 threshold, 16-B units */
#define  ARCH_INDEX_THRESH_MASK		(0x7fffffull << 36)
#define  ARCH_INDEX_RSVD_MASK		(~(ARCH_INDEX_WR_MASK | ARCH_INDEX_FULL | ARCH_INDEX_EN | \
					   ARCH_INDEX_THRESH_MASK))
#define  ARCH_INDEX_WR(v)		(((v) & ARCH_INDEX_WR_MASK) >> ARCH_INDEX_WR_SHIFT)
#define  ARCH_INDEX_THRESH(v)		(((v) & ARCH_INDEX_THRESH_MASK) >> ARCH_INDEX_THRESH_SHIFT)

/* IA32_PMC_GPi_CFG_C / IA32_PMC_FXj_CFG_C (perfmon v6 counter MSRs, stride 4) */
#define MSR_IA32_PMC_GP_CFG_C(i)	(0x1903u + 4u * (i))
#define MSR_IA32_PMC_FX_CFG_C(j)	(0x1983u + 4u * (j))
#define  CFG_C_RELOAD_MASK		0xffffffffull	/* 31:0 reload value */
#define  CFG_C_CNTR_ALLOW		(1ull << 35)	/* may appear in a snapshot */
#define  CFG_C_CNTR_GP			(1ull << 36)	/* snapshot GP counters */
#define  CFG_C_CNTR_FIXED		(1ull << 37)	/* snapshot fixed counters */
#define  CFG_C_CNTR_METRICS		(1ull << 38)
#define  CFG_C_LBR_SHIFT		40
#define  CFG_C_LBR			(3ull << CFG_C_LBR_SHIFT)
#define  CFG_C_XMM			(1ull << 49)
#define  CFG_C_GPR			(1ull << 61)
#define  CFG_C_AUX			(1ull << 62)
#define  CFG_C_PEBS_EN			(1ull << 63)
/* group bits a CFG_C may only set when CPUID.23H.4:EBX enumerates them (EBX bit k = bit
 * 32+k), per Linux intel_pmu_enable_event_ext */
#define  CFG_C_GROUPS			(CFG_C_CNTR_ALLOW | CFG_C_CNTR_GP | CFG_C_CNTR_FIXED | \
					 CFG_C_CNTR_METRICS | CFG_C_LBR | CFG_C_XMM | CFG_C_GPR | \
					 CFG_C_AUX)

/* CPUID: ArchPerfmonExt = CPUID.(07H,1):EAX[8]; leaf 23H sub-leaf 0 EAX bits */
#define CPUID_7_1_EAX_ARCH_PERFMON_EXT	(1u << 8)
#define CPUID_23_0_EAX_CNTR		(1u << 1)
#define CPUID_23_0_EAX_PEBS_CAPS	(1u << 4)
#define CPUID_23_0_EAX_PEBS_CNTRS	(1u << 5)

#endif
