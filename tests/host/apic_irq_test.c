/*
 * apic_irq_test.c: apic/ interrupt paths against the local-APIC model, in xAPIC and x2APIC
 * mode: the PMI dispatcher (LVTPC masked by delivery, unmask then EOI, twice in a row; NMI
 * delivery without EOI; SDM Vol. 3A 11.5.1, 11.8.5), self-IPI through the ICR (11.6.1,
 * 11.12.9), the error vector with ESR reporting (11.5.3), the spurious vector (11.9) and a
 * faulting x2APIC MSR reported, not fatal.
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
#include "kernel/cpu.h"
#include "kernel/tsc.h"
#include "model/lapic_model.h"
#include "stubs/apic_env.h"
#include "stubs/console_capture.h"

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

	assert_true(env_boot(base, true, 0, cl));
	apic_set_pmi_handler(pebs_handler);
	handler_calls = 0;
	for (int i = 0; i < 2; i++) {
		unsigned eois = lm.eois;
		int lvt_w, eoi_w;

		assert_int_equal(lm_pmi(), 1);
		assert_int_equal(lm_deliver(), APIC_VEC_PMI);	/* blocked if no EOI before */
		env_handlers[APIC_VEC_PMI](&f);
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
	env_no_illegal_access();
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
	assert_true(env_boot(XB, true, 0, "pmi=nmi"));
	assert_int_equal(apic_pmi_delivery(), PMI_NMI);
	assert_int_equal(lm.regs[APIC_LVTPC >> 4], (APIC_DM_NMI << 8) | APIC_VEC_PMI);
	assert_non_null(env_nmi_hook);
	apic_set_pmi_handler(pebs_handler);
	handler_calls = 0;
	eois = lm.eois;
	for (int i = 0; i < 2; i++) {
		assert_int_equal(lm_pmi(), 2);
		env_nmi_hook(&f);
		assert_false(apic_lvt_masked(lm.regs[APIC_LVTPC >> 4]));
	}
	assert_int_equal(handler_calls, 2);
	assert_int_equal(lm.eois, eois);	/* NMI delivery takes no EOI */
	/* a self-IPI on the PMI vector with pmi=nmi still enters through the vector: EOI */
	expect_masked = false;
	apic_self_ipi(APIC_VEC_PMI);
	assert_int_equal(lm_deliver(), APIC_VEC_PMI);
	env_handlers[APIC_VEC_PMI](&f);
	expect_masked = true;
	assert_false(lm_isr_set(APIC_VEC_PMI));
	assert_int_equal(lm.eois, eois + 1);
	env_no_illegal_access();
}

static void check_self_ipi(uint64_t base, const char *cl)
{
	struct trap_frame f = { .vector = APIC_VEC_PMI };
	unsigned sends;

	assert_true(env_boot(base, true, 5, cl));
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
	env_handlers[APIC_VEC_PMI](&f);
	expect_masked = true;
	assert_false(apic_vector_in_service(APIC_VEC_PMI));
	assert_int_equal(handler_calls, 1);
	env_no_illegal_access();
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
	assert_int_equal(lm.unfenced_wrmsr, 0);	/* H9: weak_wrmsr_fence before the ICR */
	assert_int_equal(lm_last_write(APIC_ICR2), -1);	/* no ICR2 in x2APIC */
}

static void test_self_nmi_icr(void **state)
{
	(void)state;
	/* NMI (DM 100b) with level assert, physical destination = own id, no shorthand */
	assert_true(env_boot(XB, true, 5, ""));
	apic_self_nmi();
	assert_int_equal(lm.last_icr, 0x0500000000004400ull);
	assert_true(env_boot(XB, true, 0x105, "apic=x2apic"));
	apic_self_nmi();
	assert_int_equal(lm.last_icr, 0x0000010500004400ull);
	env_no_illegal_access();
}

static void check_error_vector(const char *cl)
{
	struct trap_frame f = { .vector = APIC_VEC_ERROR };

	assert_true(env_boot(XB, true, 0, cl));
	lm.esr_pending = APIC_ESR_SEND_ILLEGAL;
	lm.irr[APIC_VEC_ERROR >> 5] |= 1u << (APIC_VEC_ERROR & 31);
	assert_int_equal(lm_deliver(), APIC_VEC_ERROR);
	env_handlers[APIC_VEC_ERROR](&f);
	assert_int_equal(apic_stats()->errors, 1);
	assert_int_equal(apic_stats()->last_esr, APIC_ESR_SEND_ILLEGAL);
	assert_false(lm_isr_set(APIC_VEC_ERROR));
	assert_non_null(strstr(stub_console_text(), "ESR=0x20 (send-illegal-vector)"));
	assert_int_equal(lm.gp_safe, 0);	/* x2APIC: the ESR write was 0 */
	env_no_illegal_access();
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
	assert_true(env_boot(XB, true, 0, ""));
	eois = lm.eois;
	env_handlers[APIC_VEC_SPURIOUS](&f);
	assert_int_equal(apic_stats()->spurious, 1);
	assert_int_equal(lm.eois, eois);
}

/* A vector nobody installed is acknowledged when it is in service, so it cannot block the
 * lower-priority vectors (the watchdog timer) for the rest of the run; otherwise no EOI. */
static void test_stray_vector_eoi(void **state)
{
	struct trap_frame f = { .vector = 0x91 };
	unsigned eois;

	(void)state;
	assert_true(env_boot(XB, true, 0, ""));
	assert_non_null(env_default_handler);
	eois = lm.eois;
	env_default_handler(&f);			/* not in service: no EOI */
	assert_int_equal(lm.eois, eois);
	lm.isr[0x91 / 32] |= 1u << (0x91 % 32);	/* delivered: in service */
	env_default_handler(&f);
	assert_int_equal(lm.eois, eois + 1);
}

static void test_x2apic_fault_reported(void **state)
{
	unsigned before;

	(void)state;
	assert_true(env_boot(XB, true, 0, "apic=x2apic"));
	before = apic_ops_faults()->count;
	lm.fault_msr = APIC_X2APIC_MSR(APIC_LVTPC);
	apic_pmi_rearm();	/* read + write of 0x834 both fault: counted, not fatal */
	assert_int_equal(apic_ops_faults()->count, before + 2);
	assert_int_equal(apic_ops_faults()->last_msr, 0x834);
	assert_true(apic_ops_faults()->last_was_write);
	assert_int_equal(apic_ops_faults()->last_vector, 13);
	lm.fault_msr = 0;
}


int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pmi_rearm_xapic),
		cmocka_unit_test(test_pmi_rearm_x2apic),
		cmocka_unit_test(test_pmi_handler_rearms_itself),
		cmocka_unit_test(test_pmi_nmi_delivery),
		cmocka_unit_test(test_self_ipi_xapic),
		cmocka_unit_test(test_self_ipi_x2apic),
		cmocka_unit_test(test_self_nmi_icr),
		cmocka_unit_test(test_stray_vector_eoi),
		cmocka_unit_test(test_error_vector_xapic),
		cmocka_unit_test(test_error_vector_x2apic),
		cmocka_unit_test(test_spurious_no_eoi),
		cmocka_unit_test(test_x2apic_fault_reported),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
