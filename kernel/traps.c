/*
 * traps.c: trap_dispatch, called by boot/isr.asm for every vector (SDM Vol. 3A 6.15).
 * An NMI goes to the NMI hook first (apic/: the PMU's, with pmi=nmi); one it does not claim
 * is an unknown NMI, counted and located (kernel/nmi.c), and the interrupted code goes on:
 * never an unexpected exception (Linux arch/x86/kernel/nmi.c unknown_nmi_error()).
 */
#include "kernel/traps.h"
#include "kernel/ksyms.h"
#include "kernel/console.h"
#include "kernel/exit.h"
#include "kernel/extable.h"
#include "kernel/nmi.h"

extern irq_handler_fn irq_handlers[256];
extern nmi_handler_fn nmi_hook;
extern irq_handler_fn irq_default;

static struct kjmp *recovery;
static void (*cpu_hook)(struct trap_frame *f);
uint64_t spurious_irqs;

static const char *const names[32] = {
	"#DE divide error", "#DB debug", "NMI", "#BP breakpoint", "#OF overflow",
	"#BR bound range", "#UD invalid opcode", "#NM device not available",
	"#DF double fault", "coprocessor segment overrun", "#TS invalid TSS",
	"#NP segment not present", "#SS stack fault", "#GP general protection",
	"#PF page fault", "reserved 15", "#MF x87 error", "#AC alignment check",
	"#MC machine check", "#XM SIMD exception", "#VE virtualization exception",
	"#CP control protection", "reserved 22", "reserved 23", "reserved 24", "reserved 25",
	"reserved 26", "reserved 27", "#HV hypervisor injection", "#VC VMM communication",
	"#SX security exception", "reserved 31",
};

const char *trap_name(unsigned vector)
{
	return vector < 32 ? names[vector] : "interrupt";
}

void trap_set_recovery(struct kjmp *j)
{
	recovery = j;
}

void trap_dump(const struct trap_frame *f)
{
	console_lock();		/* one CPU's dump in one piece (kernel/console.c) */
	kprintf("# EXCEPTION: vector %llu (%s), error code 0x%llx\n",
		(unsigned long long)f->vector, trap_name((unsigned)f->vector),
		(unsigned long long)f->error_code);
	kprintf("# RIP=%016llx CS=%04llx RFLAGS=%08llx RSP=%016llx SS=%04llx\n",
		(unsigned long long)f->rip, (unsigned long long)f->cs,
		(unsigned long long)f->rflags, (unsigned long long)f->rsp,
		(unsigned long long)f->ss);
	{
		uint64_t off;
		const char *fn = ksym_lookup(f->rip, &off);

		if (fn)		/* the function the fault is in (kernel/ksyms.h) */
			kprintf("# RIP in %s+0x%llx\n", fn, (unsigned long long)off);
	}
	kprintf("# CR2=%016llx CR3=%016llx CR0=%08llx CR4=%08llx\n",
		(unsigned long long)read_cr2(), (unsigned long long)read_cr3(),
		(unsigned long long)read_cr0(), (unsigned long long)read_cr4());
	kprintf("# RAX=%016llx RBX=%016llx RCX=%016llx RDX=%016llx\n",
		(unsigned long long)f->rax, (unsigned long long)f->rbx,
		(unsigned long long)f->rcx, (unsigned long long)f->rdx);
	kprintf("# RSI=%016llx RDI=%016llx RBP=%016llx R8 =%016llx\n",
		(unsigned long long)f->rsi, (unsigned long long)f->rdi,
		(unsigned long long)f->rbp, (unsigned long long)f->r8);
	kprintf("# R9 =%016llx R10=%016llx R11=%016llx R12=%016llx\n",
		(unsigned long long)f->r9, (unsigned long long)f->r10,
		(unsigned long long)f->r11, (unsigned long long)f->r12);
	kprintf("# R13=%016llx R14=%016llx R15=%016llx\n",
		(unsigned long long)f->r13, (unsigned long long)f->r14,
		(unsigned long long)f->r15);
	console_unlock();
}

void trap_set_cpu_hook(void (*fn)(struct trap_frame *f))
{
	cpu_hook = fn;
}

static void unexpected(struct trap_frame *f)
{
	if (cpu_hook)
		cpu_hook(f);	/* does not return on an application processor */
	trap_dump(f);
	if (recovery && f->vector != VEC_DF && f->vector != VEC_MC) {
		struct kjmp *j = recovery;

		recovery = NULL;
		kjmp_long(j, (int)f->vector + 1);
	}
	run_fatal(f->vector == VEC_DF ? "double fault (a stack overflow into a guard page?): "
		  "the run cannot go on" : f->vector == VEC_MC ? "machine check: the run cannot go on"
		  : "unexpected exception outside a test: the run cannot go on");
}

void trap_dispatch(struct trap_frame *f)
{
	uint64_t v = f->vector;

	if (v < 32) {
		if (v == VEC_NMI) {
			if (!nmi_hook || !nmi_hook(f))
				nmi_unknown(f);
			return;
		}
		/* a _safe access: the vector into the faulting context's RBX (kernel/extable.c) */
		if (extable_fixup(f, v == VEC_PF ? read_cr2() : 0))
			return;
		unexpected(f);
		return;
	}
	if (irq_handlers[v]) {
		irq_handlers[v](f);
		return;
	}
	spurious_irqs++;
	if (irq_default)
		irq_default(f);
}
