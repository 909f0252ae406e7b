/*
 * smp_boot.c: the boot CPU's side of MP initialization (SDM Vol. 3A 9.4.4.1 "Typical BSP
 * Initialization Sequence", 11.6.1 "Interrupt Command Register"): the processors come from
 * the MADT (platform/acpi_madt.c; enabled ones only: an online-capable one is hot-plug), the
 * trampoline (boot/trampoline.asm) goes to a page below 1 MiB chosen from the memory map
 * (smp/boot_plan.c), and each AP in turn gets its area (smp/percpu.h), INIT, the delay, and
 * up to two SIPIs (the second only when it has not reached the trampoline); then the boot CPU
 * waits, bounded, for it to report online. One that does not is sent INIT again (so it cannot
 * run the trampoline later with the next AP's parameters), reported and left out.
 */
#include "smp/smp.h"
#include "apic/apic.h"
#include "apic/apic_enc.h"
#include "apic/apic_ops.h"
#include "apic/apic_regs.h"
#include "kernel/boot.h"
#include "kernel/cmdline.h"
#include "kernel/console.h"
#include "kernel/extable.h"
#include "kernel/hw.h"
#include "kernel/mm.h"
#include "platform/platform.h"
#include "kernel/tsc.h"

#include <stddef.h>
#include <string.h>

#define APIC_DM_STARTUP 6u	/* ICR delivery mode 110B: Start-Up (11.6.1) */
#define EFER_LME (1u << 8)
#define EFER_NXE (1u << 11)

/* boot/trampoline.asm's parameter block (TP_* offsets there) */
struct smp_tramp_params {
	uint32_t early_cr3, efer;
	uint32_t jmp64_off;
	uint16_t jmp64_sel, pad0;
	uint64_t kcr3, stack, percpu;
	uint32_t alive, pad1;
	uint8_t gdtr[6];	/* limit u16, base u32 (unaligned: bytes) */
	uint16_t pad2;
	uint32_t jmp32_off;
	uint16_t jmp32_sel;
};
_Static_assert(offsetof(struct smp_tramp_params, jmp64_off) == 8, "TP_JMP64");
_Static_assert(offsetof(struct smp_tramp_params, kcr3) == 16, "TP_KCR3");
_Static_assert(offsetof(struct smp_tramp_params, alive) == 40, "TP_ALIVE");
_Static_assert(offsetof(struct smp_tramp_params, gdtr) == 48, "TP_GDTR");
_Static_assert(offsetof(struct smp_tramp_params, jmp32_off) == 56, "TP_JMP32");
_Static_assert(sizeof(struct smp_tramp_params) <= 64, "the block is 64 bytes");

extern char smp_tramp_start[], smp_tramp_end[], smp_tramp_params[], smp_tramp_pm32[];
extern char smp_tramp_gdt[], smp_ap_entry64[], early_pml4[];

static struct percpu bsp;
static struct percpu *cpus[SMP_MAX_CPUS];
static unsigned ncpus = 1, nonline = 1, nmadt, nleft_out;
static const char *why_none;
static struct smp_cpus_req req;
static bool sel[SMP_MAX_CPUS];
static struct smp_delays delays;
uint64_t smp_tramp_pa;

#define OFF(sym) ((uint64_t)((sym) - smp_tramp_start))

static bool wait_until(volatile int *v, int want, volatile uint32_t *v2, uint64_t us)
{
	uint64_t t0 = rdtsc(), lim = tsc_hz / 1000000 * us;

	for (;;) {
		if ((v && *v == want) || (v2 && *v2))
			return true;
		if (rdtsc() - t0 > lim)
			return false;
		__builtin_ia32_pause();
	}
}

static volatile struct smp_tramp_params *tramp_setup(void)
{
	uint64_t size = (uint64_t)(smp_tramp_end - smp_tramp_start);
	struct smp_range avoid[2] = {
		{ .base = boot_info_addr, .len = boot_info.total_size },
		{ .base = 0, .len = 0x1000 },
	};
	volatile struct smp_tramp_params *tp;
	const char *why;
	uint32_t gdt;

	smp_tramp_pa = smp_tramp_place(boot_info.mmap, boot_info.nmmap, size, avoid, 2, &why);
	if (!smp_tramp_pa) {
		why_none = why;
		return NULL;
	}
	memcpy((void *)(uintptr_t)smp_tramp_pa, smp_tramp_start, size);
	tp = (volatile struct smp_tramp_params *)(uintptr_t)(smp_tramp_pa + OFF(smp_tramp_params));
	tp->early_cr3 = (uint32_t)(uintptr_t)early_pml4;
	tp->efer = EFER_LME | (cpu.nx ? EFER_NXE : 0);
	tp->jmp64_off = (uint32_t)(uintptr_t)smp_ap_entry64;
	tp->jmp64_sel = 0x18;
	tp->kcr3 = read_cr3();
	gdt = (uint32_t)(smp_tramp_pa + OFF(smp_tramp_gdt));
	tp->gdtr[0] = 4 * 8 - 1;	/* four descriptors */
	tp->gdtr[1] = 0;
	for (unsigned i = 0; i < 4; i++)
		tp->gdtr[2 + i] = (uint8_t)(gdt >> (8 * i));
	tp->jmp32_off = (uint32_t)(smp_tramp_pa + OFF(smp_tramp_pm32));
	tp->jmp32_sel = 0x08;
	return tp;
}

static struct percpu *new_cpu(const struct acpi_cpu *c)
{
	struct percpu_layout l;
	uint8_t *a;
	struct percpu *pc;

	percpu_layout(sizeof(struct percpu), sizeof(struct gdt_cpu), &l);
	a = kalloc(l.total, 0x1000);
	if (!a)
		return NULL;
	for (unsigned i = 0; i < 4; i++)
		if (mm_guard_page(a + l.guard_off[i]))
			kprintf("# smp: APIC id %u: guard page at %p not unmapped: its stack "
				"overflows unchecked\n", c->apic_id, (void *)(a + l.guard_off[i]));
	pc = (struct percpu *)a;
	pc->self = pc;
	pc->cpu = ncpus;
	pc->apic_id = c->apic_id;
	pc->acpi_uid = c->uid;
	pc->fault_vector = -1;
	pc->gdt = (struct gdt_cpu *)(a + l.gdt_off);
	pc->idt = a + l.idt_off;
	pc->stack_top = (uint64_t)(uintptr_t)(a + l.stack_off + PERCPU_STACK);
	for (unsigned i = 0; i < 3; i++)
		pc->ist_top[i] = (uint64_t)(uintptr_t)(a + l.ist_off[i] + PERCPU_IST);
	return pc;
}

static void ipi(uint32_t dest, uint8_t vector, unsigned dm)
{
	if (apic_mode() == APIC_XAPIC)
		apic_write(APIC_ESR, 0);
	apic_icr_write(apic_icr_encode(apic_mode(), vector, dm, APIC_DEST_NOSHORT, dest));
	if (apic_mode() == APIC_XAPIC)
		apic_icr_idle_wait();
}

static void start_ap(struct percpu *pc, volatile struct smp_tramp_params *tp)
{
	uint8_t vector = (uint8_t)(smp_tramp_pa >> 12);

	tp->stack = pc->stack_top;
	tp->percpu = (uint64_t)(uintptr_t)pc;
	tp->alive = 0;
	pc->state = CPU_STARTING;
	ipi(pc->apic_id, 0, APIC_DM_INIT);
	tsc_delay_us(delays.init_us);
	pc->sipi_tsc = rdtsc();
	for (unsigned s = 0; s < 2; s++) {
		ipi(pc->apic_id, vector, APIC_DM_STARTUP);
		pc->sipis++;
		if (wait_until(NULL, 0, &tp->alive, delays.sipi_us))
			break;
	}
	if (wait_until(&pc->state, CPU_ONLINE, NULL, SMP_ONLINE_BOUND_MS * 1000ull)) {
		pc->online_tsc = rdtsc();
		nonline++;
		return;
	}
	pc->why = pc->why ? pc->why : tp->alive ? "ran the trampoline but did not reach the kernel"
						: "did not run the trampoline";
	ipi(pc->apic_id, 0, APIC_DM_INIT);	/* back to wait-for-SIPI */
	pc->state = CPU_NO_ANSWER;
	kprintf("# smp: cpu %u (APIC id %u) not online after %u ms (%s): left out\n",
		pc->cpu, pc->apic_id, SMP_ONLINE_BOUND_MS, pc->why);
}

/* inject=ap_silent: one more "enabled" processor at an APIC ID nobody has, so the bounded
 * wait, the report and the leaving-out of a CPU that never answers run for real. */
static void inject_silent(const struct acpi_madt *m, volatile struct smp_tramp_params *tp)
{
	const char *inj = cmdline_get(&kcmdline, "inject");
	struct acpi_cpu fake = { .enabled = true, .uid = 0xfe };
	struct percpu *pc;

	if (!inj || strcmp(inj, "ap_silent") || ncpus == SMP_MAX_CPUS)
		return;
	for (unsigned i = 0; i < m->ncpus; i++)
		if (m->cpu[i].apic_id >= fake.apic_id)
			fake.apic_id = m->cpu[i].apic_id + 1;
	if (fake.apic_id > 0xfe || !(pc = new_cpu(&fake)))
		return;
	kprintf("# smp: inject=ap_silent: a processor with APIC id %u that does not exist\n",
		fake.apic_id);
	nmadt++;
	cpus[ncpus++] = pc;
	start_ap(pc, tp);
}

static void start_all(void)
{
	volatile struct smp_tramp_params *tp;
	const struct acpi_madt *m = &acpi.madt;

	if (!acpi.have_madt) {
		why_none = "no MADT (ACPI tables absent or invalid)";
		return;
	}
	for (unsigned i = 0; i < m->ncpus; i++)
		nmadt += m->cpu[i].enabled;
	if (apic_mode() == APIC_DISABLED) {
		why_none = "no usable local APIC";
		return;
	}
	if (!tsc_hz) {
		why_none = "the TSC rate is unknown: no bounded waits";
		return;
	}
	smp_delays_for(&cpu, &delays);
	if (nmadt <= 1 || !(tp = tramp_setup()))
		return;
	smp_ap_install();
	for (unsigned i = 0; i < m->ncpus; i++) {
		const struct acpi_cpu *c = &m->cpu[i];
		struct percpu *pc;

		if (c->apic_id == bsp.apic_id) {
			bsp.acpi_uid = c->uid;
			continue;
		}
		if (!c->enabled)
			continue;
		if (ncpus == SMP_MAX_CPUS || (apic_mode() == APIC_XAPIC && c->apic_id > 0xfe) ||
		    !(pc = new_cpu(c))) {
			kprintf("# smp: APIC id %u left out (%s)\n", c->apic_id,
				ncpus == SMP_MAX_CPUS ? "more CPUs than SMP_MAX_CPUS" :
				c->apic_id > 0xfe ? "xAPIC mode reaches IDs up to 254" : "no memory");
			nleft_out++;
			continue;
		}
		cpus[ncpus++] = pc;
		start_ap(pc, tp);
	}
	inject_silent(m, tp);
}

void smp_init(void)
{
	const char *arg = cmdline_get(&kcmdline, "cpus"), *why;
	struct smp_cpu_view v[SMP_MAX_CPUS];

	ncpus = nonline = 1;	/* from scratch: a host test boots it more than once */
	nmadt = nleft_out = 0;
	why_none = NULL;
	smp_tramp_pa = 0;
	memset(&bsp, 0, sizeof(bsp));
	memset(&delays, 0, sizeof(delays));
	bsp.self = &bsp;
	bsp.state = CPU_ONLINE;
	bsp.fault_vector = -1;
	bsp.apic_id = bsp.apic_id_seen = apic_id();
	smp_probe_topology(&bsp);
	cpus[0] = &bsp;
	wrmsr_safe(MSR_IA32_GS_BASE, (uint64_t)(uintptr_t)&bsp);
	if (!smp_cpus_parse(arg, &req, &why))
		kprintf("# warning: cpus=%s: %s; using types\n", arg, why);
	start_all();
	for (unsigned i = 0; i < ncpus; i++)
		v[i] = (struct smp_cpu_view){ .online = cpus[i]->state == CPU_ONLINE,
					      .core_type = cpus[i]->core_type };
	smp_select(v, ncpus, &req, sel);
}

unsigned smp_cpu_count(void) { return ncpus; }
unsigned smp_online_count(void) { return nonline; }
unsigned smp_madt_count(void) { return nmadt; }
unsigned smp_left_out(void) { return nleft_out; }
const char *smp_why_none(void) { return why_none; }
const struct smp_cpus_req *smp_cpus(void) { return &req; }
const struct smp_delays *smp_delays(void) { return &delays; }

struct percpu *smp_cpu(unsigned i)
{
	return i < ncpus ? cpus[i] : NULL;
}

bool smp_selected(unsigned i)
{
	return i < ncpus && sel[i];
}

uint64_t smp_online_us(unsigned i)
{
	struct percpu *pc = smp_cpu(i);

	if (!pc || i == 0 || !pc->online_tsc || !tsc_hz)
		return 0;
	return (pc->online_tsc - pc->sipi_tsc) * 1000000 / tsc_hz;
}
