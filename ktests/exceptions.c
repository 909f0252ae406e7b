/*
 * exceptions.c: test `exceptions`: deliberate faults are caught through the fixup table with
 * the right vector (SDM Vol. 3A 6.15): #UD from UD2, #GP from RDMSR/WRMSR of an MSR that does
 * not exist (SKIPped under QEMU TCG, which returns 0 instead) and from a non-canonical read, #PF from a read of an unmapped page, #DE from a division by zero. After each, the
 * kernel carries on (the next check runs).
 */
#include "ktests/tests.h"
#include "kernel/extable.h"
#include "kernel/hw.h"
#include "kernel/traps.h"
#include "kernel/cpu.h"

#include <string.h>

/* Beyond every MSR range Intel, AMD and hypervisors define (0xC0000000-0xC001FFFF ends
 * the highest), so RDMSR/WRMSR must #GP. */
#define MSR_NONEXISTENT 0xdeadbeefu
#define MSR_IA32_APIC_BASE 0x1bu	/* SDM Vol. 4 Table 2-2; bit 11 APIC global enable */
#define APIC_BASE_ENABLE (1ull << 11)
/* bits 63:47 not a sign extension of bit 47: any access #GPs (SDM Vol. 3A 3.3.7.1) */
#define NONCANONICAL 0x8000000000000000ull

enum kt_result test_exceptions(struct ktest *t)
{
	uint64_t v = 0;
	int vec;

	vec = ud2_safe();
	kt_check(t, vec == VEC_UD, "ud_caught # vector %d", vec);
	if (!strcmp(cpu.hv_sig, "TCGTCGTCGTCG")) {
		/* QEMU's software CPU answers any unknown MSR with 0 instead of #GP */
		kt_skip_sub(t, "gp_from_rdmsr_safe", "QEMU TCG does not #GP on unknown MSRs");
		kt_skip_sub(t, "gp_from_wrmsr_safe", "QEMU TCG does not #GP on unknown MSRs");
	} else {
		vec = rdmsr_safe(MSR_NONEXISTENT, &v);
		kt_check(t, vec == VEC_GP, "gp_from_rdmsr_safe # vector %d", vec);
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
