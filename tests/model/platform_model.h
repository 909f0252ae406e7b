/*
 * platform_model.h: a host model of the platform under a test kernel, for kernel/trust.c,
 * kernel/msr_platform.c, kernel/memtype_read.c and ktests/exceptions.c (tests/host/
 * trust_test.c). It implements kernel/hw.h's MSR accessors (with the virtual clock,
 * tests/model/vclock.c, for time) and CPUID through tests/host/fake_cpuid.c, and is as strict
 * as the SDM:
 *   - an MSR the modelled CPU does not have raises #GP(0) (SDM Vol. 2B RDMSR/WRMSR), unless
 *     ignore_msrs is set: then it reads 0 and a write is dropped, what KVM's ignore_msrs=1
 *     (Linux arch/x86/kvm/x86.c kvm_msr_ignored_check), QEMU TCG (target/i386/tcg/sysemu/
 *     misc_helper.c helper_rdmsr, default case) and Bochs's ignore_bad_msrs=1 do;
 *   - MSR_SMI_COUNT is read-only (SDM Vol. 4 Table 2-20 "MSRs in Processors Based on Intel
 *     Microarchitecture Code Name Nehalem": RO): a write #GPs;
 *   - IA32_THERM_STATUS / IA32_PACKAGE_THERM_STATUS log bits are R/WC0 (writing 0 clears,
 *     1 leaves them), every other bit is read-only or reserved: writing 1 there #GPs and is
 *     counted in `violations` (SDM Vol. 4 Table 2-2);
 *   - IA32_MPERF counts at the TSC rate, IA32_APERF at `ratio_pct` of it (SDM Vol. 3B 15.2);
 *   - IA32_MCi_STATUS of banks below IA32_MCG_CAP.Count exist, others #GP (Vol. 3B 16.3);
 *   - a prefetcher-control MSR (kernel/prefetch.c) exists where pf_msr names it: the bits
 *     pf_rw read and write, a write setting any other bit #GPs (SDM Vol. 2B WRMSR: reserved
 *     bits); pf_drop accepts writes and drops them (a hypervisor that ignores the MSR).
 * Hostile behaviours are knobs on the virtual clock: SMIs at given times, throttle log bits
 * set at a time, the APERF ratio changed at a time, a machine check logged at a time, and
 * pm_seed() draws all of them from a seed.
 */
#ifndef MODEL_PLATFORM_MODEL_H
#define MODEL_PLATFORM_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#define PM_SMI_MAX 8
#define PM_MCE_BANKS 32

struct platform_model {
	bool ignore_msrs;
	bool has_smi, has_therm, has_pkg_therm, has_aperf, has_mca, has_mtrr, has_pat;
	uint8_t apic_id;		/* CPUID.01H:EBX[31:24] of the CPU the code runs on */
	/* SMIs */
	uint64_t smi_base;		/* MSR_SMI_COUNT before any of smi_at[] */
	uint64_t smi_at[PM_SMI_MAX];	/* vclock times at which one SMI happens */
	unsigned n_smi;
	/* throttling: log bits set (once) when vclock.now reaches the time */
	uint64_t therm_log, pkg_log;	/* the registers' log bits now */
	uint64_t therm_at, therm_bits, pkg_at, pkg_bits;
	bool therm_fired, pkg_fired;
	/* effective clock: APERF/MPERF x100, `drift_pct` from vclock time drift_at on */
	unsigned ratio_pct, drift_pct;
	bool mperf_still;		/* APERF and MPERF read 0 and never count (Bochs) */
	uint64_t drift_at;
	/* machine checks */
	unsigned mce_banks;
	uint64_t mc_status[PM_MCE_BANKS];
	uint64_t mce_at, mce_status;	/* logged in mce_bank at mce_at (0: never) */
	unsigned mce_bank;
	bool mce_fired;
	/* memory type registers (kernel/memtype.h) and CR0 */
	uint64_t mtrr_cap, mtrr_def, mtrr_base[32], mtrr_mask[32], mtrr_fixed[11], pat, cr0;
	/* prefetcher control (kernel/prefetch.h) */
	uint32_t pf_msr;		/* 0: no such MSR (#GP, or ignore_msrs) */
	uint64_t pf_val, pf_rw;
	bool pf_drop;
	/* accounting */
	unsigned gp, violations, reads, writes;
};

extern struct platform_model pm;

/* A Skylake client (06_5EH, CPUID rows in fake_cpuid) with every signal, MTRRs default WB,
 * nothing hostile, TSC at 0 with step 1000. */
void pm_reset(void);
/* Write the CPUID rows for pm's has_* flags (after changing them). */
void pm_cpuid(void);
/* Draw a hostile schedule from `seed` over [from, to) of virtual time: SMIs, throttle bits,
 * an APERF drift, a machine check. */
void pm_seed(uint64_t seed, uint64_t from, uint64_t to);

#endif
