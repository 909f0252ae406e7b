/*
 * smp_boot.c: the boot CPU's side of MP initialization (SDM Vol. 3A 9.4.4.1 "Typical BSP
 * Initialization Sequence", 11.6.1 "Interrupt Command Register"): the processors come from
 * the MADT (platform/acpi_madt.c; enabled ones only: an online-capable one is hot-plug), the
 * trampoline (boot/trampoline.asm) goes to a page below 1 MiB chosen from the memory map
 * (smp/boot_plan.c), every AP gets its area (smp/percpu.h) and the table of CPUs is sized
 * from the MADT (no compile-time limit). They start in batches of SMP_BATCH, each batch in
 * parallel where CPUID 1FH/0BH lets an AP find its own slot (smp/smp_start.c, docs/smp.md).
 * An AP that misses a bound is sent INIT again and left out; the reasons are reported one
 * line each, with the CPUs as ranges.
 */
#include "smp/smp.h"
#include "apic/apic.h"
#include "kernel/boot.h"
#include "kernel/cmdline.h"
#include "kernel/console.h"
#include "kernel/mm.h"
#include "kernel/ranges.h"
#include "kernel/hw.h"
#include "kernel/tsc.h"
#include "platform/platform.h"

#include <string.h>

static struct percpu bsp;
/* the CPU table, sized from the MADT and allocated from the memory map (no compile-time
 * limit); the boot CPU alone until then */
static struct percpu *bsp_only[1] = { &bsp }, **cpus = bsp_only;
static bool bsp_sel[1], *sel = bsp_sel;
static unsigned cap = 1, ncpus = 1, nonline = 1, nmadt, nleft_out, nguard_bad;
static uint32_t guard_bad_id;
static const char *why_none;
static struct smp_cpus_req req;
static struct smp_delays delays;
uint64_t smp_tramp_pa;

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
		if (mm_guard_page(a + l.guard_off[i]) && !nguard_bad++)
			guard_bad_id = c->apic_id;	/* reported once for all (start_all) */
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

/* CPU j was left out for the same reason and bound as CPU i */
static bool same_no_answer(unsigned i, unsigned j)
{
	return cpus[j]->state == CPU_NO_ANSWER && cpus[j]->why == cpus[i]->why &&
	       cpus[j]->at_ceiling == cpus[i]->at_ceiling;
}

/* One line per reason and bound a CPU did not come online: its CPU numbers and APIC IDs as
 * ranges; the bound as smp_start.c applied it (no progress for SMP_ONLINE_BOUND_MS, or the
 * batch's ceiling). */
static void report_no_answer(void)
{
	for (unsigned i = 1; i < ncpus; i++) {
		char cb[96], ib[96];
		struct ranges rc, ri;
		bool first = true;

		if (cpus[i]->state != CPU_NO_ANSWER)
			continue;
		for (unsigned j = 1; j < i && first; j++)
			first = !same_no_answer(i, j);
		if (!first)
			continue;	/* reported with the first CPU of its reason */
		ranges_init(&rc, cb, sizeof(cb));
		ranges_init(&ri, ib, sizeof(ib));
		for (unsigned j = i; j < ncpus; j++)
			if (same_no_answer(i, j)) {
				ranges_add(&rc, j);
				ranges_add(&ri, cpus[j]->apic_id);
			}
		ranges_end(&rc);
		ranges_end(&ri);
		kprintf("# smp: cpu%s %s (APIC id%s %s) not online %s %u ms%s (%s): left out\n",
			rc.count > 1 ? "s" : "", cb, ri.count > 1 ? "s" : "", ib,
			cpus[i]->at_ceiling ? "by the batch's" : "after",
			cpus[i]->at_ceiling ? SMP_BATCH_CEILING_MS : SMP_ONLINE_BOUND_MS,
			cpus[i]->at_ceiling ? " ceiling" : " without progress", cpus[i]->why);
	}
}

/* inject=ap_silent: one more "enabled" processor at an APIC ID nobody has, so the bounded
 * wait, the report and the leaving-out of a CPU that never answers run for real. */
static void inject_silent(const struct acpi_madt *m)
{
	const char *inj = cmdline_get(&kcmdline, "inject");
	struct acpi_cpu fake = { .enabled = true, .uid = 0xfe };
	struct percpu *pc;

	if (!inj || strcmp(inj, "ap_silent") || ncpus == cap)
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
}

/* Processors not started for a limit: counted per reason, one line each (APIC IDs as ranges). */
struct left_out {
	const char *why;
	struct ranges ids;
	char buf[96];
};

static void left_out(struct left_out *l, uint32_t apic_id)
{
	if (!l->ids.buf)
		ranges_init(&l->ids, l->buf, sizeof(l->buf));
	ranges_add(&l->ids, apic_id);
	nleft_out++;
}

static void report_left_out(struct left_out *l, unsigned n, const struct acpi_madt *m)
{
	for (unsigned i = 0; i < n; i++)
		if (l[i].ids.count)
			kprintf("# smp: %u processors left out (%s): APIC ids %s\n", l[i].ids.count,
				l[i].why, ranges_end(&l[i].ids));
	if (m->ncpus_dropped || m->ncpus_high)
		kprintf("# smp: %u processors of the MADT left out: %u without room in its list "
			"(no memory), %u with an APIC ID of %u or more (the most this kernel, as "
			"Linux MAX_LOCAL_APIC, records)\n", m->ncpus_dropped + m->ncpus_high,
			m->ncpus_dropped, m->ncpus_high, ACPI_APIC_ID_LIMIT);
}

static bool alloc_tables(unsigned n)
{
	cpus = kalloc((uint64_t)n * sizeof(*cpus), 4096);
	sel = kalloc(n, 4096);
	if (!cpus || !sel) {
		cpus = bsp_only;
		sel = bsp_sel;
		cap = 1;
		return false;
	}
	cap = n;
	cpus[0] = &bsp;
	return true;
}

static void start_all(void)
{
	const struct acpi_madt *m = &acpi.madt;
	struct left_out lo[2] = {
		{ .why = "xAPIC mode reaches APIC IDs up to 254" },
		{ .why = "no memory for its stack and tables" },
	};

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
	if (nmadt <= 1 || !(smp_tramp_pa = smp_tramp_setup(&delays, &why_none)))
		return;
	if (!alloc_tables(m->ncpus + 2)) {	/* the boot CPU if the MADT lacks it, inject */
		why_none = "no memory for the CPU table";
		return;
	}
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
		if (apic_mode() == APIC_XAPIC && c->apic_id > 0xfe)
			left_out(&lo[0], c->apic_id);
		else if (ncpus == cap || !(pc = new_cpu(c)))
			left_out(&lo[1], c->apic_id);
		else
			cpus[ncpus++] = pc;
	}
	inject_silent(m);
	report_left_out(lo, 2, m);
	if (nguard_bad)
		kprintf("# smp: %u guard pages not unmapped (the first of APIC id %u): those "
			"stacks overflow unchecked\n", nguard_bad, guard_bad_id);
	for (unsigned i = 1; i < ncpus; i += SMP_BATCH)
		nonline += smp_start_batch(cpus + i, ncpus - i < SMP_BATCH ? ncpus - i : SMP_BATCH,
					   smp_tramp_pa);
	report_no_answer();
}

void smp_init(void)
{
	const char *arg = cmdline_get(&kcmdline, "cpus"), *why;
	struct smp_cpu_view one, *v;

	ncpus = nonline = cap = 1;	/* from scratch: a host test boots it more than once */
	nguard_bad = 0;
	cpus = bsp_only;
	sel = bsp_sel;
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
	if (smp_cpus_missing(&req, ncpus) >= 0)	/* README: a bad value warns */
		kprintf("# warning: cpus=%s: no CPU %ld here, %u CPU%s (0-%u); running on those "
			"named that exist\n", arg, smp_cpus_missing(&req, ncpus), ncpus,
			ncpus == 1 ? "" : "s", ncpus - 1);
	v = ncpus > 1 ? kalloc((uint64_t)ncpus * sizeof(*v), 4096) : &one;
	if (!v) {
		sel[0] = true;	/* no memory for the view: the boot CPU alone */
		return;
	}
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
