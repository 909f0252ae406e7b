/*
 * apic_regs.h: the local APIC register map, SDM-shaped (SDM Vol. 3A ch. 11 "Advanced
 * Programmable Interrupt Controller": Table 11-1 "Local APIC Register Address Map",
 * Table 11-6 "Local APIC Register Address Map Supported by x2APIC", 11.4.4 IA32_APIC_BASE,
 * 11.5.1 LVT, 11.5.3 ESR, 11.5.4 timer, 11.6.1 ICR, 11.9 SVR, 11.12.10 x2APIC self IPI).
 * Offsets are xAPIC MMIO offsets from the APIC base; the x2APIC MSR of a register is
 * 0x800 + offset / 16 (APIC_X2APIC_MSR). Each register's fields are indented under it.
 * Pure header: constants only.
 */
#ifndef APIC_APIC_REGS_H
#define APIC_APIC_REGS_H

/* IA32_APIC_BASE (MSR 0x1B), SDM 11.4.4 Figure 11-5 and 11.12.1 Table 11-5 (modes) */
#define MSR_IA32_APIC_BASE		0x1b
#define		APIC_BASE_BSP			(1ull << 8)	/* processor is BSP */
#define		APIC_BASE_EXTD			(1ull << 10)	/* x2APIC mode enable */
#define		APIC_BASE_EN			(1ull << 11)	/* APIC global enable */
#define		APIC_BASE_ADDR_MASK		0x000ffffffffff000ull	/* bits MAXPHYADDR-1:12 */
#define APIC_DEFAULT_PHYS_BASE		0xfee00000ull
#define APIC_MMIO_SIZE			0x1000ull

/* IA32_ARCH_CAPABILITIES (0x10A)[21] enumerates IA32_XAPIC_DISABLE_STATUS (0xBD)[0]:
 * LEGACY_XAPIC_DISABLED, i.e. firmware locked the APIC in x2APIC mode (SDM Vol. 4 Table 2-2). */
#define MSR_IA32_ARCH_CAPABILITIES	0x10a
#define		ARCH_CAP_XAPIC_DISABLE_STATUS	(1ull << 21)
#define MSR_IA32_XAPIC_DISABLE_STATUS	0xbd
#define		LEGACY_XAPIC_DISABLED		(1ull << 0)

/* IA32_TSC_DEADLINE (MSR 0x6E0), SDM 11.5.4.1 */
#define MSR_IA32_TSC_DEADLINE		0x6e0

/* x2APIC MSR for an xAPIC register offset (Table 11-6). */
#define APIC_X2APIC_MSR_BASE		0x800
#define APIC_X2APIC_MSR(off)		(APIC_X2APIC_MSR_BASE + ((off) >> 4))

/* Register offsets (Table 11-1); "xAPIC only" ones have no MSR in Table 11-6 (#GP there). */
#define APIC_ID		0x020	/* xAPIC: ID in bits 31:24; x2APIC: 32-bit ID, read-only */
#define		APIC_XAPIC_ID_SHIFT	24
#define APIC_LVR	0x030	/* Version */
#define		APIC_LVR_VERSION_MASK	0xffu
#define		APIC_LVR_MAXLVT_SHIFT	16	/* Max LVT Entry = number of LVT entries - 1 */
#define		APIC_LVR_MAXLVT_MASK	0xffu
#define APIC_TASKPRI	0x080	/* TPR */
#define APIC_ARBPRI	0x090	/* APR: xAPIC only */
#define APIC_PROCPRI	0x0a0	/* PPR */
#define APIC_EOI	0x0b0	/* write 0 (x2APIC: non-zero #GPs) */
#define APIC_RRR	0x0c0	/* Remote Read: xAPIC only */
#define APIC_LDR	0x0d0
#define APIC_DFR	0x0e0	/* xAPIC only */
#define APIC_SPIV	0x0f0	/* Spurious-Interrupt Vector Register (11.9, Figure 11-23) */
#define		APIC_SPIV_VECTOR_MASK	0xffu
#define		APIC_SPIV_APIC_ENABLED	(1u << 8)	/* APIC software enable */
#define		APIC_SPIV_FOCUS_DISABLED (1u << 9)
#define		APIC_SPIV_EOI_SUPPRESS	(1u << 12)
#define APIC_ISR	0x100	/* In-Service: 8 registers, 0x100..0x170 */
#define APIC_TMR	0x180	/* Trigger Mode: 0x180..0x1f0 */
#define APIC_IRR	0x200	/* Interrupt Request: 0x200..0x270 */
#define		APIC_VECTOR_REG_OFF(v)	(((v) >> 5) << 4)	/* register of vector v */
#define		APIC_VECTOR_BIT(v)	(1u << ((v) & 31))
#define APIC_ESR	0x280	/* Error Status (11.5.3, Figure 11-9); write before read */
#define		APIC_ESR_SEND_CS	(1u << 0)
#define		APIC_ESR_RECV_CS	(1u << 1)
#define		APIC_ESR_SEND_ACCEPT	(1u << 2)
#define		APIC_ESR_RECV_ACCEPT	(1u << 3)
#define		APIC_ESR_REDIR_IPI	(1u << 4)
#define		APIC_ESR_SEND_ILLEGAL	(1u << 5)
#define		APIC_ESR_RECV_ILLEGAL	(1u << 6)
#define		APIC_ESR_ILLEGAL_REG	(1u << 7)
#define APIC_LVTCMCI	0x2f0
#define APIC_ICR	0x300	/* ICR low; x2APIC: the whole 64-bit ICR at MSR 0x830 */
#define APIC_ICR2	0x310	/* ICR high: xAPIC only (destination in bits 31:24) */
#define		APIC_ICR2_DEST_SHIFT	24
#define APIC_LVTT	0x320	/* LVT Timer */
#define APIC_LVTTHMR	0x330	/* LVT Thermal Sensor */
#define APIC_LVTPC	0x340	/* LVT Performance Monitoring Counters */
#define APIC_LVT0	0x350	/* LVT LINT0 */
#define APIC_LVT1	0x360	/* LVT LINT1 */
#define APIC_LVTERR	0x370	/* LVT Error */
#define APIC_TMICT	0x380	/* timer Initial Count */
#define APIC_TMCCT	0x390	/* timer Current Count (read-only) */
#define APIC_TDCR	0x3e0	/* timer Divide Configuration (Figure 11-10) */
#define APIC_SELF_IPI	0x3f0	/* x2APIC only: MSR 0x83F, vector in bits 7:0 */

/* LVT entry fields (11.5.1, Figure 11-8) */
#define APIC_LVT_VECTOR_MASK		0xffu
#define APIC_LVT_DM_SHIFT		8		/* Delivery Mode, bits 10:8 */
#define APIC_LVT_DM_MASK		(7u << 8)
#define		APIC_DM_FIXED		0u
#define		APIC_DM_SMI		2u
#define		APIC_DM_NMI		4u
#define		APIC_DM_INIT		5u
#define		APIC_DM_EXTINT		7u
#define APIC_LVT_DELIVERY_STATUS	(1u << 12)	/* Send Pending (read-only) */
#define APIC_LVT_POLARITY_LOW		(1u << 13)	/* LINT only */
#define APIC_LVT_REMOTE_IRR		(1u << 14)	/* LINT only, read-only */
#define APIC_LVT_LEVEL_TRIGGER		(1u << 15)	/* LINT only */
#define APIC_LVT_MASKED			(1u << 16)
#define APIC_LVT_TIMER_MODE_SHIFT	17		/* Timer Mode, bits 18:17 (LVTT only) */
#define APIC_LVT_TIMER_MODE_MASK	(3u << 17)
#define		APIC_TIMER_ONESHOT	0u
#define		APIC_TIMER_PERIODIC	1u
#define		APIC_TIMER_TSC_DEADLINE	2u

/* ICR fields (11.6.1, Figure 11-12; x2APIC 11.12.9 Figure 11-28) */
#define APIC_ICR_VECTOR_MASK		0xffu
#define APIC_ICR_DM_SHIFT		8		/* Delivery Mode, same codes as LVT */
#define APIC_ICR_DEST_LOGICAL		(1u << 11)
#define APIC_ICR_BUSY			(1u << 12)	/* Delivery Status: xAPIC only */
#define APIC_ICR_LEVEL_ASSERT		(1u << 14)
#define APIC_ICR_TRIGGER_LEVEL		(1u << 15)
#define APIC_ICR_SHORTHAND_SHIFT	18		/* Destination Shorthand, bits 19:18 */
#define		APIC_DEST_NOSHORT	0u
#define		APIC_DEST_SELF		1u
#define		APIC_DEST_ALLINC	2u
#define		APIC_DEST_ALLBUT	3u
#define APIC_ICR_X2APIC_DEST_SHIFT	32		/* x2APIC: destination in bits 63:32 */

/* Legacy 8259A PIC ports (masked at init; not an APIC register, kept with the interrupt map) */
#define PIC1_CMD	0x20
#define PIC1_DATA	0x21
#define PIC2_CMD	0xa0
#define PIC2_DATA	0xa1

/* This kernel's vector assignments (SDM Vol. 3A 6.2: 32-255 are free for software; the
 * spurious vector's low nibble is 0xf for P6-era compatibility, 11.9). */
#define APIC_VEC_TIMER     0xe0
#define APIC_VEC_PMI       0xe8
#define APIC_VEC_ERROR     0xfe
#define APIC_VEC_SPURIOUS  0xff

enum apic_mode { APIC_DISABLED, APIC_XAPIC, APIC_X2APIC };
enum pmi_delivery { PMI_FIXED_VECTOR, PMI_NMI };

#endif
