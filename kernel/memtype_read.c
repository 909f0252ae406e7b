/*
 * memtype_read.c: the registers memtype.c decodes, read on the calling CPU: CPUID.01H:EDX
 * MTRR[12] and PAT[16] (SDM Vol. 2A CPUID), IA32_MTRRCAP, IA32_MTRR_DEF_TYPE, the variable
 * ranges IA32_MTRR_PHYSBASEn/PHYSMASKn, the fixed ranges (SDM Vol. 3A 12.11, Vol. 4 Table
 * 2-2), IA32_PAT (12.12), all through rdmsr_safe; CR0; and the kernel page-table entry that
 * maps an address (kernel/pgtable.h pgt_walk).
 */
#include "kernel/memtype.h"
#include "kernel/cpu.h"
#include "kernel/extable.h"
#include "kernel/hw.h"
#include "kernel/mm_internal.h"
#include "kernel/pgtable.h"

#include <string.h>

static const uint32_t fixed_msr[MTRR_FIXED_N] = {
	0x250, 0x258, 0x259, 0x268, 0x269, 0x26a, 0x26b, 0x26c, 0x26d, 0x26e, 0x26f,
};

static void rd(struct memtype_regs *r, uint32_t msr, uint64_t *v)
{
	int vec = rdmsr_safe(msr, v);

	if (vec) {
		*v = 0;
		if (!r->fault)
			r->fault = vec;
	}
}

void memtype_read_regs(struct memtype_regs *r)
{
	struct cpuid_regs c;

	memset(r, 0, sizeof(*r));
	cpuid_count(1, 0, &c);
	r->have_mtrr = c.edx & (1u << 12);
	r->have_pat = c.edx & (1u << 16);
	r->phys_bits = cpu.phys_addr_bits;
	r->cr0 = read_cr0();
	if (r->have_pat)
		rd(r, MSR_IA32_PAT_MT, &r->pat);
	if (!r->have_mtrr)
		return;
	rd(r, MSR_IA32_MTRRCAP, &r->cap);
	rd(r, MSR_IA32_MTRR_DEF_TYPE, &r->def_type);
	for (unsigned i = 0; i < (r->cap & 0xff) && i < MTRR_VAR_MAX; i++) {
		rd(r, MSR_IA32_MTRR_PHYSBASE0 + 2 * i, &r->base[i]);
		rd(r, MSR_IA32_MTRR_PHYSBASE0 + 2 * i + 1, &r->mask[i]);
	}
	if (r->cap & MTRR_CAP_FIX)
		for (unsigned i = 0; i < MTRR_FIXED_N; i++)
			rd(r, fixed_msr[i], &r->fixed[i]);
}

bool memtype_of_va(const struct memtype_regs *r, const void *va, struct memtype_of *o,
		   uint64_t *pa)
{
	struct pgt_walk w = pgt_walk(mm_kernel_pgt(), (uint64_t)(uintptr_t)va);

	if (!w.present)
		return false;
	*pa = w.pa;
	memtype_decide(r, w.pa, w.entry, w.page_size, o);
	return true;
}
