/*
 * preflight_hw.h: kernel/hw.h for build/host/pebs-preflight. CPUID comes from the CPU the
 * program is pinned to (sched_setaffinity) or from a saved dump (tools/cpuid_dump.h). Of the
 * MSRs only the capability MSRs the kernel's probe reads are looked up: --msr values first,
 * then /dev/cpu/N/msr (root and the msr module), the microcode revision from Linux's sysfs, or
 * the dump's MSR lines; one that none of them has is "not read" (rdmsr_safe returns -1, which
 * pebs/caps_print.c prints as "(not read)"). PMU programming MSRs read 0 and writes are dropped:
 * the preflight never changes a counter. Ports read 0xff (no PIT, no UART), MMIO all ones.
 */
#ifndef TOOLS_PREFLIGHT_HW_H
#define TOOLS_PREFLIGHT_HW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tools/cpuid_dump.h"

/* The capability MSRs (SDM Vol. 4, Table 2-2 for the IA32_ ones; MSR_PEBS_LD_LAT_THRESHOLD
 * SDM Vol. 3B 20.3.1.1.2; IBS_CTL MSRC001_103A, AMD PPR) and what each decides in the
 * kernel's probes (pebs/caps.c, ibs/ibs_caps.c). */
struct pf_msr_def {
	const char *name;
	uint32_t msr;
	const char *decides;
};

#define PF_NMSR 5
extern const struct pf_msr_def pf_msr_defs[PF_NMSR];

/* CPUID and MSR lines of dump CPU `cpu`. */
void pf_hw_use_dump(const struct cpuid_dump *d, unsigned cpu);
/* Pin to Linux CPU `cpu` and open its /dev/cpu/N/msr if that is readable: 0, or -1 and err. */
int pf_hw_use_live(unsigned cpu, char *err, size_t n);
/* "NAME=VALUE" or "0xADDR=VALUE" for one of pf_msr_defs: 0, or -1 and err. */
int pf_hw_set_msr(const char *arg, char *err, size_t n);
/* Forget every --msr value. */
void pf_hw_clear_msrs(void);
/* Where the MSRs came from, for the header ("/dev/cpu/0/msr", "--msr and dump lines", ...). */
const char *pf_hw_msr_source(void);
/* Bit i set: pf_msr_defs[i] was asked for and was not available. Cleared by pf_hw_use_*. */
unsigned pf_hw_unread(void);
/* Bit i set: pf_msr_defs[i] was not given offline and its presence was assumed (only
 * MSR_PEBS_LD_LAT_THRESHOLD: the kernel reads it only on a model whose table row has a
 * load-latency event, and every such model has the MSR, SDM Vol. 4 "MSRs in Processors Based on
 * Intel Microarchitecture Code Name Nehalem" onwards; only a hypervisor can make it fault, so a
 * dump whose CPUID.1:ECX[31] says hypervisor is left undecided). Cleared by pf_hw_use_*. */
unsigned pf_hw_assumed(void);

#endif
