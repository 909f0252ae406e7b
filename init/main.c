/*
 * main.c: the run. Descriptor tables first (so a fault is reported, not a triple fault), then
 * the console, boot information and command line, CPU probe, TSC, memory, the environment
 * header, the test table, the totals, and the exit (kernel/exit.h). init/ is the top of the
 * layer stack in README.md: it may call every layer, and nothing includes it.
 */
#include "apic/apic.h"
#include "kernel/boot.h"
#include "kernel/cmdline.h"
#include "kernel/console.h"
#include "kernel/cpu.h"
#include "kernel/exit.h"
#include "kernel/fmt.h"
#include "kernel/gdt.h"
#include "kernel/idt.h"
#include "kernel/ktap.h"
#include "kernel/mb2.h"
#include "kernel/mm.h"
#include "kernel/mm_internal.h"
#include "kernel/msr_platform.h"
#include "kernel/trust.h"
#include "platform/numa.h"
#include "platform/platform.h"
#include "platform/serial.h"
#include "kernel/tsc.h"
#include "init/init.h"
#include "kernel/rtc.h"
#include "ktests/run.h"
#include "loads/kibs.h"
#include "loads/kload.h"
#include "loads/kpebs.h"
#include "pebs/caps.h"
#include "pebs/pebs.h"
#include "ibs/ibs.h"
#include "ibs/ibs_caps.h"
#include "smp/percpu.h"
#include "smp/smp.h"

#include <string.h>

static struct serial_port serial;
/* TSC at the boot phases (docs/output.md `# startup:`): read raw, converted once tsc_hz is known */
enum { PH_KMAIN, PH_TSC, PH_TSC_DONE, PH_MM_DONE, PH_APIC_DONE, PH_SMP_DONE, PH_HEADER, PH_N };
static uint64_t phase_tsc[PH_N];
static char console_warning[96];	/* printed once the KTAP header is out */

static void warn_line(const char *msg)
{
	kprintf("# warning: %s\n", msg);
}

static void console_setup(void)
{
	/* console=, UART discovery (BDA, ACPI SPCR, COM1) and ACPI: platform/platform.c */
	if (platform_console_setup(&boot_info, &kcmdline, console_warning, sizeof(console_warning)))
		serial.present = false;	/* the discovered ports (COM1 among them) took over */
}

static unsigned long long phase_ms(int from, int to)
{
	return tsc_hz ? (unsigned long long)((phase_tsc[to] - phase_tsc[from]) * 1000 / tsc_hz) : 0;
}

static void print_boot_phases(void)
{
	const struct timing_plan *tp = kload_timing();
	int64_t fw_ms = tsc_ms_since_reset(phase_tsc[PH_KMAIN]);
	char before[80];

	phase_tsc[PH_HEADER] = rdtsc();
	if (fw_ms >= 0)
		fmt_snprintf(before, sizeof(before), "firmware and loader %lld ms before kmain: "
			     "TSC from reset", (long long)fw_ms);
	else
		fmt_snprintf(before, sizeof(before), "firmware and loader: not measured, TSC at "
			     "kmain not a count from reset");
	if (log_full())
		ktap_diag("startup: %llu ms kmain to header: console and command line %llu ms, tsc "
			  "calibration %llu ms, memory %llu ms, apic %llu ms, smp %llu ms, rest %llu "
			  "ms (%s)", phase_ms(PH_KMAIN, PH_HEADER),
			  phase_ms(PH_KMAIN, PH_TSC), phase_ms(PH_TSC, PH_TSC_DONE),
			  phase_ms(PH_TSC_DONE, PH_MM_DONE), phase_ms(PH_MM_DONE, PH_APIC_DONE),
			  phase_ms(PH_APIC_DONE, PH_SMP_DONE), phase_ms(PH_SMP_DONE, PH_HEADER),
			  before);
	else	/* the AP bring-up is the part that grows with the machine */
		ktap_diag("startup: %llu ms kmain to header, smp %llu ms (%s)",
			  phase_ms(PH_KMAIN, PH_HEADER), phase_ms(PH_APIC_DONE, PH_SMP_DONE), before);
	ktap_diag("timing: %s (%s), %u ms per load kernel%s%s", tp->brief ? "brief" : "full",
		  tp->why, tp->budget_ms, tp->unjudged ? ", verdicts SKIP: " : ", verdicts judged",
		  tp->unjudged ? tp->unjudged : "");
}

static void cpu_node_package(void *ctx, unsigned i, unsigned *node, unsigned *package)
{
	const struct percpu *pc = smp_cpu(i);

	(void)ctx;
	*node = pc && pc->state == CPU_ONLINE ? pc->node : ~0u;
	*package = pc && pc->state == CPU_ONLINE ? pc->topo.package : ~0u;
}

/* Each CPU's NUMA node from the SRAT (read by platform_late_setup): 0 without an SRAT, or for
 * a CPU the SRAT does not list. */
static void smp_set_nodes(void)
{
	for (unsigned i = 0; i < smp_cpu_count(); i++) {
		struct percpu *pc = smp_cpu(i);
		int node = pc ? numa_node_of_apic(&numa, pc->apic_id) : -1;

		if (pc)
			pc->node = node < 0 ? 0 : (uint32_t)node;
	}
	numa_note_packages(&numa, smp_cpu_count(), cpu_node_package, NULL);	/* SNC */
}

/* splitmix64's finaliser (Steele, Lea, Flood, "Fast splittable pseudorandom number
 * generators", OOPSLA 2014): spreads every input bit over the whole word */
static uint64_t mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* `# run: id=<hex> time=<RTC>` (docs/output.md "Run identity"): one run captured on two
 * consoles is one run, and runs order by the machine's clock. The id mixes the TSC at kmain
 * and now (their low bits differ from boot to boot) with the RTC; not a secret, an identity. */
static void print_run_identity(uint64_t tsc0)
{
	struct rtc_time t;
	const char *why = "";
	char when[24] = "unknown";
	bool have = rtc_read(&t, &why);
	uint64_t id;

	if (have)
		rtc_iso8601(&t, when, sizeof(when));
	id = mix(tsc0 ^ mix(rdtsc() ^ (have ? (uint64_t)t.year << 40 | (uint64_t)t.mon << 32 |
					    t.day << 24 | t.hour << 16 | t.min << 8 | t.sec : 0)));
	ktap_diag("run: id=%016llx time=%s%s%s%s", (unsigned long long)id, when,
		  have ? "" : " (", have ? "" : why, have ? "" : ")");
	/* the version from this object, as the header line below prints it */
	fmt_snprintf(boot_run_identity, sizeof(boot_run_identity), "pebs-kernel %s  run id=%016llx "
		     "time=%s", PEBS_KERNEL_VERSION, (unsigned long long)id, when);
}

static void print_header(void)
{
	uint64_t free = pmm_free_bytes(), total = pmm_total_bytes();
	char line[200];

	ktap_diag("output-format: %u", OUTPUT_FORMAT);
	print_run_identity(phase_tsc[PH_KMAIN]);
	ktap_diag("pebs-kernel %s", PEBS_KERNEL_VERSION);
	ktap_diag("cmdline: %s", boot_info.cmdline ? boot_info.cmdline : "(none)");
	ktap_diag("boot loader: %s%s", boot_info.loader ? boot_info.loader : "(unknown)",
		  boot_info.efi64 ? " (UEFI)" : "");
	for (unsigned i = 0; cpu_header_line(&cpu, i, line, sizeof(line)); i++)
		ktap_diag("%s", line);
	ktap_diag("memory: %llu MiB usable, %llu MiB free, %u map entries",
		  (unsigned long long)(total >> 20), (unsigned long long)(free >> 20),
		  boot_info.nmmap);
	ktap_diag("tsc: %llu kHz (%s)%s", (unsigned long long)(tsc_hz / 1000), tsc_source,
		  cpu.invariant_tsc ? ", invariant" : "");
	ktap_diag("paging: %s pages, NX %s", cpu.page1g ? "1 GiB" : "2 MiB",
		  cpu.nx ? "on" : "unavailable");
	if (msr_platform_header_line(line, sizeof(line)))
		ktap_diag("%s", line);
	trust_header_line(line, sizeof(line));
	ktap_diag("%s", line);
	apic_print_header(log_full());
	smp_print_header();
	print_boot_phases();
}

void kmain(uint32_t magic, uint64_t info)
{
	char why[64] = "";

	phase_tsc[PH_KMAIN] = rdtsc();
	gdt_init();
	idt_init();
	cpu_probe(&cpu);
	if (serial_init(&serial, serial_com_base[0], SERIAL_DEFAULT_BAUD)) {
		console_register(&serial.be);
		serial_console = &serial;
	}
	boot_info_addr = info;
	if (magic != MB2_BOOTLOADER_MAGIC)
		run_fatal("not booted by a multiboot2 loader");
	/* GRUB places the information below 4 GiB; its own size field is checked against
	 * the 1 MiB bound the parser accepts */
	if (!mb2_parse((const void *)(uintptr_t)info, MB2_MAX_INFO_SIZE, &boot_info, NULL)) {
		ktap_begin();
		run_fatal("multiboot2 boot information unusable");
	}
	cmdline_parse(&kcmdline, boot_info.cmdline, CMDLINE_MAX_LEN * 2, option_table, NULL);
	{	/* log=full (or the older `verbose`): every detail line (kernel/ktap_detail.h) */
		const char *lm = cmdline_get(&kcmdline, "log");

		log_set_full(cmdline_has(&kcmdline, "verbose") || (lm && strcmp(lm, "full") == 0));
	}
	console_setup();

	ktap_begin();
	ktap_plan(ktests_planned());	/* the plan follows the version line (ktap.rst) */
	if (console_warning[0])
		warn_line(console_warning);
	/* the same parses again, now that the console is settled, to print their warnings */
	{
		struct mb2_info tmp;
		struct cmdline tmpcl;

		mb2_parse((const void *)(uintptr_t)info, MB2_MAX_INFO_SIZE, &tmp, warn_line);
		cmdline_parse(&tmpcl, boot_info.cmdline, CMDLINE_MAX_LEN * 2, option_table,
			      warn_line);
	}
	phase_tsc[PH_TSC] = rdtsc();
	tsc_init();
	phase_tsc[PH_TSC_DONE] = rdtsc();
	msr_platform_probe();	/* do unknown MSRs #GP here? (kernel/msr_platform.h) */
	trust_init(tsc_hz / 1000);	/* SMIs, throttling, APERF/MPERF, MCA (kernel/trust.h) */
	if (!mm_init(&boot_info, info, why, sizeof(why)))
		run_fatal(why);
	platform_late_setup(&boot_info);
	phase_tsc[PH_MM_DONE] = rdtsc();
	apic_init();	/* after mm (the xAPIC page is mapped uncached); says why if it cannot */
	phase_tsc[PH_APIC_DONE] = rdtsc();
	smp_init();	/* after apic (INIT/SIPI through the ICR); its waits are bounded */
	smp_set_nodes();
	pebs_pmi_slots(smp_cpu_count());	/* a PMI slot per CPU started */
	/* an AP that faults inside a measurement leaves no sampling armed (smp/smp.h) */
	smp_on_ap_recovery(cpu.vendor == VENDOR_AMD ? ibs_disarm_here : pebs_disarm_here);
	phase_tsc[PH_SMP_DONE] = rdtsc();
	print_header();
	platform_print_header(&boot_info);
	pebs_caps_print(pebs_caps_init());
	if (cpu.vendor == VENDOR_AMD)
		ibs_caps_print(ibs_caps_init());	/* the AMD path (docs/ibs.md) */
	kload_header();	/* cache geometry, core clock, PEBS step (docs/output.md) */
	if (cpu.vendor == VENDOR_AMD)
		kibs_register();	/* the AMD path in place of PEBS: IBS (loads/kibs.h) */
	ktests_run();
}
