/*
 * msr.h: the performance-monitoring MSRs the PEBS driver touches, with their bits, under their
 * SDM names (SDM Vol. 3B ch. 18/20 "Performance Monitoring", Vol. 4 MSR tables). Each block
 * cites the section of docs/hardware.md (§1.x) that sources it.
 */
#ifndef PEBS_MSR_H
#define PEBS_MSR_H

/* IA32_BIOS_SIGN_ID: microcode revision in bits 63:32 after WRMSR 0 + CPUID.1
 * (SDM Vol. 3A 10.11.7) */
#define MSR_IA32_BIOS_SIGN_ID		0x08b

/* Counters and event selects (§1.1, §1.2) */
#define MSR_IA32_PMC(i)			(0x0c1u + (i))	/* legacy: 32-bit writes, sign-extended */
#define MSR_IA32_PERFEVTSEL(i)		(0x186u + (i))
#define MSR_IA32_A_PMC(i)		(0x4c1u + (i))	/* full width, needs PERF_CAPABILITIES[13] */
#define MSR_IA32_FIXED_CTR(i)		(0x309u + (i))
#define  EVTSEL_EVENT_MASK		0x000000ffull
#define  EVTSEL_UMASK_MASK		0x0000ff00ull
#define  EVTSEL_USR			(1ull << 16)
#define  EVTSEL_OS			(1ull << 17)
#define  EVTSEL_EDGE			(1ull << 18)
#define  EVTSEL_PC			(1ull << 19)
#define  EVTSEL_INT			(1ull << 20)
#define  EVTSEL_ANY			(1ull << 21)
#define  EVTSEL_EN			(1ull << 22)
#define  EVTSEL_INV			(1ull << 23)
#define  EVTSEL_CMASK_MASK		0xff000000ull
#define  EVTSEL_IN_TX			(1ull << 32)
#define  EVTSEL_IN_TXCP			(1ull << 33)
#define  EVTSEL_ADAPTIVE		(1ull << 34)	/* ICL+ (§1.2, §4.4) */
#define  EVTSEL_CODE(v)			((uint16_t)((v) & 0xffffu))	/* umask<<8 | event */

/* IA32_FIXED_CTR_CTRL (§1.3): 4 bits per fixed counter; adaptive bit 32+4j */
#define MSR_IA32_FIXED_CTR_CTRL		0x38d
#define  FIXED_CTRL_OS(j)		(1ull << (4 * (j)))
#define  FIXED_CTRL_USR(j)		(1ull << (4 * (j) + 1))
#define  FIXED_CTRL_ANY(j)		(1ull << (4 * (j) + 2))
#define  FIXED_CTRL_PMI(j)		(1ull << (4 * (j) + 3))
#define  FIXED_CTRL_ADAPTIVE(j)		(1ull << (32 + 4 * (j)))

/* Global control and status, perfmon version >= 2 (§1.4) */
#define MSR_IA32_PERF_GLOBAL_STATUS	0x38e
#define MSR_IA32_PERF_GLOBAL_CTRL	0x38f
#define MSR_IA32_PERF_GLOBAL_OVF_CTRL	0x390	/* write 1 to clear STATUS bits */
#define  GLOBAL_FIXED(j)		(1ull << (32 + (j)))
#define  GLOBAL_STATUS_ARCH_PEBS	(1ull << 54)
#define  GLOBAL_STATUS_TOPA		(1ull << 55)
#define  GLOBAL_STATUS_LBR_FRZ		(1ull << 58)
#define  GLOBAL_STATUS_CTR_FRZ		(1ull << 59)
#define  GLOBAL_STATUS_ASIF		(1ull << 60)
#define  GLOBAL_STATUS_UNC_OVF		(1ull << 61)
#define  GLOBAL_STATUS_OVF_BUF		(1ull << 62)	/* DS buffer threshold (OvfBuffer) */
#define  GLOBAL_STATUS_COND_CHGD	(1ull << 63)

/* IA32_PERF_CAPABILITIES, present iff CPUID.1:ECX.PDCM (§1.9) */
#define MSR_IA32_PERF_CAPABILITIES	0x345
#define  PERF_CAP_LBR_FMT(v)		((unsigned)((v) & 0x3f))
#define  PERF_CAP_PEBS_TRAP		(1ull << 6)
#define  PERF_CAP_PEBS_ARCH_REG		(1ull << 7)
#define  PERF_CAP_PEBS_FMT(v)		((unsigned)(((v) >> 8) & 0xf))
#define  PERF_CAP_FREEZE_SMM		(1ull << 12)
#define  PERF_CAP_FW_WRITE		(1ull << 13)
#define  PERF_CAP_PEBS_BASELINE		(1ull << 14)
#define  PERF_CAP_PERF_METRICS		(1ull << 15)
#define  PERF_CAP_PEBS_OUTPUT_PT	(1ull << 16)
#define  PERF_CAP_PEBS_TIMING_INFO	(1ull << 17)

/* IA32_MISC_ENABLE (§1.10) */
#define MSR_IA32_MISC_ENABLE		0x1a0
#define  MISC_ENABLE_EMON		(1ull << 7)	/* performance monitoring available */
#define  MISC_ENABLE_BTS_UNAVAIL	(1ull << 11)
#define  MISC_ENABLE_PEBS_UNAVAIL	(1ull << 12)

/* MSR_TSX_FORCE_ABORT (Linux msr-index.h; Skylake-family TSX erratum microcode, §7.1) */
#define MSR_TSX_FORCE_ABORT		0x10f
#define  TFA_RTM_FORCE_ABORT		(1ull << 0)	/* abort RTM: PMC3 back to the OS */

/* IA32_DEBUGCTL (§1.10) */
#define MSR_IA32_DEBUGCTL		0x1d9
#define  DEBUGCTL_FREEZE_PERFMON_ON_PMI	(1ull << 12)
#define  DEBUGCTL_FREEZE_WHILE_SMM	(1ull << 14)

/* PEBS (§1.5, §1.6, §1.8) */
#define MSR_IA32_PEBS_ENABLE		0x3f1
#define  PEBS_EN_PMC(i)			(1ull << (i))
#define  PEBS_LL_EN_PMC(i)		(1ull << (32 + (i)))	/* perfmon < 5 */
#define  PEBS_EN_FIXED(j)		(1ull << (32 + (j)))	/* baseline, perfmon >= 5 */
#define  PEBS_PS_EN			(1ull << 63)		/* SNB/IVB precise store, PMC3 */
#define MSR_PEBS_DATA_CFG		0x3f2
#define  PEBS_DATACFG_MEMINFO		(1ull << 0)
#define  PEBS_DATACFG_GP		(1ull << 1)
#define  PEBS_DATACFG_XMMS		(1ull << 2)
#define  PEBS_DATACFG_LBRS		(1ull << 3)
#define  PEBS_DATACFG_LBR_SHIFT		24
#define  PEBS_DATACFG_CNTR		(1ull << 4)	/* format 6 counter group (§4.3) */
#define  PEBS_DATACFG_METRICS		(1ull << 5)
#define  PEBS_DATACFG_CNTR_SHIFT	32		/* 47:32 GP counters snapshotted */
#define  PEBS_DATACFG_FIX_SHIFT		48		/* 55:48 fixed counters */
#define MSR_IA32_PEBS_BASE		0x3f4	/* architectural PEBS (§4.8) */
#define MSR_IA32_PEBS_INDEX		0x3f5
#define MSR_PEBS_LD_LAT_THRESHOLD	0x3f6
#define  PEBS_LD_LAT_MASK		0xffffull
#define  PEBS_LD_LAT_MIN		3	/* SDM: minimum programmable value (§1.6) */
#define MSR_IA32_DS_AREA		0x600

#endif
