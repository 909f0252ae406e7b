/*
 * ibs_caps.h: the AMD IBS probe, read once into struct ibs_caps (AMD64 APM Vol. 2
 * "Instruction-Based Sampling": CPUID Fn8000_0001_ECX[IBS], Fn8000_001B_EAX feature flags;
 * PPR MSRC001_103A IBS_CTL). Every later decision is ibs_caps_ok(c, &why), which hands back the
 * exact SKIP reason. Linux arch/x86/events/amd/ibs.c __get_ibs_caps(), ibs_eilvt_valid().
 * Facts: docs/ibs.md "Enumeration", "Interrupt".
 */
#ifndef IBS_IBS_CAPS_H
#define IBS_IBS_CAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/cpu.h"
#include "ibs/ibs_decode.h"

#define IBS_REASON_LEN 128

struct ibs_caps {
	enum cpu_vendor vendor;
	uint32_t family, model;
	bool msr;			/* CPUID.01H:EDX[5] */
	bool cpuid_ibs;			/* CPUID 8000_0001H:ECX[10] */
	bool ext_apic;			/* CPUID 8000_0001H:ECX[3] ExtApicSpace */
	uint32_t max_ext_leaf;
	uint32_t flags;			/* 8000_001BH EAX, or the Linux default when absent */
	bool flags_read;		/* leaf 8000_001BH present and its IBSFFV bit set */
	uint64_t ibs_ctl;		/* MSRC001_103A */
	int ibs_ctl_fault;		/* vector, 0 fine, -1 not read */
	unsigned lvt_offset;
	bool hypervisor;
	const struct ibs_family *fam;	/* NULL: no decoder row */
	bool ext_dsrc;			/* DataSrc[4:3] present (flags bit 11) */
	char why[IBS_REASON_LEN];	/* "" when op sampling can run */
};

void ibs_caps_probe(struct ibs_caps *c, const struct cpu_info *ci);
/* From the global `cpu`, once. */
const struct ibs_caps *ibs_caps_init(void);
bool ibs_caps_ok(const struct ibs_caps *c, const char **why);
/* Longest op period the control register can hold (16 ops per MaxCnt unit). */
uint64_t ibs_caps_max_period(const struct ibs_caps *c);

/* `# pmu:` header lines for the AMD path: line i into b (without "# " and newline). */
bool ibs_caps_line(const struct ibs_caps *c, unsigned i, char *b, size_t n);
void ibs_caps_print(const struct ibs_caps *c);

#endif
