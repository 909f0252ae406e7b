/*
 * exceptions.c: test `exceptions`: deliberate faults are caught through the fixup table with
 * the right vector (SDM Vol. 3A 6.15): #UD from UD2, #GP from RDMSR/WRMSR of an MSR that does
 * not exist (SKIPped, with the probe's finding, on a platform that swallows unknown MSRs:
 * QEMU TCG, KVM ignore_msrs=1, Bochs ignore_bad_msrs=1; kernel/msr_platform.h) and from a
 * non-canonical read, #PF from a read of an unmapped page, #DE from a division by zero.
 * After each, the kernel carries on (the next check runs).
 */
#include "ktests/tests.h"
#include "kernel/extable.h"
#include "kernel/hw.h"
#include "kernel/msr_platform.h"
#include "kernel/traps.h"

#define MSR_NONEXISTENT MSR_UNIMPLEMENTED
#define MSR_IA32_APIC_BASE 0x1bu	/* SDM Vol. 4 Table 2-2; bit 11 APIC global enable */
#define APIC_BASE_ENABLE (1ull << 11)
/* bits 63:47 not a sign extension of bit 47: any access #GPs (SDM Vol. 3A 3.3.7.1) */
#define NONCANONICAL 0x8000000000000000ull

enum kt_result test_exceptions(struct ktest *t)
{
	const char *swallows = msr_platform_swallows();
	uint64_t v = 0;
	int vec;

	vec = ud2_safe();
	kt_check(t, vec == VEC_UD, "ud_caught # vector %d", vec);
	/* what the boot probe found unfaulting is a platform's choice, not a kernel bug */
	if (swallows && !msr_platform_get()->rd_vec) {
		kt_skip_sub(t, "gp_from_rdmsr_safe", "%s", swallows);
	} else {
		vec = rdmsr_safe(MSR_NONEXISTENT, &v);
		kt_check(t, vec == VEC_GP, "gp_from_rdmsr_safe # vector %d", vec);
	}
	if (swallows && !msr_platform_get()->wr_vec) {
		kt_skip_sub(t, "gp_from_wrmsr_safe", "%s", swallows);
	} else {
		vec = wrmsr_safe(MSR_NONEXISTENT, 0);
		kt_check(t, vec == VEC_GP, "gp_from_wrmsr_safe # vector %d", vec);
	}
	vec = read64_safe(NONCANONICAL, &v);
	kt_check(t, vec == VEC_GP, "gp_from_noncanonical_read # vector %d", vec);
	vec = read64_safe(0x8, &v);
	kt_check(t, vec == VEC_PF, "pf_caught # vector %d", vec);
	vec = div0_safe();
	kt_check(t, vec == EXTABLE_DE, "de_caught # %s", vec == EXTABLE_DE ? "vector 0" : "missed");
	vec = rdmsr_safe(MSR_IA32_APIC_BASE, &v);
	kt_check(t, vec == 0 && (v & APIC_BASE_ENABLE), "rdmsr_safe_reads_existing_msr # 0x%llx",
		 (unsigned long long)v);
	return kt_verdict(t);
}
