/*
 * apic.c (kernel test): the local APIC on the machine we booted on (SDM Vol. 3A ch. 11).
 * `apic`: mode and id; LVTPC programs and reads back (11.5.1); a self-IPI on the PMI vector
 * (11.6.1) reaches the installed handler, which unmasks LVTPC and EOIs, twice in a row;
 * the timer fires at the calibrated rate against the TSC (11.5.4); spurious (11.9) and error
 * (11.5.3) vectors installed, and an illegal-vector self-IPI raises the error interrupt.
 * `apic_watchdog` (on request): a deliberately hung test body is caught by the watchdog.
 * `apic_hang` (on request): hangs under the runner's own watchdog, which must report it
 * `not ok N apic_hang # TIMEOUT` and go on (tests/scripts/apic_timeout.t checks the log).
 */
#include "apic/apic.h"
#include "apic/apic_enc.h"
#include "apic/apic_ops.h"
#include "apic/apic_regs.h"
#include "apic/apic_timer.h"
#include "kernel/cpu.h"
#include "kernel/ktap.h"
#include "kernel/tsc.h"
#include "kernel/jump.h"
#include "ktests/tests.h"
#include "loads/kload.h"

#define IRQ_WAIT_MS		200u	/* an interrupt that has not come by then never will */
/* Under software emulation the APIC is a device model run between translated blocks: an
 * interrupt an access raises is pending before the next block, so 2 ms (millions of emulated
 * instructions) is as final as 200 ms. QEMU's model (hw/intc/apic.c, apic_mem_read: an
 * unknown offset sets ESR "illegal register address" and nothing else) raises no error
 * interrupt at all, so waiting longer there only costs boot time. */
#define IRQ_WAIT_EMU_MS		2u
/* Stated tolerance of the timer rate against the TSC: a one-shot of ONESHOT_MS may fire at
 * most 2% early, and at most 2% late on bare metal. Interrupt latency only makes it late;
 * under a hypervisor on a shared host the vCPU can be descheduled for milliseconds (seen:
 * +0.5% .. +12% for 20 ms under QEMU TCG with 6 busy neighbours), so the late bound there is
 * 25%; under software emulation (kload_timing_unjudgeable) lateness is not judged at all
 * (seen: +43% with the host oversubscribed), only earliness. Either bound still catches a
 * wrong divider or a timer on the wrong clock (x2 or more) where it is judged; the host test
 * (tests/host/apic_timer_test.c) checks divider and rate exactly on the model. */
#define TIMER_EARLY_PPM		20000
#define TIMER_LATE_PPM		20000
#define TIMER_LATE_PPM_HV	250000
#define ONESHOT_MS		50u
#define ONESHOT_ROUNDS		5u
/* Where lateness is not judged (kload_timing_unjudgeable) the best of many rounds buys
 * nothing: one interval early by more than the tolerance fails in any round. One short
 * interval then: 2% of 10 ms is 200 us, still ~10^5 TSC ticks of resolution; a wrong divider
 * or clock (x2 or more) shows as early just the same (issue 21: the 2 x 50 ms cost a smoke
 * boot 100 ms). */
#define ONESHOT_ROUNDS_BRIEF	1u
#define ONESHOT_MS_BRIEF	10u
#define PMI_ROUNDS		16u

static uint64_t ms_ticks(uint64_t ms)
{
	return apic_muldiv64(tsc_hz, ms, 1000);
}

/* ---- PMI vector round trip ---- */
static volatile unsigned pmi_calls;
static volatile bool pmi_saw_masked;
static volatile uint64_t pmi_entry_tsc;

static void test_pmi_handler(struct trap_frame *f)
{
	(void)f;
	pmi_entry_tsc = rdtsc();
	pmi_saw_masked = apic_lvt_masked(apic_lvtpc_read());
	pmi_calls++;
}

/* Wait (interrupts on) until *counter reaches want or IRQ_WAIT_MS passes. */
static bool wait_count(volatile unsigned *counter, unsigned want)
{
	uint64_t t0 = rdtsc();

	while (*counter < want)
		if (rdtsc() - t0 > ms_ticks(IRQ_WAIT_MS))
			return false;
	return true;
}

/* pmi=nmi: the NMI entry reaches the handler and unmasks LVTPC (no EOI: NMIs take none) */
static void check_pmi_nmi(struct ktest *t, uint32_t lvtpc)
{
	unsigned before = pmi_calls;
	bool ok[2] = { false, false };

	if (apic_pmi_delivery() != PMI_NMI) {
		kt_skip_sub(t, "pmi_nmi_handler_unmask", "pmi=vector (boot with pmi=nmi)");
		return;
	}
	apic_set_pmi_handler(test_pmi_handler);
	for (unsigned i = 0; i < 2; i++) {
		apic_write(APIC_LVTPC, lvtpc | APIC_LVT_MASKED);
		apic_self_nmi();
		if (!wait_count(&pmi_calls, before + i + 1))
			break;
		ok[i] = pmi_saw_masked && !apic_lvt_masked(apic_lvtpc_read());
	}
	apic_set_pmi_handler(NULL);
	apic_write(APIC_LVTPC, lvtpc);
	kt_check(t, ok[0] && ok[1], "pmi_nmi_handler_unmask");
}

static void check_pmi_path(struct ktest *t)
{
	uint64_t best_in = UINT64_MAX, best_rt = UINT64_MAX;
	uint32_t lvtpc = apic_lvtpc_read();
	bool ok[2] = { false, false };

	apic_set_pmi_handler(test_pmi_handler);
	pmi_calls = 0;
	irq_enable();
	for (unsigned i = 0; i < PMI_ROUNDS; i++) {
		uint64_t t0, t1;
		bool arrived;

		/* what the hardware does on PMI delivery: LVTPC masked */
		apic_write(APIC_LVTPC, lvtpc | APIC_LVT_MASKED);
		t0 = rdtsc_ordered();
		apic_self_ipi(APIC_VEC_PMI);
		arrived = wait_count(&pmi_calls, i + 1);
		t1 = rdtsc_ordered();
		if (!arrived)
			break;
		if (pmi_entry_tsc - t0 < best_in)
			best_in = pmi_entry_tsc - t0;
		if (t1 - t0 < best_rt)
			best_rt = t1 - t0;
		if (i < 2)
			ok[i] = pmi_saw_masked && !apic_lvt_masked(apic_lvtpc_read()) &&
				!apic_vector_in_service(APIC_VEC_PMI);
	}
	irq_disable();
	apic_set_pmi_handler(NULL);
	apic_write(APIC_LVTPC, lvtpc);
	kt_check(t, ok[0], "pmi_ipi_handler_unmask_eoi");
	if (pmi_calls == PMI_ROUNDS)
		kt_detail(t, "PMI-vector self-IPI: ICR write to handler entry %llu TSC ticks, "
			  "full round trip (handler, unmask, EOI, iret) %llu ticks (best of %u)",
			  (unsigned long long)best_in, (unsigned long long)best_rt, PMI_ROUNDS);
	else
		kt_detail(t, "only %u of %u PMI-vector self-IPIs arrived", pmi_calls, PMI_ROUNDS);
	kt_check(t, ok[1] && pmi_calls >= 2, "pmi_ipi_second_rearmed");
	check_pmi_nmi(t, lvtpc);
}

/* ---- timer rate ---- */
static volatile unsigned ticks;
static volatile uint64_t tick_first, tick_last;

static void test_tick(struct trap_frame *f)
{
	uint64_t now = rdtsc();

	(void)f;
	if (!ticks)
		tick_first = now;
	tick_last = now;
	ticks++;
}

/* One-shot: the shortest of ONESHOT_ROUNDS intervals of ONESHOT_MS against the TSC
 * (interrupt latency only lengthens an interval, so the shortest is the rate); one interval
 * of ONESHOT_MS_BRIEF where only earliness is judged. */
static void check_timer_oneshot(struct ktest *t)
{
	const char *emu = kload_timing_unjudgeable();
	unsigned rounds = emu ? ONESHOT_ROUNDS_BRIEF : ONESHOT_ROUNDS;
	unsigned ms = emu ? ONESHOT_MS_BRIEF : ONESHOT_MS;
	uint64_t expect = ms_ticks(ms), best = UINT64_MAX;
	int64_t late = cpu.hypervisor ? TIMER_LATE_PPM_HV : TIMER_LATE_PPM, err;

	for (unsigned i = 0; i < rounds; i++) {
		uint64_t t0;

		ticks = 0;
		t0 = rdtsc_ordered();
		apic_timer_oneshot_call(ms * 1000ull, test_tick);
		if (!wait_count(&ticks, 1))
			break;
		if (tick_last - t0 < best)
			best = tick_last - t0;
	}
	apic_timer_stop();
	if (best == UINT64_MAX) {
		kt_info(t, "one-shot timer interrupt did not arrive within %u ms", IRQ_WAIT_MS);
		kt_check(t, false, "timer_rate");
		return;
	}
	err = apic_error_ppm(best, expect);
	/* early is wrong anywhere; how late an interrupt comes under software emulation is the
	 * host's scheduling (seen: +43% with the host's CPUs oversubscribed), not the timer's */
	if (emu)
		kt_detail(t, "one-shot %u ms at the calibrated rate: %llu TSC ticks (best of %u), "
			  "expected %llu: error %+lld ppm (tolerance -%d ppm; late not judged: %s)",
			  ms, (unsigned long long)best, rounds,
			  (unsigned long long)expect, (long long)err, TIMER_EARLY_PPM, emu);
	else
		kt_detail(t, "one-shot %u ms at the calibrated rate: %llu TSC ticks (best of %u), "
			  "expected %llu: error %+lld ppm (tolerance -%d..+%lld ppm)", ONESHOT_MS,
			  (unsigned long long)best, ONESHOT_ROUNDS, (unsigned long long)expect,
			  (long long)err, TIMER_EARLY_PPM, (long long)late);
	kt_check(t, err >= -TIMER_EARLY_PPM && (emu || err <= late), "timer_rate # %+lld ppm",
		 (long long)err);
}

static void check_timer(struct ktest *t)
{
	if (!apic_timer_hz()) {
		kt_skip_sub(t, "timer_rate", "timer not calibrated: %s",
			    apic_timer_calib()->why_not);
		return;
	}
	irq_enable();
	check_timer_oneshot(t);
	irq_disable();
}

/* ---- error vector ---- */
/* Provoke an APIC error (11.5.3): xAPIC: a read of the reserved offset 0x3f0 sets "illegal
 * register address"; x2APIC (no such register: MSRs #GP instead): a self-IPI with vector 2
 * (0-15 are illegal) sets "send illegal vector". Under a hypervisor only the harmless read
 * is tried (an emulated APIC might deliver the illegal vector to the NMI entry instead). */
static void check_error_vector(struct ktest *t)
{
	unsigned before = apic_stats()->errors;
	uint32_t want_bit;
	uint64_t t0, wait_ms = cpu_software_emulated(&cpu) ? IRQ_WAIT_EMU_MS : IRQ_WAIT_MS;

	kt_check(t, (apic_read(APIC_SPIV) & (APIC_SPIV_APIC_ENABLED | 0xffu)) ==
		 (APIC_SPIV_APIC_ENABLED | APIC_VEC_SPURIOUS), "spurious_vector");
	kt_check(t, apic_read(APIC_LVTERR) == APIC_VEC_ERROR, "error_lvt");
	if (apic_mode() == APIC_X2APIC && cpu.hypervisor) {
		kt_skip_sub(t, "error_interrupt", "x2APIC under hypervisor '%s': an illegal-vector "
			    "IPI is only sent on bare metal", cpu.hv_sig);
		return;
	}
	irq_enable();
	if (apic_mode() == APIC_XAPIC) {
		want_bit = APIC_ESR_ILLEGAL_REG;
		(void)apic_read(0x3f0);
	} else {
		want_bit = APIC_ESR_SEND_ILLEGAL;
		apic_self_ipi(2);
	}
	t0 = rdtsc();
	while (apic_stats()->errors == before && rdtsc() - t0 < ms_ticks(wait_ms))
		;
	irq_disable();
	kt_detail(t, "APIC errors %u (last ESR 0x%x), spurious interrupts %u, x2APIC MSR faults %u",
		  apic_stats()->errors, apic_stats()->last_esr, apic_stats()->spurious,
		  apic_ops_faults()->count);
	if (apic_stats()->errors != before)
		kt_check(t, apic_stats()->last_esr & want_bit, "error_interrupt");
	else if (cpu.hypervisor)
		kt_skip_sub(t, "error_interrupt", "hypervisor '%s' raised no APIC error interrupt "
			    "for an illegal register access within %llu ms", cpu.hv_sig,
			    (unsigned long long)wait_ms);
	else
		kt_check(t, false, "error_interrupt");
}

enum kt_result test_apic(struct ktest *t)
{
	uint32_t lvt, want;
	enum apic_mode m = apic_mode();
	uint64_t fl;

	if (m == APIC_DISABLED)
		return kt_skip(t, "no usable local APIC");
	fl = irq_save();	/* the checks below turn interrupts on only while they wait */
	kt_detail(t, "mode %s%s, id %u, CPUID %s x2APIC id %u, initial APIC id %u",
		  apic_mode_name(m), apic_x2apic_locked() ? " (locked by firmware)" : "", apic_id(),
		  cpu.x2apic_id_leaf == 0x1f ? "1FH" : cpu.x2apic_id_leaf ? "0BH" : "(none)",
		  cpu.x2apic_id, cpu.initial_apic_id);
	/* The 32-bit x2APIC ID of CPUID 1FH/0BH is the ID register's in x2APIC mode, its low 8
	 * bits the xAPIC ID (SDM Vol. 3A 11.12.5.1 "x2APIC ID"). CPUID.1:EBX[31:24] holds only 8
	 * bits, and past 255 logical processors QEMU's CPUID.1:EBX[23:16] count spills into it
	 * (docs/smp.md): it decides only without leaf 0BH. */
	if (cpu.x2apic_id_leaf)
		kt_check(t, m == APIC_X2APIC ? apic_id() == cpu.x2apic_id
					     : apic_id() == (cpu.x2apic_id & 0xffu), "mode_and_id");
	else
		kt_check(t, (apic_id() & 0xffu) == cpu.initial_apic_id, "mode_and_id");

	want = apic_lvt_pack(APIC_VEC_PMI, apic_pmi_delivery() == PMI_NMI ? APIC_DM_NMI
					    : APIC_DM_FIXED, false, 0);
	lvt = apic_lvtpc_read();
	apic_write(APIC_LVTPC, want | APIC_LVT_MASKED);
	kt_detail(t, "LVTPC 0x%x (vector 0x%x, %s)", apic_lvtpc_read(), APIC_VEC_PMI,
		  apic_pmi_delivery() == PMI_NMI ? "NMI" : "fixed");
	kt_check(t, lvt == want && apic_lvtpc_read() == (want | APIC_LVT_MASKED),
		 "lvtpc_readback");
	apic_write(APIC_LVTPC, want);

	check_pmi_path(t);
	check_timer(t);
	check_error_vector(t);
	irq_restore(fl);
	return kt_verdict(t);
}

/* ---- apic_watchdog: a hang the watchdog must catch ---- */
#define WD_TEST_MS	50u

static struct kjmp wd_jmp;	/* static: survives the jump back */

static void wd_caught(void)
{
	kjmp_long(&wd_jmp, 1);
}

enum kt_result test_apic_watchdog(struct ktest *t)
{
	static struct apic_watchdog_state runner;
	static uint64_t t0, caught_after;
	static bool hung_returned;
	static uint64_t fl;

	if (!apic_timer_hz() && !apic_timer_calib()->tsc_deadline)
		return kt_skip(t, "no calibrated APIC timer");
	fl = irq_save();
	hung_returned = false;
	caught_after = 0;
	apic_watchdog_save(&runner);
	kt_info(t, "hanging on purpose under a %u ms watchdog", WD_TEST_MS);
	if (kjmp_set(&wd_jmp) == 0) {
		apic_watchdog_set_recovery(wd_caught);
		t0 = rdtsc();
		apic_watchdog_arm(WD_TEST_MS);
		irq_enable();
		for (volatile int spin = 1; spin;)	/* the deliberate hang */
			;
		hung_returned = true;
	} else {
		caught_after = rdtsc() - t0;
	}
	irq_disable();
	apic_watchdog_restore(&runner);
	irq_restore(fl);
	kt_check(t, !hung_returned && apic_watchdog_fired(), "hang_caught");
	kt_info(t, "budget %u ms, caught after %llu us", WD_TEST_MS,
		(unsigned long long)apic_muldiv64(caught_after, 1000000, tsc_hz));
	/* not before the budget, anywhere; the bound on lateness only where timing is judged
	 * (as timer_rate) */
	kt_check(t, caught_after >= ms_ticks(WD_TEST_MS) &&
		 (kload_timing_unjudgeable() || caught_after < ms_ticks(WD_TEST_MS + IRQ_WAIT_MS)),
		 "caught_on_time");
	return kt_verdict(t);
}

/* ---- apic_hang: the runner's watchdog path (expected result: not ok ... # TIMEOUT) ---- */
enum kt_result test_apic_hang(struct ktest *t)
{
	kt_info(t, "hanging on purpose: the runner's watchdog (%u ms) must report TIMEOUT",
		t->desc->timeout_ms);
	irq_enable();
	for (volatile int spin = 1; spin;)
		;
	return kt_verdict(t);
}
