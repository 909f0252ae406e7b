/*
 * apic_test.c: apic/ (init, ops table, PMI path, self-IPI, error/spurious vectors, timer
 * calibration, watchdog) against the local-APIC model (tests/model/lapic_model.c) in place
 * of kernel/hw.h, in xAPIC and x2APIC mode. QEMU's TCG has no x2APIC (platform-notes), so
 * this file is where the x2APIC paths are exercised before hardware.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "apic/apic.h"
#include "apic/apic_enc.h"
#include "apic/apic_ops.h"
#include "apic/apic_regs.h"
#include "apic/apic_timer.h"
#include "kernel/cmdline.h"
#include "kernel/cpu.h"
#include "kernel/mm.h"
#include "kernel/tsc.h"
#include "model/lapic_model.h"
#include "stubs/console_capture.h"

/* ---- stand-ins for the kernel around apic/ ---- */
struct cpu_info cpu;
struct cmdline kcmdline;
uint64_t tsc_hz;
const char *tsc_source = "test";
static irq_handler_fn handlers[256], nmi_hook;
static uint64_t mapped_phys, mapped_bytes;
static unsigned maps;

void idt_set_handler(uint8_t vector, irq_handler_fn fn)
{
	handlers[vector] = fn;
}

void idt_set_nmi_hook(irq_handler_fn fn)
{
	nmi_hook = fn;
}

void *mm_map_mmio(uint64_t phys, uint64_t bytes)
{
	maps++;
	mapped_phys = phys;
	mapped_bytes = bytes;
	return (void *)(uintptr_t)phys;	/* the model decodes the address itself */
}

#define XB  (0xfee00000ull | APIC_BASE_EN | APIC_BASE_BSP)
#define X2B (XB | APIC_BASE_EXTD)

static bool boot(uint64_t base, bool cx2, uint32_t id, const char *cmdline)
{
	lm_reset(base, cx2, id);
	lm.tsc_per_count = 16;
	memset(handlers, 0, sizeof(handlers));
	nmi_hook = NULL;
	maps = 0;
	mapped_phys = mapped_bytes = 0;
	memset(&cpu, 0, sizeof(cpu));
	cpu.apic = base & APIC_BASE_EN;
	cpu.x2apic = cx2;
	tsc_hz = 1000000000ull;	/* "1 GHz": calibration windows of 1e7 real TSC ticks */
	cmdline_parse(&kcmdline, cmdline, strlen(cmdline), NULL, NULL);
	stub_console_reset();
	apic_set_pmi_handler(NULL);
	return apic_init();
}

static void no_illegal_access(void)
{
	assert_int_equal(lm.gp_unsafe, 0);
	assert_int_equal(lm.mmio_outside, 0);
	assert_int_equal(lm.mmio_wrong_mode, 0);
}

static void test_xapic_from_firmware(void **state)
{
	(void)state;
	assert_true(boot(XB, true, 3, "apic=auto"));
	assert_int_equal(apic_mode(), APIC_XAPIC);
	assert_int_equal(apic_id(), 3);
	assert_int_equal(maps, 1);
	assert_int_equal(mapped_phys, 0xfee00000);
	assert_int_equal(mapped_bytes, 0x1000);
	assert_int_equal(lm.base_writes, 0);
	assert_int_equal(lm.gp_safe, 0);
	no_illegal_access();
}

static void test_xapic_relocated_base(void **state)
{
	(void)state;
	assert_true(boot(0xfec00000ull | APIC_BASE_EN, false, 1, ""));
	assert_int_equal(mapped_phys, 0xfec00000);
	assert_int_equal(lm.regs[APIC_SPIV >> 4], APIC_SPIV_APIC_ENABLED | APIC_VEC_SPURIOUS);
	no_illegal_access();
}

static void test_x2apic_on_request(void **state)
{
	(void)state;
	assert_true(boot(XB, true, 0x105, "apic=x2apic"));
	assert_int_equal(apic_mode(), APIC_X2APIC);
	assert_int_equal(lm.apic_base, X2B);
	assert_int_equal(apic_id(), 0x105);	/* 32-bit x2APIC id, not 8 bits */
	assert_int_equal(maps, 0);
	assert_false(apic_x2apic_locked());
	no_illegal_access();
}

static void test_x2apic_request_without_cpuid(void **state)
{
	(void)state;
	assert_true(boot(XB, false, 2, "apic=x2apic"));
	assert_int_equal(apic_mode(), APIC_XAPIC);
	assert_int_equal(lm.base_writes, 0);
	assert_non_null(strstr(stub_console_text(), "CPUID.1:ECX.x2APIC[21]=0"));
	no_illegal_access();
}

static void test_x2apic_locked_kept(void **state)
{
	(void)state;
	/* boot() resets the model: lock it afterwards and bring the APIC up again */
	assert_true(boot(X2B, true, 0x20, "apic=xapic"));
	lm.arch_cap_xapic_status = true;
	lm.locked = true;
	assert_true(apic_init());
	assert_int_equal(apic_mode(), APIC_X2APIC);
	assert_true(apic_x2apic_locked());
	assert_int_equal(lm.base_writes, 0);
	assert_int_equal(lm.apic_base, X2B);
	assert_non_null(strstr(stub_console_text(), "never dropped back"));
	assert_int_equal(lm.regs[APIC_LVTPC >> 4], APIC_VEC_PMI);
	no_illegal_access();
}

static void test_disabled_then_x2apic(void **state)
{
	(void)state;
	assert_true(boot(0xfee00000ull, true, 0, "apic=x2apic"));
	assert_int_equal(apic_mode(), APIC_X2APIC);
	assert_int_equal(lm.base_writes, 2);	/* EN first, then EXTD (Figure 11-27) */
	assert_int_equal(lm.gp_safe, 0);
	no_illegal_access();
}

static void test_apic_base_fault(void **state)
{
	(void)state;
	lm_reset(XB, true, 0);
	lm.fault_msr = MSR_IA32_APIC_BASE;
	cmdline_parse(&kcmdline, "", 0, NULL, NULL);
	stub_console_reset();
	assert_false(apic_init());
	assert_int_equal(apic_mode(), APIC_DISABLED);
	assert_non_null(strstr(stub_console_text(), "faulted"));
	/* everything is a harmless no-op without an APIC */
	apic_eoi();
	apic_self_ipi(APIC_VEC_PMI);
	apic_pmi_rearm();
	apic_watchdog_arm(10);
	assert_int_equal(apic_lvtpc_read(), 0);
	assert_int_equal(lm.nlog, 0);
	apic_print_header();
	assert_non_null(strstr(stub_console_text(), "# apic: disabled"));
}

static void check_init_registers(uint64_t base, const char *cl)
{
	assert_true(boot(base, true, 0, cl));
	assert_int_equal(lm.regs[APIC_TASKPRI >> 4], 0);
	assert_int_equal(lm.regs[APIC_SPIV >> 4], 0x1ff);
	assert_int_equal(lm.regs[APIC_LVTERR >> 4], APIC_VEC_ERROR);
	assert_int_equal(lm.regs[APIC_LVTPC >> 4], APIC_VEC_PMI);
	assert_int_equal(lm.regs[APIC_LVTT >> 4] & (APIC_LVT_MASKED | 0xff),
			 APIC_LVT_MASKED | APIC_VEC_TIMER);
	assert_true(lm.regs[APIC_LVT0 >> 4] & APIC_LVT_MASKED);
	assert_int_equal(lm.regs[APIC_LVT1 >> 4], APIC_DM_NMI << 8);
	assert_true(lm.regs[APIC_LVTTHMR >> 4] & APIC_LVT_MASKED);
	assert_true(lm.regs[APIC_LVTCMCI >> 4] & APIC_LVT_MASKED);
	/* 8259: remapped to 0x20/0x28, every line masked */
	assert_int_equal(lm.pic_icw2[0], 0x20);
	assert_int_equal(lm.pic_icw2[1], 0x28);
	assert_int_equal(lm.pic_mask[0], 0xff);
	assert_int_equal(lm.pic_mask[1], 0xff);
	/* the handlers are installed */
	assert_non_null(handlers[APIC_VEC_SPURIOUS]);
	assert_non_null(handlers[APIC_VEC_ERROR]);
	assert_non_null(handlers[APIC_VEC_PMI]);
	assert_non_null(handlers[APIC_VEC_TIMER]);
	assert_null(nmi_hook);
	assert_int_equal(apic_pmi_delivery(), PMI_FIXED_VECTOR);
	assert_int_equal(apic_lvtpc_read(), APIC_VEC_PMI);
	no_illegal_access();
}

static void test_init_registers_xapic(void **state)
{
	(void)state;
	check_init_registers(XB, "");
}

static void test_init_registers_x2apic(void **state)
{
	(void)state;
	check_init_registers(XB, "apic=x2apic");
	assert_int_equal(apic_mode(), APIC_X2APIC);
	assert_int_equal(lm.gp_safe, 0);
}

static unsigned handler_calls;
static bool self_rearm, expect_masked = true;

static void pebs_handler(struct trap_frame *f)
{
	(void)f;
	handler_calls++;
	/* a PMI through LVTPC masked it (a self-IPI on the vector does not) */
	if (expect_masked)
		assert_true(apic_lvt_masked(apic_lvtpc_read()));
	if (self_rearm)
		apic_pmi_rearm();
}

static void check_pmi_twice(uint64_t base, const char *cl)
{
	struct trap_frame f = { .vector = APIC_VEC_PMI };

	assert_true(boot(base, true, 0, cl));
	apic_set_pmi_handler(pebs_handler);
	handler_calls = 0;
	for (int i = 0; i < 2; i++) {
		unsigned eois = lm.eois;
		int lvt_w, eoi_w;

		assert_int_equal(lm_pmi(), 1);
		assert_int_equal(lm_deliver(), APIC_VEC_PMI);	/* blocked if no EOI before */
		handlers[APIC_VEC_PMI](&f);
		assert_int_equal(handler_calls, (unsigned)i + 1);
		assert_false(apic_lvt_masked(lm.regs[APIC_LVTPC >> 4]));
		assert_int_equal(lm.regs[APIC_LVTPC >> 4], APIC_VEC_PMI);
		assert_false(lm_isr_set(APIC_VEC_PMI));
		assert_int_equal(lm.eois, eois + 1);	/* exactly one EOI */
		lvt_w = lm_last_write(APIC_LVTPC);
		eoi_w = lm_last_write(APIC_EOI);
		assert_true(lvt_w >= 0 && lvt_w < eoi_w);	/* unmask, then EOI */
	}
	assert_int_equal(apic_stats()->pmis, 2);
	no_illegal_access();
}

static void test_pmi_rearm_xapic(void **state)
{
	(void)state;
	self_rearm = false;
	check_pmi_twice(XB, "");
}

static void test_pmi_rearm_x2apic(void **state)
{
	(void)state;
	self_rearm = false;
	check_pmi_twice(XB, "apic=x2apic");
}

static void test_pmi_handler_rearms_itself(void **state)
{
	(void)state;
	self_rearm = true;
	check_pmi_twice(XB, "apic=x2apic");
	self_rearm = false;
}

static void test_pmi_nmi_delivery(void **state)
{
	struct trap_frame f = { .vector = 2 };
	unsigned eois;

	(void)state;
	assert_true(boot(XB, true, 0, "pmi=nmi"));
	assert_int_equal(apic_pmi_delivery(), PMI_NMI);
	assert_int_equal(lm.regs[APIC_LVTPC >> 4], (APIC_DM_NMI << 8) | APIC_VEC_PMI);
	assert_non_null(nmi_hook);
	apic_set_pmi_handler(pebs_handler);
	handler_calls = 0;
	eois = lm.eois;
	for (int i = 0; i < 2; i++) {
		assert_int_equal(lm_pmi(), 2);
		nmi_hook(&f);
		assert_false(apic_lvt_masked(lm.regs[APIC_LVTPC >> 4]));
	}
	assert_int_equal(handler_calls, 2);
	assert_int_equal(lm.eois, eois);	/* NMI delivery takes no EOI */
	/* a self-IPI on the PMI vector with pmi=nmi still enters through the vector: EOI */
	expect_masked = false;
	apic_self_ipi(APIC_VEC_PMI);
	assert_int_equal(lm_deliver(), APIC_VEC_PMI);
	handlers[APIC_VEC_PMI](&f);
	expect_masked = true;
	assert_false(lm_isr_set(APIC_VEC_PMI));
	assert_int_equal(lm.eois, eois + 1);
	no_illegal_access();
}

static void check_self_ipi(uint64_t base, const char *cl)
{
	struct trap_frame f = { .vector = APIC_VEC_PMI };
	unsigned sends;

	assert_true(boot(base, true, 5, cl));
	sends = lm.icr_sends;
	apic_set_pmi_handler(pebs_handler);
	handler_calls = 0;
	expect_masked = false;
	apic_self_ipi(APIC_VEC_PMI);
	assert_int_equal(lm.icr_sends, sends + 1);
	assert_int_equal(lm.last_icr, 0x440e8);
	assert_true(lm.irr[APIC_VEC_PMI >> 5] & (1u << (APIC_VEC_PMI & 31)));
	assert_int_equal(lm_deliver(), APIC_VEC_PMI);
	assert_true(apic_vector_in_service(APIC_VEC_PMI));
	handlers[APIC_VEC_PMI](&f);
	expect_masked = true;
	assert_false(apic_vector_in_service(APIC_VEC_PMI));
	assert_int_equal(handler_calls, 1);
	no_illegal_access();
}

static void test_self_ipi_xapic(void **state)
{
	(void)state;
	check_self_ipi(XB, "");
	/* xAPIC: ICR2 (destination) before ICR (send) */
	assert_true(lm_last_write(APIC_ICR2) < lm_last_write(APIC_ICR));
}

static void test_self_ipi_x2apic(void **state)
{
	(void)state;
	check_self_ipi(XB, "apic=x2apic");
	assert_true(lm.log[lm_last_write(APIC_ICR)].msr);
	assert_int_equal(lm_last_write(APIC_ICR2), -1);	/* no ICR2 in x2APIC */
}

static void check_error_vector(const char *cl)
{
	struct trap_frame f = { .vector = APIC_VEC_ERROR };

	assert_true(boot(XB, true, 0, cl));
	lm.esr_pending = APIC_ESR_SEND_ILLEGAL;
	lm.irr[APIC_VEC_ERROR >> 5] |= 1u << (APIC_VEC_ERROR & 31);
	assert_int_equal(lm_deliver(), APIC_VEC_ERROR);
	handlers[APIC_VEC_ERROR](&f);
	assert_int_equal(apic_stats()->errors, 1);
	assert_int_equal(apic_stats()->last_esr, APIC_ESR_SEND_ILLEGAL);
	assert_false(lm_isr_set(APIC_VEC_ERROR));
	assert_non_null(strstr(stub_console_text(), "ESR=0x20 (send-illegal-vector)"));
	assert_int_equal(lm.gp_safe, 0);	/* x2APIC: the ESR write was 0 */
	no_illegal_access();
}

static void test_error_vector_xapic(void **state)
{
	(void)state;
	check_error_vector("");
}

static void test_error_vector_x2apic(void **state)
{
	(void)state;
	check_error_vector("apic=x2apic");
}

static void test_spurious_no_eoi(void **state)
{
	struct trap_frame f = { .vector = APIC_VEC_SPURIOUS };
	unsigned eois;

	(void)state;
	assert_true(boot(XB, true, 0, ""));
	eois = lm.eois;
	handlers[APIC_VEC_SPURIOUS](&f);
	assert_int_equal(apic_stats()->spurious, 1);
	assert_int_equal(lm.eois, eois);
}

static void test_x2apic_fault_reported(void **state)
{
	unsigned before;

	(void)state;
	assert_true(boot(XB, true, 0, "apic=x2apic"));
	before = apic_ops_faults()->count;
	lm.fault_msr = APIC_X2APIC_MSR(APIC_LVTPC);
	apic_pmi_rearm();	/* read + write of 0x834 both fault: counted, not fatal */
	assert_int_equal(apic_ops_faults()->count, before + 2);
	assert_int_equal(apic_ops_faults()->last_msr, 0x834);
	assert_true(apic_ops_faults()->last_was_write);
	assert_int_equal(apic_ops_faults()->last_vector, 13);
	lm.fault_msr = 0;
}

static void test_calibration(void **state)
{
	const struct apic_calib *c;

	(void)state;
	assert_true(boot(XB, true, 0, ""));
	c = apic_timer_calib();
	assert_int_equal(c->rounds, APIC_CALIB_ROUNDS);
	/* 1e9 "TSC Hz" / 16 ticks per count = 62.5 MHz; both ends read the same TSC */
	assert_in_range(c->hz, 62500000 - 62500, 62500000 + 62500);
	assert_true(c->min_hz <= c->hz && c->hz <= c->max_hz);
	assert_int_equal(apic_timer_hz(), c->hz);
	assert_int_equal(lm.regs[APIC_TDCR >> 4], 0x3);	/* divide by 16 */
	assert_int_equal(lm.regs[APIC_TMICT >> 4], 0);	/* stopped afterwards */
	apic_print_header();
	assert_non_null(strstr(stub_console_text(), "# apic: xAPIC id 0"));
	assert_non_null(strstr(stub_console_text(), "# apic: LVTPC vector 0xe8, delivery fixed"));
	assert_non_null(strstr(stub_console_text(), "# apic timer: 625"));
}

static void test_calibration_frozen_timer(void **state)
{
	(void)state;
	assert_true(boot(XB, true, 0, ""));
	lm.tsc_per_count = 0;
	apic_timer_calibrate();
	assert_int_equal(apic_timer_hz(), 0);
	assert_non_null(apic_timer_calib()->why_not);
	lm.nlog = 0;
	apic_watchdog_arm(5);	/* nothing to arm with */
	assert_int_equal(lm_last_write(APIC_TMICT), -1);
}

static void fire_timer(void)
{
	struct trap_frame f = { .vector = APIC_VEC_TIMER, .rip = 0x1234 };

	handlers[APIC_VEC_TIMER](&f);
}

static void spin_tsc(uint64_t ticks)
{
	uint64_t t0 = rdtsc();

	while (rdtsc() - t0 < ticks)
		;
}

/* The runner's side: a recovery function that jumps back (kjmp_long in the kernel), and
 * run_fatal (kernel/exit.h) for an expiry nobody can recover from. */
static jmp_buf runner_jmp;
static const char *fatal_why;

static void runner_recovery(void)
{
	longjmp(runner_jmp, 1);
}

void run_fatal(const char *why)
{
	fatal_why = why;
	longjmp(runner_jmp, 2);
}

static void test_watchdog_recovers(void **state)
{
	volatile int body = 0, jumped = 0;
	uint32_t count;

	(void)state;
	assert_true(boot(XB, true, 0, ""));
	jumped = setjmp(runner_jmp);
	if (!jumped) {
		apic_watchdog_set_recovery(runner_recovery);
		apic_watchdog_arm(2);	/* 2 "ms" = 2e6 TSC ticks */
		count = lm.regs[APIC_TMICT >> 4];
		assert_in_range(count, 120000, 125100);	/* 62.5 MHz x 2 ms */
		assert_false(apic_lvt_masked(lm.regs[APIC_LVTT >> 4]));
		fire_timer();		/* early: re-armed, no expiry */
		assert_false(apic_watchdog_fired());
		body = 1;
		spin_tsc(3000000);
		fire_timer();		/* calls the recovery function */
		body = 2;
	}
	assert_int_equal(body, 1);
	assert_int_equal(jumped, 1);
	assert_true(apic_watchdog_fired());
	assert_false(apic_watchdog_fired());	/* read-and-clear */
	assert_non_null(strstr(stub_console_text(), "overran its 2 ms budget"));
	assert_non_null(strstr(stub_console_text(), "RIP 0x1234"));
	/* a late interrupt after disarm is ignored */
	apic_watchdog_disarm();
	fire_timer();
	assert_false(apic_watchdog_fired());
	apic_watchdog_set_recovery(NULL);
}

static void inner_recovery(void)
{
	longjmp(runner_jmp, 3);
}

static void test_watchdog_nested(void **state)
{
	struct apic_watchdog_state saved;
	volatile int jumped;

	(void)state;
	assert_true(boot(XB, true, 0, ""));
	apic_watchdog_set_recovery(runner_recovery);	/* the runner's budget */
	apic_watchdog_arm(1000);
	apic_watchdog_save(&saved);
	jumped = setjmp(runner_jmp);
	if (!jumped) {
		apic_watchdog_set_recovery(inner_recovery);
		apic_watchdog_arm(1);
		spin_tsc(2000000);
		fire_timer();
	}
	assert_int_equal(jumped, 3);			/* the inner recovery ran */
	assert_true(apic_watchdog_fired());
	apic_watchdog_restore(&saved);
	/* the outer budget is armed again with what is left of it (~1000 ms at 62.5 MHz) */
	assert_false(apic_lvt_masked(lm.regs[APIC_LVTT >> 4]));
	assert_in_range(lm.regs[APIC_TMICT >> 4], 55000000, 62600000);
	fire_timer();				/* early tick: not an expiry */
	assert_false(apic_watchdog_fired());
	apic_watchdog_disarm();
	apic_watchdog_set_recovery(NULL);
}

static void test_watchdog_tsc_deadline(void **state)
{
	uint64_t t0;

	(void)state;
	assert_true(boot(XB, true, 0, ""));
	cpu.tsc_deadline = true;
	apic_timer_calibrate();
	t0 = rdtsc();
	apic_watchdog_arm(10);
	assert_int_equal((lm.regs[APIC_LVTT >> 4] >> APIC_LVT_TIMER_MODE_SHIFT) & 3,
			 APIC_TIMER_TSC_DEADLINE);
	assert_in_range(lm.tsc_deadline, t0 + 10000000, rdtsc() + 10000000);
	apic_watchdog_disarm();
	assert_int_equal(lm.tsc_deadline, 0);
	assert_true(apic_lvt_masked(lm.regs[APIC_LVTT >> 4]));
}

static void test_watchdog_fatal_path(void **state)
{
	volatile int jumped;

	(void)state;
	assert_true(boot(XB, true, 0, ""));
	apic_watchdog_set_recovery(NULL);
	fatal_why = NULL;
	jumped = setjmp(runner_jmp);
	if (!jumped) {
		apic_watchdog_arm(1);
		spin_tsc(2000000);
		fire_timer();
		fail_msg("the watchdog returned instead of ending the run");
	}
	assert_int_equal(jumped, 2);
	assert_non_null(fatal_why);
	assert_non_null(strstr(fatal_why, "watchdog"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_xapic_from_firmware),
		cmocka_unit_test(test_xapic_relocated_base),
		cmocka_unit_test(test_x2apic_on_request),
		cmocka_unit_test(test_x2apic_request_without_cpuid),
		cmocka_unit_test(test_x2apic_locked_kept),
		cmocka_unit_test(test_disabled_then_x2apic),
		cmocka_unit_test(test_apic_base_fault),
		cmocka_unit_test(test_init_registers_xapic),
		cmocka_unit_test(test_init_registers_x2apic),
		cmocka_unit_test(test_pmi_rearm_xapic),
		cmocka_unit_test(test_pmi_rearm_x2apic),
		cmocka_unit_test(test_pmi_handler_rearms_itself),
		cmocka_unit_test(test_pmi_nmi_delivery),
		cmocka_unit_test(test_self_ipi_xapic),
		cmocka_unit_test(test_self_ipi_x2apic),
		cmocka_unit_test(test_error_vector_xapic),
		cmocka_unit_test(test_error_vector_x2apic),
		cmocka_unit_test(test_spurious_no_eoi),
		cmocka_unit_test(test_x2apic_fault_reported),
		cmocka_unit_test(test_calibration),
		cmocka_unit_test(test_calibration_frozen_timer),
		cmocka_unit_test(test_watchdog_recovers),
		cmocka_unit_test(test_watchdog_nested),
		cmocka_unit_test(test_watchdog_tsc_deadline),
		cmocka_unit_test(test_watchdog_fatal_path),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
