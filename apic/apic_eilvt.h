/*
 * apic_eilvt.h: AMD's extended local-APIC interrupt LVT entries (AMD64 APM Vol. 2 "Local APIC":
 * "Extended APIC Feature Register" at offset 400h, ExtLvtCount in bits 23:16, and "Extended
 * Interrupt [3:0] Local Vector Table Registers" at 500h + 10h*n; in x2APIC mode the MSR
 * 800h + offset/16, as every other register: Linux arch/x86/kernel/apic/apic.c
 * setup_APIC_eilvt() goes through apic_read/apic_write in both modes). An entry has the LVT
 * layout: vector 7:0, message type 10:8 (000b fixed, 100b NMI), mask 16. The IBS interrupt
 * uses the entry IBS_CTL names (ibs/ibs.c). Entries are read and written through apic/'s ops,
 * so xAPIC (MMIO) and x2APIC (MSR) differ only there.
 */
#ifndef APIC_APIC_EILVT_H
#define APIC_APIC_EILVT_H

#include <stdbool.h>
#include <stdint.h>

#define APIC_EFEAT		0x400	/* Extended APIC Feature Register */
#define		APIC_EFEAT_XLC_SHIFT	16	/* ExtLvtCount 23:16 */
#define APIC_EILVT(n)		(0x500u + 0x10u * (n))
#define APIC_EILVT_MAX		4u	/* 500h..530h */
#define APIC_EILVT_MSG_FIX	0u
#define APIC_EILVT_MSG_NMI	4u
#define APIC_EILVT_MASKED	(1u << 16)

/* ExtLvtCount (0 without an APIC or extended space). */
unsigned apic_eilvt_count(void);
/* Entry n: false (nothing read/written) when n >= the count or APIC_EILVT_MAX. */
bool apic_eilvt_read(unsigned n, uint32_t *v);
bool apic_eilvt_write(unsigned n, uint32_t v);
/* Entry value: vector, fixed or NMI, masked or not. */
uint32_t apic_eilvt_entry(uint8_t vector, bool nmi, bool masked);

#endif
