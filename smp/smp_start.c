/*
 * smp_start.c: the INIT-SIPI-SIPI of one batch of application processors (SDM Vol. 3A
 * 9.4.4.1 "Typical BSP Initialization Sequence": INIT, 10 ms, SIPI, 200 us, a second SIPI;
 * 11.6.1 "Interrupt Command Register"; smp/boot_plan.c picks the delays) and the real-mode
 * page they start on (boot/trampoline.asm, its parameter block mirrored below). Two ways,
 * docs/smp.md "Starting the APs":
 * - parallel (the boot CPU has CPUID 1FH/0BH, whose x2APIC ID is its APIC ID): the batch's
 *   slots (APIC ID, stack, percpu) are in a table the trampoline searches by the AP's own
 *   x2APIC ID from that leaf, as Linux's parallel bring-up does (arch/x86/kernel/head_64.S,
 *   STARTUP_READ_APICID; arch/x86/kernel/smpboot.c do_boot_cpu); so INIT to each AP, one
 *   delay, SIPI to each, one delay, a second SIPI to each that has not taken its slot, then a
 *   bounded wait for all;
 * - one at a time otherwise: the block holds one AP's stack and percpu; per AP SIPI (a
 *   second one when it is not alive), then a bounded wait until it took them (TP_TAKEN); it
 *   initialises itself while the next one starts.
 * Each wait is bounded by progress: an AP is given up on once SMP_ONLINE_BOUND_MS has passed
 * both since its first SIPI and since an AP of its batch last came online or took its slot
 * (parallel start), so late APs of a
 * batch an emulator runs slowly are waited for while others still arrive, and a silent one
 * costs that bound after the last arrival; SMP_BATCH_CEILING_MS from the batch's first SIPI
 * ends a batch whose APs trickle in forever. An AP that misses its bound is sent INIT again
 * (it cannot run the trampoline later with another AP's parameters) and left out, with the
 * reason in its percpu.
 */
#include "smp/smp.h"
#include "apic/apic.h"
#include "apic/apic_enc.h"
#include "apic/apic_ops.h"
#include "apic/apic_regs.h"
#include "kernel/boot.h"
#include "kernel/cpu.h"
#include "kernel/extable.h"
#include "kernel/hw.h"
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
	uint32_t alive, taken;
	uint8_t gdtr[6];	/* limit u16, base u32 (unaligned: bytes) */
	uint16_t pad2;
	uint32_t jmp32_off;
	uint16_t jmp32_sel, pad3;
	uint64_t slots;		/* parallel: struct smp_slot[nslots] */
	uint32_t nslots;
	uint32_t id_leaf;	/* parallel: CPUID leaf (0BH/1FH) whose EDX is the x2APIC ID; 0: one AP */
};
_Static_assert(offsetof(struct smp_tramp_params, jmp64_off) == 8, "TP_JMP64");
_Static_assert(offsetof(struct smp_tramp_params, kcr3) == 16, "TP_KCR3");
_Static_assert(offsetof(struct smp_tramp_params, alive) == 40, "TP_ALIVE");
_Static_assert(offsetof(struct smp_tramp_params, taken) == 44, "TP_TAKEN");
_Static_assert(offsetof(struct smp_tramp_params, gdtr) == 48, "TP_GDTR");
_Static_assert(offsetof(struct smp_tramp_params, jmp32_off) == 56, "TP_JMP32");
_Static_assert(offsetof(struct smp_tramp_params, slots) == 64, "TP_SLOTS");
_Static_assert(offsetof(struct smp_tramp_params, nslots) == 72, "TP_NSLOTS");
_Static_assert(offsetof(struct smp_tramp_params, id_leaf) == 76, "TP_IDLEAF");
_Static_assert(sizeof(struct smp_tramp_params) == 80, "the block is 80 bytes");

/* One AP of a parallel batch (boot/trampoline.asm SLOT_*). */
struct smp_slot {
	uint32_t apic_id;
	volatile uint32_t taken;	/* the AP found its slot */
	uint64_t stack, percpu;
};
_Static_assert(sizeof(struct smp_slot) == 24, "SLOT_SIZE");

extern char smp_tramp_start[], smp_tramp_end[], smp_tramp_params[], smp_tramp_pm32[];
extern char smp_tramp_gdt[], smp_ap_entry64[], early_pml4[];

static volatile struct smp_tramp_params *tp;
static struct smp_slot slots[SMP_BATCH];
static const struct smp_delays *delays;

#define OFF(sym) ((uint64_t)((sym) - smp_tramp_start))

uint64_t smp_tramp_setup(const struct smp_delays *d, const char **why)
{
	uint64_t size = (uint64_t)(smp_tramp_end - smp_tramp_start), pa;
	struct smp_range avoid[2] = {
		{ .base = boot_info_addr, .len = boot_info.total_size },
		{ .base = 0, .len = 0x1000 },
	};
	uint32_t gdt;

	delays = d;
	pa = smp_tramp_place(boot_info.mmap, boot_info.nmmap, size, avoid, 2, why);
	if (!pa)
		return 0;
	memcpy((void *)(uintptr_t)pa, smp_tramp_start, size);
	tp = (volatile struct smp_tramp_params *)(uintptr_t)(pa + OFF(smp_tramp_params));
	tp->early_cr3 = (uint32_t)(uintptr_t)early_pml4;
	tp->efer = EFER_LME | (cpu.nx ? EFER_NXE : 0);
	tp->jmp64_off = (uint32_t)(uintptr_t)smp_ap_entry64;
	tp->jmp64_sel = 0x18;
	tp->kcr3 = read_cr3();
	gdt = (uint32_t)(pa + OFF(smp_tramp_gdt));
	tp->gdtr[0] = 4 * 8 - 1;	/* four descriptors */
	tp->gdtr[1] = 0;
	for (unsigned i = 0; i < 4; i++)
		tp->gdtr[2 + i] = (uint8_t)(gdt >> (8 * i));
	tp->jmp32_off = (uint32_t)(pa + OFF(smp_tramp_pm32));
	tp->jmp32_sel = 0x08;
	tp->slots = (uint64_t)(uintptr_t)slots;
	/* parallel only where the boot CPU's own leaf names its APIC ID */
	tp->id_leaf = cpu.x2apic_id_leaf && (apic_mode() == APIC_X2APIC ?
		cpu.x2apic_id == apic_id() : (cpu.x2apic_id & 0xffu) == apic_id()) ?
		cpu.x2apic_id_leaf : 0;
	return pa;
}

bool smp_start_parallel(void)
{
	return tp && tp->id_leaf;
}

static void ipi(uint32_t dest, uint8_t vector, unsigned dm)
{
	if (apic_mode() == APIC_XAPIC)
		apic_write(APIC_ESR, 0);
	apic_icr_write(apic_icr_encode(apic_mode(), vector, dm, APIC_DEST_NOSHORT, dest));
	if (apic_mode() == APIC_XAPIC)
		apic_icr_idle_wait();
}

/* One batch's wait: its first SIPI and the last time the boot CPU saw one of it come online
 * or, started in parallel, take its slot (its progress; the first SIPI until one does). */
struct batch_wait {
	struct percpu **b;
	unsigned *online, taken;	/* slots seen taken (parallel start) */
	bool slots;
	uint64_t t0, last;
};

/* how a wait ended: WAIT_OK (or, from bound_passed, not over), else which bound ended it */
enum { WAIT_OK, WAIT_STALLED, WAIT_CEILING };

/* Stamp the time the boot CPU first sees each of b[0..n) online (smp_online_us). */
static void poll_online(struct batch_wait *w, unsigned n)
{
	unsigned taken = 0;

	for (unsigned i = 0; i < n; i++) {
		if (!w->b[i]->online_tsc && w->b[i]->state == CPU_ONLINE) {
			w->b[i]->online_tsc = w->last = rdtsc();
			(*w->online)++;
		}
		taken += w->slots && slots[i].taken;
	}
	if (taken > w->taken) {	/* an emulator's APs may queue behind each other's trampolines */
		w->taken = taken;
		w->last = rdtsc();
	}
}

/* Whether pc's wait is over: SMP_ONLINE_BOUND_MS since its first SIPI and since the batch's
 * progress, or, while the batch still makes progress, the batch's ceiling (an AP always has
 * its own bound: one SIPI'd one at a time late in the batch is not cut short by it). */
static int bound_passed(const struct batch_wait *w, const struct percpu *pc)
{
	uint64_t now = rdtsc(), ms = tsc_hz / 1000, lim = ms * SMP_ONLINE_BOUND_MS;

	if (now - pc->sipi_tsc <= lim)
		return WAIT_OK;
	if (now - w->last > lim)
		return WAIT_STALLED;
	return now - w->t0 > ms * SMP_BATCH_CEILING_MS ? WAIT_CEILING : WAIT_OK;
}

/* Wait for *f to turn non-zero (f NULL: for pc to leave CPU_STARTING), stamping b[0..n)
 * meanwhile; WAIT_OK, or the bound that ended the wait (checked before the last look, so an
 * AP that came online as its bound passed is not given up on). */
static int wait_bounded(struct batch_wait *w, unsigned n, const struct percpu *pc,
			volatile uint32_t *f)
{
	for (;;) {
		int r = bound_passed(w, pc);

		poll_online(w, n);
		if (f ? *f != 0 : pc->state != CPU_STARTING)
			return WAIT_OK;
		if (r != WAIT_OK)
			return r;
		__builtin_ia32_pause();
	}
}

/* Wait us microseconds at most for *f to turn non-zero, stamping b[0..n) meanwhile. */
static bool wait_flag(volatile uint32_t *f, uint64_t us, struct batch_wait *w, unsigned n)
{
	uint64_t t0 = rdtsc(), lim = tsc_hz / 1000000 * us;

	for (;;) {
		poll_online(w, n);
		if (*f)
			return true;
		if (rdtsc() - t0 > lim)
			return false;
		__builtin_ia32_pause();
	}
}

static void give_up(struct percpu *pc, const char *why, int bound)
{
	pc->why = pc->why ? pc->why : why;
	pc->at_ceiling = bound == WAIT_CEILING;
	ipi(pc->apic_id, 0, APIC_DM_INIT);	/* back to wait-for-SIPI */
	pc->state = CPU_NO_ANSWER;
}

/* The last wait of a batch: each AP online within its bound (bound_passed). */
static void wait_online(struct batch_wait *w, unsigned n, const char *why_taken)
{
	for (unsigned i = 0; i < n; i++) {
		int r = wait_bounded(w, n, w->b[i], NULL);

		if (r != WAIT_OK)
			give_up(w->b[i], tp->id_leaf && !slots[i].taken ? why_taken
					 : "reached the kernel but did not report online", r);
	}
}

static void batch_parallel(struct percpu **b, unsigned n, uint8_t vector, struct batch_wait *w)
{
	for (unsigned i = 0; i < n; i++)
		slots[i] = (struct smp_slot){ .apic_id = b[i]->apic_id, .stack = b[i]->stack_top,
					      .percpu = (uint64_t)(uintptr_t)b[i] };
	tp->nslots = n;
	w->slots = true;
	for (unsigned i = 0; i < n; i++) {
		b[i]->sipi_tsc = rdtsc();
		ipi(b[i]->apic_id, vector, APIC_DM_STARTUP);
		b[i]->sipis++;
	}
	tsc_delay_us(delays->sipi_us);
	for (unsigned i = 0; i < n; i++)
		if (!slots[i].taken) {	/* ignored by an AP already past wait-for-SIPI */
			ipi(b[i]->apic_id, vector, APIC_DM_STARTUP);
			b[i]->sipis++;
		}
	wait_online(w, n, "did not take its slot from the trampoline");
}

static void batch_serial(struct percpu **b, unsigned n, uint8_t vector, struct batch_wait *w)
{
	for (unsigned i = 0; i < n; i++) {
		struct percpu *pc = b[i];
		int r;

		tp->stack = pc->stack_top;
		tp->percpu = (uint64_t)(uintptr_t)pc;
		tp->alive = 0;
		tp->taken = 0;
		pc->sipi_tsc = rdtsc();
		for (unsigned s = 0; s < 2; s++) {
			ipi(pc->apic_id, vector, APIC_DM_STARTUP);
			pc->sipis++;
			if (wait_flag(&tp->alive, delays->sipi_us, w, i))
				break;
		}
		/* the same bound as the batch's last wait: the APs before it may still be starting */
		r = wait_bounded(w, i, pc, &tp->taken);
		if (r != WAIT_OK)
			give_up(pc, tp->alive ? "ran the trampoline but did not reach the kernel"
					      : "did not run the trampoline", r);
	}
	wait_online(w, n, NULL);
}

unsigned smp_start_batch(struct percpu **b, unsigned n, uint64_t tramp_pa)
{
	unsigned online = 0;
	struct batch_wait w = { .b = b, .online = &online };

	if (!n || n > SMP_BATCH || !tp)
		return 0;
	for (unsigned i = 0; i < n; i++) {
		b[i]->state = CPU_STARTING;
		ipi(b[i]->apic_id, 0, APIC_DM_INIT);
	}
	tsc_delay_us(delays->init_us);	/* once for the batch */
	w.t0 = w.last = rdtsc();	/* right before its first SIPI */
	if (tp->id_leaf)
		batch_parallel(b, n, (uint8_t)(tramp_pa >> 12), &w);
	else
		batch_serial(b, n, (uint8_t)(tramp_pa >> 12), &w);
	return online;
}
