/*
 * apic_test.c: apic/ bring-up against the local-APIC model (tests/model/lapic_model.c) in
 * place of kernel/hw.h: mode detection from IA32_APIC_BASE (SDM Vol. 3A 11.4.4, 11.12),
 * firmware-locked x2APIC kept, x2APIC enabled on request, faults reported, the registers
 * apic_init programs, in xAPIC and x2APIC mode. QEMU's TCG has no x2APIC (platform-notes),
 * so the apic host tests are where the x2APIC paths run before hardware.
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
#include "kernel/cmdline.h"

static void test_xapic_from_firmware(void **state)
{
	(void)state;
	assert_true(env_boot(XB, true, 3, "apic=auto"));
	assert_int_equal(apic_mode(), APIC_XAPIC);
	assert_int_equal(apic_id(), 3);
	assert_int_equal(env_maps, 1);
	assert_int_equal(env_mapped_phys, 0xfee00000);
	assert_int_equal(env_mapped_bytes, 0x1000);
	assert_int_equal(lm.base_writes, 0);
	assert_int_equal(lm.gp_safe, 0);
	env_no_illegal_access();
}

static void test_xapic_relocated_base(void **state)
{
	(void)state;
	assert_true(env_boot(0xfec00000ull | APIC_BASE_EN, false, 1, ""));
	assert_int_equal(env_mapped_phys, 0xfec00000);
	assert_int_equal(lm.regs[APIC_SPIV >> 4], APIC_SPIV_APIC_ENABLED | APIC_VEC_SPURIOUS);
	env_no_illegal_access();
}

static void test_x2apic_on_request(void **state)
{
	(void)state;
	assert_true(env_boot(XB, true, 0x105, "apic=x2apic"));
	assert_int_equal(apic_mode(), APIC_X2APIC);
	assert_int_equal(lm.apic_base, X2B);
	assert_int_equal(apic_id(), 0x105);	/* 32-bit x2APIC id, not 8 bits */
	assert_int_equal(env_maps, 0);
	assert_false(apic_x2apic_locked());
	env_no_illegal_access();
}

static void test_x2apic_request_without_cpuid(void **state)
{
	(void)state;
	assert_true(env_boot(XB, false, 2, "apic=x2apic"));
	assert_int_equal(apic_mode(), APIC_XAPIC);
	assert_int_equal(lm.base_writes, 0);
	assert_non_null(strstr(stub_console_text(), "CPUID.1:ECX.x2APIC[21]=0"));
	env_no_illegal_access();
}

static void test_x2apic_locked_kept(void **state)
{
	(void)state;
	/* env_boot() resets the model: lock it afterwards and bring the APIC up again */
	assert_true(env_boot(X2B, true, 0x20, "apic=xapic"));
	lm.arch_cap_xapic_status = true;
	lm.locked = true;
	assert_true(apic_init());
	assert_int_equal(apic_mode(), APIC_X2APIC);
	assert_true(apic_x2apic_locked());
	assert_int_equal(lm.base_writes, 0);
	assert_int_equal(lm.apic_base, X2B);
	assert_non_null(strstr(stub_console_text(), "never dropped back"));
	assert_int_equal(lm.regs[APIC_LVTPC >> 4], APIC_VEC_PMI);
	env_no_illegal_access();
}

static void test_disabled_then_x2apic(void **state)
{
	(void)state;
	assert_true(env_boot(0xfee00000ull, true, 0, "apic=x2apic"));
	assert_int_equal(apic_mode(), APIC_X2APIC);
	assert_int_equal(lm.base_writes, 2);	/* EN first, then EXTD (Figure 11-27) */
	assert_int_equal(lm.gp_safe, 0);
	env_no_illegal_access();
}

/*
 * H18: an application processor whose firmware left its local APIC globally disabled
 * (IA32_APIC_BASE.EN = 0). SDM Vol. 3A 11.12.5, Figure 11-27: disabled -> x2APIC directly is
 * an invalid transition (#GP); the AP goes through xAPIC enabled first, with _safe
 * accessors. The model plays the AP's APIC after the boot CPU's bring-up.
 */
static void check_ap_disabled(const char *cl, enum apic_mode want)
{
	assert_true(env_boot(XB, true, 7, cl));
	assert_int_equal(apic_mode(), want);
	lm.apic_base = 0xfee00000ull;	/* the AP's APIC as firmware left it */
	lm.regs[APIC_SPIV >> 4] = 0xff;
	lm.base_writes = 0;
	assert_int_equal(apic_ap_init(), 0);
	assert_true(lm.apic_base & APIC_BASE_EN);
	assert_int_equal(!!(lm.apic_base & APIC_BASE_EXTD), want == APIC_X2APIC);
	assert_int_equal(lm.base_writes, want == APIC_X2APIC ? 2 : 1);
	assert_int_equal(lm.regs[APIC_SPIV >> 4], APIC_SPIV_APIC_ENABLED | APIC_VEC_SPURIOUS);
	assert_int_equal(lm.gp_safe, 0);
	env_no_illegal_access();
}

static void test_ap_apic_disabled_x2apic(void **state)
{
	(void)state;
	check_ap_disabled("apic=x2apic", APIC_X2APIC);
}

static void test_ap_apic_disabled_xapic(void **state)
{
	(void)state;
	check_ap_disabled("", APIC_XAPIC);
}

/* an AP whose IA32_APIC_BASE write faults: the vector comes back, nothing non-safe #GPs */
static void test_ap_apic_base_fault(void **state)
{
	(void)state;
	assert_true(env_boot(XB, true, 7, "apic=x2apic"));
	lm.apic_base = 0xfee00000ull;
	lm.fault_msr = MSR_IA32_APIC_BASE;
	assert_int_equal(apic_ap_init(), 13);
	lm.fault_msr = 0;
	assert_int_equal(lm.gp_unsafe, 0);
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
	apic_print_header(false);
	assert_non_null(strstr(stub_console_text(), "# apic: disabled"));
}

static void check_init_registers(uint64_t base, const char *cl)
{
	assert_true(env_boot(base, true, 0, cl));
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
	assert_non_null(env_handlers[APIC_VEC_SPURIOUS]);
	assert_non_null(env_handlers[APIC_VEC_ERROR]);
	assert_non_null(env_handlers[APIC_VEC_PMI]);
	assert_non_null(env_handlers[APIC_VEC_TIMER]);
	assert_null(env_nmi_hook);
	assert_int_equal(apic_pmi_delivery(), PMI_FIXED_VECTOR);
	assert_int_equal(apic_lvtpc_read(), APIC_VEC_PMI);
	env_no_illegal_access();
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


int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_xapic_from_firmware),
		cmocka_unit_test(test_xapic_relocated_base),
		cmocka_unit_test(test_x2apic_on_request),
		cmocka_unit_test(test_x2apic_request_without_cpuid),
		cmocka_unit_test(test_x2apic_locked_kept),
		cmocka_unit_test(test_disabled_then_x2apic),
		cmocka_unit_test(test_ap_apic_disabled_x2apic),
		cmocka_unit_test(test_ap_apic_disabled_xapic),
		cmocka_unit_test(test_ap_apic_base_fault),
		cmocka_unit_test(test_apic_base_fault),
		cmocka_unit_test(test_init_registers_xapic),
		cmocka_unit_test(test_init_registers_x2apic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
