/*
 * kalike.c: the facts alike.c judges, read on this CPU: the memory-type registers and the
 * buffer's page-table entry (kernel/memtype.h), the MSR probe (kernel/msr_platform.h), the
 * signs of emulation the trust signals found (kernel/trust.h) and the hypervisor signature
 * (kernel/cpu.h).
 */
#include "loads/alike.h"
#include "kernel/cpu.h"
#include "kernel/msr_platform.h"
#include "kernel/trust.h"

bool kload_alike_cause(const void *base, char *b, size_t n)
{
	struct memtype_regs r;
	struct alike_facts f = { .swallowed = msr_platform_swallows(), .hv = cpu_hv_name(&cpu),
				 .emu_hint = trust_emulation_hint() };

	memtype_read_regs(&r);
	f.mt_fault = r.fault;
	f.have_mt = !r.fault && base && memtype_of_va(&r, base, &f.mt, &f.pa);
	return alike_cause(&f, b, n);
}
