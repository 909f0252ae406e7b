/*
 * smp_ap.c: an application processor's side (SDM Vol. 3A 9.4.4.2 "Typical AP Initialization
 * Sequence"). smp_ap_main, called from boot/trampoline.asm in 64-bit mode on the AP's own
 * stack, loads the AP's GDT/TSS and IDT, points IA32_GS_BASE at its struct percpu, copies
 * the boot CPU's CR0, CR4 and PAT, enables its local APIC in the boot CPU's mode (apic/apic_ap.c:
 * disabled -> xAPIC -> x2APIC, 11.12.5), reads its topology and core type, and reports online.
 * Then it waits in HLT for work (smp.h mailbox). An unexpected exception on an AP prints
 * "# cpu N ..." and the register dump, is handed back as the call's result, and the AP goes
 * back to waiting: the run on the other CPUs goes on. Before it reports the fault it runs the
 * recovery hooks registered from above (smp_on_ap_recovery): state the call left armed on
 * this CPU (PEBS writing into the call's memory) is undone before the boot CPU sees the call
 * end and releases that memory.
 */
#include "smp/smp.h"
#include "apic/apic.h"
#include "kernel/console.h"
#include "kernel/ktap_detail.h"
#include "kernel/cpu.h"
#include "kernel/extable.h"
#include "kernel/hw.h"
#include "kernel/ktap_undo.h"
#include "kernel/idt.h"
#include "kernel/nmi.h"
#include "kernel/traps.h"
#include "kernel/tsc.h"

#define MSR_IA32_PAT     0x277u
/* console lock bound: longer than the longest write (a test's held KTAP block, 256 KiB, is
 * ~23 s at 115200 baud, but under 1 s on a virtual UART or at the rates labs run) */
#define CONSOLE_SPIN_S   10u

uint64_t smp_bsp_cr0, smp_bsp_cr4, smp_bsp_pat;
static void (*recovery[SMP_RECOVERY_MAX])(void);

bool smp_on_ap_recovery(void (*fn)(void))
{
	for (unsigned i = 0; i < SMP_RECOVERY_MAX; i++)
		if (!recovery[i] || recovery[i] == fn) {
			recovery[i] = fn;
			return true;
		}
	return false;
}

static struct percpu *this_pc(void)
{
	uint64_t v = 0;

	if (rdmsr_safe(MSR_IA32_GS_BASE, &v))
		return NULL;
	return (struct percpu *)(uintptr_t)v;
}

unsigned smp_this_cpu(void)
{
	struct percpu *pc = this_pc();

	return pc ? pc->cpu : 0;
}

void smp_probe_topology(struct percpu *pc)
{
	struct cpuid_regs r, sub[TOPO_MAX_SUBLEAVES];
	uint32_t max;
	bool ok = false;

	cpuid_count(0, 0, &r);
	max = r.eax;
	for (uint32_t leaf = 0x1f; leaf >= 0xb && !ok; leaf -= 0x14) {
		unsigned n = 0;

		if (max < leaf)
			continue;
		while (n < TOPO_MAX_SUBLEAVES) {
			cpuid_count(leaf, n, &sub[n]);
			if (!((sub[n].ecx >> 8) & 0xff))
				break;
			n++;
		}
		ok = topo_decode_leaf(sub, n, leaf, &pc->topo);
	}
	if (!ok) {
		cpuid_count(1, 0, &r);
		topo_decode_legacy(r.ebx >> 24, r.ebx, r.edx, &pc->topo);
	}
	pc->core_type = 0;
	if (cpu.hybrid && max >= 0x1a) {
		cpuid_count(0x1a, 0, &r);
		pc->core_type = (uint8_t)(r.eax >> 24);
	}
}

static void ap_loop(struct percpu *pc)
{
	for (;;) {
		volatile uint32_t p = __atomic_load_n(&pc->posted, __ATOMIC_ACQUIRE);
		int v;

		if (p == pc->done) {
			cpu_wait_irq();
			continue;
		}
		pc->fault_vector = -1;
		v = kjmp_set(&pc->recovery);
		if (v == 0) {
			pc->fn(pc->arg);
		} else {
			pc->fault_vector = v - 1;
			pc->faults++;
			console_unlock_all();	/* unwound from inside a write: let go */
			for (unsigned i = 0; i < SMP_RECOVERY_MAX && recovery[i]; i++)
				recovery[i]();
		}
		__atomic_store_n(&pc->done, p, __ATOMIC_RELEASE);
	}
}

__attribute__((noreturn)) void smp_ap_main(struct percpu *pc);
void smp_ap_main(struct percpu *pc)
{
	gdt_load_cpu(pc->gdt, pc->ist_top);
	idt_load_copy(pc->idt);
	wrmsr(MSR_IA32_GS_BASE, (uint64_t)(uintptr_t)pc);
	write_cr0(smp_bsp_cr0);	/* the boot CPU's cache and FPU bits */
	write_cr4(smp_bsp_cr4);
	if (smp_bsp_pat)
		wrmsr_safe(MSR_IA32_PAT, smp_bsp_pat);
	if (apic_ap_init()) {	/* no APIC, no wake IPI: stay out (the boot CPU says why) */
		pc->why = "enabling its local APIC faulted (IA32_APIC_BASE write)";
		cpu_halt_forever();
	}
	pc->apic_id_seen = apic_id();
	smp_probe_topology(pc);
	pc->done = pc->posted;
	__atomic_store_n(&pc->state, CPU_ONLINE, __ATOMIC_RELEASE);
	ap_loop(pc);
	cpu_halt_forever();
}

static void ap_fault(struct trap_frame *f)
{
	struct percpu *pc = this_pc();

	if (!pc || pc->cpu == 0)
		return;		/* the boot CPU: traps.c goes on as before */
	console_lock();		/* the CPU line and its dump stay together */
	if (pc->fault_expected) {	/* a test's own: the register dump would say nothing */
		if (log_full())	/* log=brief: its result line names it */
				kprintf("# cpu %u (APIC id %u): exception vector %u (%s) at RIP=%llx, as "
				"the test expects\n", pc->cpu, pc->apic_id, (unsigned)f->vector,
				trap_name((unsigned)f->vector), (unsigned long long)f->rip);
	} else {
		kprintf("# cpu %u (APIC id %u): unexpected exception on an application "
			"processor\n", pc->cpu, pc->apic_id);
	}
	if (!pc->fault_expected)
		trap_dump(f);
	console_unlock();
	if (pc->state != CPU_ONLINE) {
		pc->why = "faulted while starting";
		cpu_halt_forever();
	}
	kjmp_long(&pc->recovery, (int)f->vector + 1);
}

static void wake_isr(struct trap_frame *f)
{
	(void)f;
	apic_eoi();
}

void smp_ap_install(void)
{
	/* from the first AP on, CPUs' lines do not interleave (kernel/console.c) */
	console_set_cpu(smp_this_cpu, rdtsc, tsc_hz * CONSOLE_SPIN_S);
	nmi_set_cpu_fn(smp_this_cpu);	/* unknown NMIs counted per CPU (kernel/nmi.h) */
	kt_undo_set_cpu(smp_this_cpu);	/* the runner's undo list is the boot CPU's */
	idt_set_handler(SMP_VEC_WAKE, wake_isr);
	trap_set_cpu_hook(ap_fault);
	smp_bsp_cr0 = read_cr0();
	smp_bsp_cr4 = read_cr4();
	if (rdmsr_safe(MSR_IA32_PAT, &smp_bsp_pat))
		smp_bsp_pat = 0;
}
