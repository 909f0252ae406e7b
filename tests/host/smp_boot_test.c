/*
 * smp_boot_test.c: the boot CPU's side of AP start-up (smp/smp_boot.c; SDM Vol. 3A 9.4.4.1
 * "Typical BSP Initialization Sequence") against the local-APIC model, with the other CPUs
 * played by tests/model/ap_model.c: on a SIPI an AP reads its parameters from the trampoline
 * page, as the real trampoline does, and marks itself alive and online, only alive, or
 * nothing, or answers only the second SIPI, or is slow (an emulator's CPUs on a loaded host).
 * Checked: the IPI sequence per AP (INIT, delay, SIPI, a second SIPI only when the first got
 * no answer, INIT again for one that never came online), the bound (500 ms without progress,
 * the batch's ceiling), the report, who is left out (an online-capable-only entry, an x2APIC
 * ID xAPIC mode cannot reach), the trampoline page and parameters, and the refusals (no MADT,
 * no APIC). The low memory the trampoline needs is mapped at its physical address.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <cmocka.h>

#include "apic/apic.h"
#include "apic/apic_regs.h"
#include "kernel/boot.h"
#include "platform/platform.h"
#include "kernel/tsc.h"
#include "model/ap_model.h"
#include "model/lapic_model.h"
#include "model/vclock.h"
#include "smp/smp.h"
#include "stubs/apic_env.h"
#include "stubs/console_capture.h"

/* stand-ins for the trampoline image and the kernel symbols smp_boot.c takes addresses of */
__asm__(".data\n.balign 16\n"
	".globl smp_tramp_start, smp_tramp_pm32, smp_tramp_gdt, smp_tramp_params, smp_tramp_end\n"
	".globl smp_ap_entry64, early_pml4\n"
	"smp_tramp_start: .fill 0x2d, 1, 0xa5\n"
	"smp_tramp_pm32: .fill 0x53, 1, 0x5a\n"
	".balign 8\nsmp_tramp_gdt: .fill 32, 1, 0x11\n"
	"smp_tramp_params: .fill 80, 1, 0\n"
	"smp_tramp_end:\n"
	"smp_ap_entry64: .quad 0\n.balign 4096\nearly_pml4: .fill 4096, 1, 0\n.text\n");
extern char smp_tramp_start[], smp_tramp_params[], smp_tramp_end[], smp_tramp_gdt[];
extern char smp_tramp_pm32[], early_pml4[];

struct acpi_info acpi;
struct mb2_info boot_info;
uint64_t boot_info_addr;

void smp_ap_install(void) {}
void smp_probe_topology(struct percpu *pc)
{
	pc->topo.x2apic_id = pc->apic_id;
	pc->topo.core = pc->apic_id;
}
#define MAXALLOC 1024
static void *allocs[MAXALLOC];	/* the AP areas of one boot, freed before the next */
static unsigned nallocs;
static uintptr_t guards[4096];	/* pages smp_boot.c unmapped, in order */
static unsigned nguards;

int mm_guard_page(void *va)
{
	if ((uintptr_t)va & 0xfff || nguards == 4096)
		return -1;
	guards[nguards++] = (uintptr_t)va;
	return 0;
}

void *kalloc(uint64_t bytes, uint64_t align)
{
	/* rounded up as pmm_alloc does (aligned_alloc wants a multiple of the alignment) */
	void *p = nallocs < MAXALLOC ? aligned_alloc(align, (bytes + align - 1) & ~(align - 1)) : NULL;

	if (p) {
		memset(p, 0, bytes);
		allocs[nallocs++] = p;
	}
	return p;
}

static void free_allocs(void)
{
	while (nallocs)
		free(allocs[--nallocs]);
}
uint64_t read_cr3(void) { return 0x1000; }
void tsc_delay_us(uint64_t us) { vclock_advance(us * (tsc_hz / 1000000)); }

static int setup(void **state)
{
	void *low = mmap((void *)0x80000, 0x20000, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

	(void)state;
	return low == (void *)0x80000 ? 0 : -1;	/* the low pages the SIPI vector names */
}

static int teardown(void **state)
{
	(void)state;
	free_allocs();
	return 0;
}

static struct acpi_cpu madt_cpus[5000];

static void add_cpu(uint32_t id, bool en, bool oc, bool x2)
{
	acpi.madt.cpu[acpi.madt.ncpus++] = (struct acpi_cpu){ .apic_id = id, .uid = id,
		.enabled = en, .online_capable = oc, .x2apic = x2 };
}

static void boot_mode(uint64_t base, const char *cmdline)
{
	free_allocs();
	assert_true(env_boot(base, base == X2B, 0, cmdline));
	ap_model_reset();
	cpu.vendor = VENDOR_INTEL;
	cpu.family = 6;
	cpu.nx = true;
	vclock.step = 50000;	/* 50 us per TSC read: the 500 ms bound is 10000 reads */
	memset(&acpi, 0, sizeof(acpi));
	acpi.madt.cpu = madt_cpus;
	acpi.madt.cap = 5000;
	acpi.have_madt = true;
	memset(&boot_info, 0, sizeof(boot_info));
	boot_info.mmap[0] = (struct mb2_mmap_entry){ .base = 0, .len = 0x9fc00,
						     .type = MB2_MEM_AVAILABLE };
	boot_info.mmap[1] = (struct mb2_mmap_entry){ .base = 0x100000, .len = 0x7f00000,
						     .type = MB2_MEM_AVAILABLE };
	boot_info.nmmap = 2;
	boot_info_addr = 0x200000;
	boot_info.total_size = 0x1000;
	stub_console_reset();
}

static void boot(const char *cmdline)
{
	boot_mode(XB, cmdline);
}

static void test_sequence(void **state)
{
	const uint8_t *page = (const uint8_t *)0x9f000;
	uint64_t off = (uint64_t)(smp_tramp_params - smp_tramp_start);
	uint32_t v32;

	(void)state;
	boot("cpus=all");
	nguards = 0;
	add_cpu(0, true, false, false);		/* the boot CPU */
	add_cpu(1, true, false, false);
	add_cpu(2, true, false, false);
	add_cpu(3, true, false, false);
	add_cpu(4, true, false, false);
	add_cpu(5, false, true, false);		/* online-capable only: hot-plug, not started */
	add_cpu(6, false, false, false);
	add_cpu(0x1ff, true, false, true);	/* unreachable in xAPIC mode */
	add_cpu(7, true, false, false);
	apm.kind[2] = AP_SECOND_SIPI;
	apm.kind[3] = AP_SILENT;
	apm.kind[4] = AP_ALIVE_ONLY;
	smp_init();

	assert_null(smp_why_none());
	assert_int_equal(smp_madt_count(), 7);		/* enabled entries */
	assert_int_equal(smp_cpu_count(), 6);		/* BSP + 1, 2, 3, 4, 7 */
	assert_int_equal(smp_online_count(), 4);	/* BSP + 1, 2, 7 */
	assert_int_equal(smp_left_out(), 1);		/* 0x1ff */
	assert_string_equal(apm.seq[0], "");
	assert_string_equal(apm.seq[1], "IS");
	assert_string_equal(apm.seq[2], "ISS");
	assert_string_equal(apm.seq[3], "ISSI");		/* INIT again after the bound */
	assert_string_equal(apm.seq[4], "ISI");		/* alive after the first SIPI */
	assert_string_equal(apm.seq[5], "");
	assert_string_equal(apm.seq[6], "");
	assert_string_equal(apm.seq[7], "IS");
	assert_int_equal(apm.vector[1], 0x9f);
	assert_true(apm.t_sipi[1] - apm.t_init[1] >= 10 * (tsc_hz / 1000000));	/* INIT -> SIPI */
	assert_true(apm.t_init[3] - apm.t_sipi[3] >= 500 * (tsc_hz / 1000));	/* the bound */
	assert_int_equal(smp_cpu(3)->state, CPU_NO_ANSWER);
	assert_int_equal(smp_cpu(4)->state, CPU_NO_ANSWER);
	assert_int_equal(smp_cpu(2)->sipis, 2);
	assert_non_null(strstr(stub_console_text(), "cpu 3 (APIC id 3) not online after 500 ms "
				"without progress (did not run the trampoline): left out"));
	assert_non_null(strstr(stub_console_text(), "(ran the trampoline but did not reach the "
						     "kernel)"));
	assert_non_null(strstr(stub_console_text(), "1 processors left out (xAPIC mode reaches "
						     "APIC IDs up to 254): APIC ids 511"));
	assert_true(smp_selected(0) && smp_selected(1) && smp_selected(2) && !smp_selected(3));
	assert_true(smp_online_us(1) > 0 && smp_online_us(3) == 0);
	/* every started AP: the page right below its stack and below each IST stack unmapped */
	assert_int_equal(nguards, 4 * 5);
	for (unsigned i = 1; i < smp_cpu_count(); i++) {
		const struct percpu *pc = smp_cpu(i);

		assert_int_equal(guards[4 * (i - 1)], pc->stack_top - PERCPU_STACK - 4096);
		for (unsigned k = 0; k < 3; k++)
			assert_int_equal(guards[4 * (i - 1) + 1 + k],
					 pc->ist_top[k] - PERCPU_IST - 4096);
	}

	/* the page holds the trampoline and its parameters */
	assert_memory_equal(page, smp_tramp_start, off);
	memcpy(&v32, page + off + 0, 4);
	assert_int_equal(v32, (uint32_t)(uintptr_t)early_pml4);
	memcpy(&v32, page + off + 4, 4);
	assert_int_equal(v32, (1u << 8) | (1u << 11));	/* LME, NXE */
	memcpy(&v32, page + off + 50, 4);
	assert_int_equal(v32, 0x9f000 + (smp_tramp_gdt - smp_tramp_start));
	memcpy(&v32, page + off + 56, 4);
	assert_int_equal(v32, 0x9f000 + (smp_tramp_pm32 - smp_tramp_start));
}

/* x2APIC mode: 32-bit destinations, so an ID above 254 is started like any other */
static void test_x2apic(void **state)
{
	(void)state;
	boot_mode(X2B, "");
	add_cpu(0, true, false, false);
	add_cpu(0x1ff, true, false, true);
	add_cpu(3, true, false, false);
	smp_init();
	assert_int_equal(apic_mode(), APIC_X2APIC);
	assert_string_equal(apm.seq[0x1ff], "IS");
	assert_string_equal(apm.seq[3], "IS");
	assert_int_equal(smp_online_count(), 3);
	assert_int_equal(smp_left_out(), 0);
	assert_int_equal(lm.mmio_wrong_mode, 0);
	/* H9: every INIT and SIPI WRMSR to the x2APIC ICR came after MFENCE; LFENCE */
	assert_int_not_equal(lm.icr_sends, 0);
	assert_int_equal(lm.unfenced_wrmsr, 0);
}

/* 300 processors in x2APIC mode (QEMU 10 -smp 300): every one started, in batches of
 * SMP_BATCH: each batch's INITs before its first SIPI and one INIT->SIPI delay per batch, the
 * next batch's INIT only after the last one's SIPI. The CPUs that do not come online are
 * reported one line per reason with their CPUs and APIC IDs as ranges, not one line each.
 * parallel: the boot CPU has CPUID 0BH (an AP finds its slot by its x2APIC ID), else one AP
 * at a time; the failed APs' bounds then add up (five of 500 ms) where in parallel those
 * of one batch overlap (three batches hold them). */
static void run_300(bool parallel)
{
	enum { N = 300 };
	uint64_t t0, bounds = parallel ? 3 : 5;
	const char *log, *silent = parallel ? "did not take its slot from the trampoline"
					    : "did not run the trampoline";
	char want[160];

	boot_mode(X2B, "");
	cpu.x2apic_id_leaf = parallel ? 0xb : 0;
	cpu.x2apic_id = 0;
	for (uint32_t i = 0; i < N; i++)
		add_cpu(i, true, false, i >= 255);
	apm.kind[100] = apm.kind[101] = apm.kind[102] = AP_SILENT;
	apm.kind[250] = AP_TAKEN_ONLY;
	apm.kind[7] = AP_ALIVE_ONLY;	/* in parallel: not taken, so a second SIPI (ignored) */
	apm.kind[8] = AP_SECOND_SIPI;
	t0 = vclock.now;
	smp_init();
	assert_int_equal(smp_start_parallel(), parallel);
	assert_int_equal(smp_madt_count(), N);
	assert_int_equal(smp_cpu_count(), N);
	assert_int_equal(smp_online_count(), N - 5);
	assert_int_equal(smp_left_out(), 0);
	for (unsigned id = 1; id < N; id++)
		if (apm.kind[id] == AP_ONLINE)
			assert_string_equal(apm.seq[id], "IS");
	assert_string_equal(apm.seq[100], "ISSI");
	assert_string_equal(apm.seq[250], "ISI");
	assert_string_equal(apm.seq[7], parallel ? "ISSI" : "ISI");
	assert_string_equal(apm.seq[8], "ISS");
	/* batch 1 is CPUs 1-64: every INIT before the first SIPI, one delay for all */
	assert_true(apm.t_init[SMP_BATCH] < apm.t_sipi[1]);
	assert_true(apm.t_sipi[1] - apm.t_init[SMP_BATCH] >= 10 * (tsc_hz / 1000000));
	assert_true(apm.t_init[SMP_BATCH + 1] > apm.t_sipi[SMP_BATCH]);	/* batch 2 after batch 1 */
	log = stub_console_text();
	snprintf(want, sizeof(want), "cpus %s (APIC ids %s) not online after 500 ms without "
		 "progress (%s): left out", parallel ? "7,100-102" : "100-102", parallel ? "7,100-102" : "100-102",
		 silent);
	assert_non_null(strstr(log, want));
	if (!parallel)
		assert_non_null(strstr(log, "cpu 7 (APIC id 7) not online after 500 ms without "
					    "progress (ran the trampoline but did not reach the "
					    "kernel): left out"));
	assert_non_null(strstr(log, "cpu 250 (APIC id 250) not online after 500 ms without "
				    "progress (reached the kernel but did not report online): left "
				    "out"));
	assert_null(strstr(log, "cpu 101 "));
	/* the failed APs cost their bounds, the other 295 APs under 100 ms */
	assert_true(vclock.now - t0 < (bounds * SMP_ONLINE_BOUND_MS + 100) * (tsc_hz / 1000));
	assert_true(vclock.now - t0 > bounds * SMP_ONLINE_BOUND_MS * (tsc_hz / 1000));
}

static void test_batches_300_parallel(void **state)
{
	(void)state;
	run_300(true);
}

static void test_batches_300_serial(void **state)
{
	(void)state;
	run_300(false);
}

/* xAPIC mode with 300 processors: the 45 it cannot address are left out in one line. */
static void test_xapic_left_out_one_line(void **state)
{
	const char *log;

	(void)state;
	boot_mode(XB, "");
	for (uint32_t i = 0; i < 300; i++)
		add_cpu(i, true, false, i >= 255);
	smp_init();
	assert_int_equal(smp_cpu_count(), 255);
	assert_int_equal(smp_left_out(), 45);
	assert_int_equal(smp_cpu_count() + smp_left_out(), smp_madt_count());
	log = stub_console_text();
	assert_non_null(strstr(log, "# smp: 45 processors left out (xAPIC mode reaches APIC IDs "
				    "up to 254): APIC ids 255-299\n"));
	assert_null(strstr(strstr(log, "APIC ids 255-299") + 1, "left out"));
}

static void test_refusals(void **state)
{
	(void)state;
	boot("cpus=9-2");
	acpi.have_madt = false;
	smp_init();
	assert_non_null(smp_why_none());
	assert_int_equal(smp_cpu_count(), 1);
	assert_non_null(strstr(stub_console_text(), "warning: cpus=9-2"));
	assert_int_equal(smp_cpus()->mode, SMP_CPUS_TYPES);

	boot("");
	add_cpu(0, true, false, false);
	add_cpu(1, true, false, false);
	boot_info.nmmap = 1;
	boot_info.mmap[0].len = 0x1000;		/* no usable page below 640 KiB but page 0 */
	smp_init();
	assert_non_null(strstr(smp_why_none(), "no free page"));
	assert_string_equal(apm.seq[1], "");
	assert_int_equal(smp_online_count(), 1);

	boot("");
	add_cpu(0, true, false, false);		/* only the boot CPU: nothing to start */
	smp_init();
	assert_null(smp_why_none());
	assert_int_equal(smp_cpu_count(), 1);
	assert_int_equal(smp_madt_count(), 1);
	assert_null(strstr(stub_console_text(), "warning"));

	/* cpus= naming CPUs that do not exist: one warning with how many there are (README) */
	boot("cpus=9");
	add_cpu(0, true, false, false);
	smp_init();
	assert_non_null(strstr(stub_console_text(), "# warning: cpus=9: no CPU 9 here, 1 CPU "
				"(0-0); running on those named that exist\n"));
	assert_int_equal(smp_cpus()->mode, SMP_CPUS_LIST);
	boot("cpus=1,5-7,4");
	for (uint32_t id = 0; id < 3; id++)
		add_cpu(id, true, false, false);
	smp_init();
	assert_int_equal(smp_cpu_count(), 3);
	assert_non_null(strstr(stub_console_text(), "# warning: cpus=1,5-7,4: no CPU 4 here, 3 "
				"CPUs (0-2)"));
	assert_true(smp_selected(1) && !smp_selected(2));
	boot("cpus=0-2");
	for (uint32_t id = 0; id < 3; id++)
		add_cpu(id, true, false, false);
	smp_init();
	assert_null(strstr(stub_console_text(), "warning"));
}

#define MS (tsc_hz / 1000)

/* One batch (or more) of slow emulated APs in parallel (ap_model_slow): the model's arrivals
 * are what the test is about, each within the bound of the one before, the batch spread
 * over more than the bound. A per-SIPI bound leaves the late ones out. */
static void slow_batch(uint64_t seed)
{
	enum { N = 1 + 2 * SMP_BATCH };
	uint64_t t0, prev, gap = 0;

	boot_mode(X2B, "");
	cpu.x2apic_id_leaf = 0xb;
	for (uint32_t i = 0; i < N; i++)
		add_cpu(i, true, false, false);
	/* 0.1-2 ms to take a slot, 5-60 ms to come online, one after another on one host core */
	ap_model_slow(seed, 1, N - 1, 100, 2000, 5000, 60000);
	t0 = vclock.now;
	smp_init();
	assert_int_equal(smp_online_count(), N);
	assert_null(strstr(stub_console_text(), "left out"));
	for (unsigned b = 0; b < 2; b++) {	/* the scenario: per batch, from its first SIPI */
		unsigned lo = 1 + b * SMP_BATCH;

		prev = apm.t_sipi[lo];
		for (unsigned id = lo; id < lo + SMP_BATCH; id++) {
			uint64_t t = apm.t_online[id];

			assert_true(t > prev);
			gap = t - prev > gap ? t - prev : gap;
			prev = t > prev ? t : prev;
		}
		assert_true(prev - apm.t_sipi[lo] > 3 * SMP_ONLINE_BOUND_MS * MS);
	}
	assert_true(gap < SMP_ONLINE_BOUND_MS * MS);
	/* the wait ends with the last arrival */
	assert_true(vclock.now - ap_model_last_online(1, N - 1) < MS);
	assert_true(vclock.now - t0 < 2 * SMP_BATCH * 61 * MS);
}

static void test_slow_aps(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed <= 3; seed++)
		slow_batch(seed);
}

/*
 * One at a time: AP 2's trampoline waits on the host core behind AP 1's start (450 ms), so it
 * takes its parameters 550 ms after its SIPI, 100 ms after AP 1 came online: still progress.
 */
static void test_slow_aps_serial(void **state)
{
	(void)state;
	boot_mode(X2B, "");
	cpu.x2apic_id_leaf = 0;
	for (uint32_t i = 0; i < 4; i++)
		add_cpu(i, true, false, false);
	ap_model_slow(0, 1, 3, 1000, 1000, 1000, 1000);
	apm.cost_online[1] = 450 * MS;
	apm.cost_take[2] = 100 * MS;
	smp_init();
	assert_int_equal(smp_online_count(), 4);
	assert_true(apm.t_online[2] - apm.t_sipi[2] > 550 * MS);
	assert_string_equal(apm.seq[2], "ISS");		/* not alive after 200 us: a second SIPI */
	assert_null(strstr(stub_console_text(), "left out"));
}

/* A silent AP among slow ones costs the bound after the last arrival, not more. */
static void test_slow_aps_silent(void **state)
{
	uint64_t last;

	(void)state;
	boot_mode(X2B, "");
	cpu.x2apic_id_leaf = 0xb;
	for (uint32_t i = 0; i <= SMP_BATCH; i++)
		add_cpu(i, true, false, false);
	ap_model_slow(7, 1, SMP_BATCH - 1, 100, 2000, 5000, 60000);
	apm.kind[SMP_BATCH] = AP_SILENT;
	smp_init();
	assert_int_equal(smp_online_count(), SMP_BATCH);
	last = ap_model_last_online(1, SMP_BATCH - 1);
	assert_true(last - apm.t_sipi[1] > 2 * SMP_ONLINE_BOUND_MS * MS);
	assert_string_equal(apm.seq[SMP_BATCH], "ISSI");
	assert_true(apm.t_init[SMP_BATCH] - last > SMP_ONLINE_BOUND_MS * MS);
	assert_true(apm.t_init[SMP_BATCH] - last < (SMP_ONLINE_BOUND_MS + 1) * MS);
	assert_non_null(strstr(stub_console_text(), "# smp: cpu 64 (APIC id 64) not online after "
				"500 ms without progress (did not take its slot from the "
				"trampoline): left out\n"));
}

/*
 * Slots taken are progress too: 64 APs whose trampolines queue on the host core ahead of any
 * kernel start (10 ms each: the last slot taken 640 ms after the SIPIs), so none is online
 * within the bound of its SIPI while every 10 ms another takes its slot. Bounded by online
 * arrivals alone, the whole batch would be left out at 500 ms.
 */
static void test_slow_aps_slots(void **state)
{
	(void)state;
	boot_mode(X2B, "");
	cpu.x2apic_id_leaf = 0xb;
	for (uint32_t i = 0; i <= SMP_BATCH; i++)
		add_cpu(i, true, false, false);
	ap_model_slow(0, 1, SMP_BATCH, 10000, 10000, 5000, 5000);
	smp_init();
	assert_int_equal(smp_online_count(), 1 + SMP_BATCH);
	assert_true(apm.t_online[1] - apm.t_sipi[1] > SMP_ONLINE_BOUND_MS * MS);
	assert_null(strstr(stub_console_text(), "left out"));
}

/* APs that keep arriving 400 ms apart (a batch of 64: 25.6 s) stop at the batch's ceiling:
 * the 37 in by 14.8 s are online, the rest left out with the ceiling named. */
static void test_slow_aps_ceiling(void **state)
{
	uint64_t t0;

	(void)state;
	boot_mode(X2B, "");
	cpu.x2apic_id_leaf = 0xb;
	for (uint32_t i = 0; i <= SMP_BATCH; i++)
		add_cpu(i, true, false, false);
	ap_model_slow(0, 1, SMP_BATCH, 10, 10, 400000, 400000);
	smp_init();
	t0 = apm.t_sipi[1];
	assert_int_equal(smp_online_count(), 1 + 37);
	assert_true(apm.t_online[37] - t0 < SMP_BATCH_CEILING_MS * MS);
	assert_int_equal(apm.t_online[38], 0);
	/* from the batch's first SIPI (the kernel's clock starts a few reads before the model's) */
	assert_true(apm.t_init[38] - t0 > (SMP_BATCH_CEILING_MS - 1) * MS);
	assert_true(apm.t_init[SMP_BATCH] - t0 < (SMP_BATCH_CEILING_MS + 2) * MS);	/* 27 INITs */
	assert_non_null(strstr(stub_console_text(), "# smp: cpus 38-64 (APIC ids 38-64) not online "
				"by the batch's 15000 ms ceiling (reached the kernel but did not "
				"report online): left out\n"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sequence),
		cmocka_unit_test(test_x2apic),
		cmocka_unit_test(test_batches_300_parallel),
		cmocka_unit_test(test_batches_300_serial),
		cmocka_unit_test(test_xapic_left_out_one_line),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_slow_aps),
		cmocka_unit_test(test_slow_aps_serial),
		cmocka_unit_test(test_slow_aps_silent),
		cmocka_unit_test(test_slow_aps_slots),
		cmocka_unit_test(test_slow_aps_ceiling),
	};

	return cmocka_run_group_tests_name("smp_boot", tests, setup, teardown);
}
