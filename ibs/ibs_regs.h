/*
 * ibs_regs.h: AMD Instruction-Based Sampling (IBS) op-sampling registers, their fields and the
 * CPUID bits that enumerate them. Names follow AMD64 APM Vol. 2 "Instruction-Based Sampling"
 * and the family 17h/19h/1Ah PPR MSR descriptions (MSRC001_1033 IBS_OP_CTL ...); bit positions
 * as Linux arch/x86/include/asm/amd/ibs.h (union ibs_op_ctl/ibs_op_data/ibs_op_data2/
 * ibs_op_data3) and arch/x86/include/asm/perf_event.h (IBS_CAPS_*, IBSCTL_*). The facts with
 * their sources, and what is unverified: docs/ibs.md. Pure header: constants only.
 */
#ifndef IBS_IBS_REGS_H
#define IBS_IBS_REGS_H

/* CPUID (docs/ibs.md "Enumeration") */
#define IBS_CPUID_EXT_FEATURES		0x80000001u	/* ECX[10] = IBS */
#define		IBS_CPUID_ECX_IBS		(1u << 10)
#define IBS_CPUID_FEATURES		0x8000001bu	/* EAX = IBS feature flags */
#define		IBS_CAPS_AVAIL			(1u << 0)	/* IBSFFV: the flags are valid */
#define		IBS_CAPS_FETCHSAM		(1u << 1)
#define		IBS_CAPS_OPSAM			(1u << 2)
#define		IBS_CAPS_RDWROPCNT		(1u << 3)	/* IbsOpCurCnt read/write */
#define		IBS_CAPS_OPCNT			(1u << 4)	/* IbsOpCntCtl: count dispatched ops */
#define		IBS_CAPS_BRNTRGT		(1u << 5)
#define		IBS_CAPS_OPCNTEXT		(1u << 6)	/* IbsOpMaxCnt[26:20] extension */
#define		IBS_CAPS_RIPINVALIDCHK		(1u << 7)	/* IbsRipInvalid (OP_DATA[38]) */
#define		IBS_CAPS_OPBRNFUSE		(1u << 8)
#define		IBS_CAPS_FETCHCTLEXTD		(1u << 9)
#define		IBS_CAPS_OPDATA4		(1u << 10)
#define		IBS_CAPS_ZEN4			(1u << 11)	/* L3MissOnly + DataSrc[4:3] */
#define		IBS_CAPS_OPLDLAT		(1u << 12)	/* load-latency filter (Zen 5) */
#define		IBS_CAPS_DIS			(1u << 13)	/* CTL2 alternate disable bits */
#define		IBS_CAPS_FETCHLAT		(1u << 14)	/* FETCH_CTL2 latency filter */
#define		IBS_CAPS_BIT63_FILTER		(1u << 15)	/* CTL2 RIP[63] filters */
#define		IBS_CAPS_STRMST_RMTSOCKET	(1u << 16)	/* OP_DATA2 StrmSt, RmtSocket */
/* the capabilities that come with IBS_OP_CTL2/IBS_FETCH_CTL2 (Linux tip e267b4178134) */
#define		IBS_CAPS_CTL2			(IBS_CAPS_DIS | IBS_CAPS_FETCHLAT | \
						 IBS_CAPS_BIT63_FILTER | IBS_CAPS_STRMST_RMTSOCKET)
#define		IBS_CAPS_OPDTLBPGSIZE		(1u << 19)

/* MSRs (PPR "MSRC001_1030 ... MSRC001_103A") */
#define MSR_IBS_OP_CTL			0xc0011033u
#define MSR_IBS_OP_RIP			0xc0011034u
#define MSR_IBS_OP_DATA			0xc0011035u
#define MSR_IBS_OP_DATA2		0xc0011036u
#define MSR_IBS_OP_DATA3		0xc0011037u
#define MSR_IBS_DC_LINADDR		0xc0011038u
#define MSR_IBS_DC_PHYSADDR		0xc0011039u
#define MSR_IBS_CTL			0xc001103au
#define MSR_IBS_OP_DATA4		0xc001103du
#define MSR_IBS_OP_CTL2			0xc001103eu	/* Zen 6 (IBS_CAPS_CTL2) */
#define MSR_IBS_FETCH_CTL2		0xc001103fu

/* IBS_OP_CTL2 (Linux arch/x86/include/asm/perf_event.h IBS_OP_2_*, tip e267b4178134): any
 * bit set keeps op samples from this kernel (Dis stops op sampling; ExclRip63Eq1 drops ops
 * at kernel addresses, RIP[63] = 1; StrmStFilter samples streaming stores only) */
#define IBS_OP2_DIS			(1ull << 0)
#define IBS_OP2_EXCL_RIP_63_EQ_0	(1ull << 1)
#define IBS_OP2_EXCL_RIP_63_EQ_1	(1ull << 2)
#define IBS_OP2_STRM_ST_FILTER		(1ull << 3)
#define IBS_OP2_RESERVED		(~0xfull)

/* IBS_OP_CTL */
#define IBS_OP_MAX_CNT			0x000000000000ffffull	/* period / 16, bits 15:0 */
#define IBS_OP_L3MISSONLY		(1ull << 16)		/* Zen 4+ */
#define IBS_OP_EN			(1ull << 17)
#define IBS_OP_VAL			(1ull << 18)
#define IBS_OP_CNT_CTL			(1ull << 19)		/* 1: dispatched ops, 0: cycles */
#define IBS_OP_MAX_CNT_EXT_SHIFT	20
#define IBS_OP_MAX_CNT_EXT		(0x7full << 20)		/* period bits 22:16 (OpCntExt) */
#define IBS_OP_CUR_CNT_SHIFT		32
#define IBS_OP_CUR_CNT			(0x7ffffffull << 32)	/* 58:32, low 7 bits random */
#define IBS_OP_RESERVED			(0x1full << 27 | 0x1full << 59)	/* without OPLDLAT */
/* Load-latency filter (CPUID 8000_001BH:EAX[12] OpLdLat, Zen 5; PPR 1Ah MSRC001_1033;
 * Linux arch/x86/include/asm/perf_event.h IBS_OP_LDLAT_EN/THRSH): only loads with a latency
 * above (IbsOpLatThrsh + 1) * 128 cycles are sampled */
#define IBS_OP_LDLAT_THRSH_SHIFT	59
#define IBS_OP_LDLAT_THRSH		(0xfull << 59)		/* 62:59 IbsOpLatThrsh */
#define IBS_OP_LDLAT_EN			(1ull << 63)		/* IbsOpLdLatEn */
#define IBS_LDLAT_MIN			128u	/* cycles: threshold 0 */
#define IBS_LDLAT_MAX			2048u	/* threshold 15 */

/* IBS_OP_DATA */
#define IBS_OP_DATA_TAG_TO_RET_SHIFT	16			/* 31:16 tag-to-retire cycles */
#define IBS_OP_DATA_RIP_INVALID		(1ull << 38)

/* IBS_OP_DATA2 (valid for load ops only) */
#define IBS_DATA2_SRC_LO		0x7ull			/* DataSrc[2:0] */
#define IBS_DATA2_RMT_NODE		(1ull << 4)
#define IBS_DATA2_CACHE_HIT_ST		(1ull << 5)		/* 1: O state, 0: M state */
#define IBS_DATA2_SRC_HI_SHIFT		6
#define IBS_DATA2_SRC_HI		(0x3ull << 6)		/* DataSrc[4:3], Zen 4+ */
#define IBS_DATA2_STRM_ST		(1ull << 8)		/* with STRMST_RMTSOCKET */
#define IBS_DATA2_RMT_SOCKET		(1ull << 9)		/* with STRMST_RMTSOCKET */

/* IBS_OP_DATA3 */
#define IBS_DATA3_LD_OP			(1ull << 0)
#define IBS_DATA3_ST_OP			(1ull << 1)
#define IBS_DATA3_DC_L1TLB_MISS		(1ull << 2)
#define IBS_DATA3_DC_L2TLB_MISS		(1ull << 3)
#define IBS_DATA3_DC_L1TLB_HIT_2M	(1ull << 4)
#define IBS_DATA3_DC_L1TLB_HIT_1G	(1ull << 5)
#define IBS_DATA3_DC_L2TLB_HIT_2M	(1ull << 6)
#define IBS_DATA3_DC_MISS		(1ull << 7)
#define IBS_DATA3_DC_MIS_ACC		(1ull << 8)
#define IBS_DATA3_DC_WC_MEM_ACC		(1ull << 13)
#define IBS_DATA3_DC_UC_MEM_ACC		(1ull << 14)
#define IBS_DATA3_DC_LOCKED_OP		(1ull << 15)
#define IBS_DATA3_DC_MISS_NO_MAB_ALLOC	(1ull << 16)
#define IBS_DATA3_DC_LIN_ADDR_VALID	(1ull << 17)
#define IBS_DATA3_DC_PHY_ADDR_VALID	(1ull << 18)
#define IBS_DATA3_DC_L2TLB_HIT_1G	(1ull << 19)
#define IBS_DATA3_L2_MISS		(1ull << 20)
#define IBS_DATA3_SW_PF			(1ull << 21)
#define IBS_DATA3_DC_MISS_LAT_SHIFT	32			/* 47:32 IbsDcMissLat, cycles */
#define IBS_DATA3_DC_MISS_LAT		(0xffffull << 32)

/* IBS_CTL (MSRC001_103A, read-only copy of what firmware set) */
#define IBS_CTL_LVT_OFFSET		0xfull			/* 3:0 LvtOffset */
#define IBS_CTL_LVT_OFFSET_VALID	(1ull << 8)		/* LvtOffsetVal */

#endif
