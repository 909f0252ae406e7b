/*
 * apic_enc_test.c: the pure local-APIC encoders against values worked out from the SDM
 * figures (Vol. 3A 11-8 LVT, 11-10 divide, 11-12 / 11-28 ICR, Table 11-5 modes), the mode
 * plan for every firmware state x request, and the calibration arithmetic against 128-bit
 * references.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "apic/apic_enc.h"
#include "apic/apic_regs.h"

static void test_register_map(void **state)
{
	(void)state;
	/* Table 11-6: x2APIC MSR = 0x800 + offset / 16 */
	assert_int_equal(APIC_X2APIC_MSR(APIC_ID), 0x802);
	assert_int_equal(APIC_X2APIC_MSR(APIC_TASKPRI), 0x808);
	assert_int_equal(APIC_X2APIC_MSR(APIC_EOI), 0x80b);
	assert_int_equal(APIC_X2APIC_MSR(APIC_SPIV), 0x80f);
	assert_int_equal(APIC_X2APIC_MSR(APIC_ESR), 0x828);
	assert_int_equal(APIC_X2APIC_MSR(APIC_ICR), 0x830);
	assert_int_equal(APIC_X2APIC_MSR(APIC_LVTT), 0x832);
	assert_int_equal(APIC_X2APIC_MSR(APIC_LVTPC), 0x834);
	assert_int_equal(APIC_X2APIC_MSR(APIC_LVTERR), 0x837);
	assert_int_equal(APIC_X2APIC_MSR(APIC_TMICT), 0x838);
	assert_int_equal(APIC_X2APIC_MSR(APIC_TMCCT), 0x839);
	assert_int_equal(APIC_X2APIC_MSR(APIC_TDCR), 0x83e);
	assert_int_equal(APIC_X2APIC_MSR(APIC_SELF_IPI), 0x83f);
	/* ISR/IRR register and bit of a vector */
	assert_int_equal(APIC_ISR + APIC_VECTOR_REG_OFF(0xe8), 0x170);
	assert_int_equal(APIC_VECTOR_BIT(0xe8), 1u << 8);
	assert_int_equal(APIC_IRR + APIC_VECTOR_REG_OFF(0x20), 0x210);
}

static void test_lvt_pack(void **state)
{
	uint32_t v;

	(void)state;
	assert_int_equal(apic_lvt_pack(0xe8, APIC_DM_FIXED, false, 0), 0xe8);
	assert_int_equal(apic_lvt_pack(0xe8, APIC_DM_NMI, false, 0), 0x4e8);
	assert_int_equal(apic_lvt_pack(0xe8, APIC_DM_FIXED, true, 0), 0x100e8);
	assert_int_equal(apic_lvt_pack(0, APIC_DM_EXTINT, true, 0), 0x10700);
	assert_int_equal(apic_lvt_pack(0xe0, APIC_DM_FIXED, false, APIC_TIMER_PERIODIC), 0x200e0);
	assert_int_equal(apic_lvt_pack(0xe0, APIC_DM_FIXED, true, APIC_TIMER_TSC_DEADLINE),
			 0x500e0);
	/* out-of-range fields cannot spill into neighbours */
	v = apic_lvt_pack(0x20, 0xff, false, 0xff);
	assert_int_equal(v & ~(APIC_LVT_DM_MASK | APIC_LVT_TIMER_MODE_MASK | 0xffu), 0);
	assert_int_equal(apic_lvt_vector(0x104e8), 0xe8);
	assert_int_equal(apic_lvt_dm(0x104e8), APIC_DM_NMI);
	assert_true(apic_lvt_masked(0x104e8));
	assert_false(apic_lvt_masked(0x4e8));
}

static void test_icr_encode(void **state)
{
	(void)state;
	/* self-IPI, fixed: vector | level assert (14) | shorthand self (19:18 = 01) */
	assert_int_equal(apic_icr_encode(APIC_XAPIC, 0xe8, APIC_DM_FIXED, APIC_DEST_SELF, 7),
			 0x440e8);
	assert_int_equal(apic_icr_encode(APIC_X2APIC, 0xe8, APIC_DM_FIXED, APIC_DEST_SELF, 7),
			 0x440e8);
	/* physical destination: xAPIC ICR2[31:24] (8 bits), x2APIC ICR[63:32] (32 bits) */
	assert_int_equal(apic_icr_encode(APIC_XAPIC, 0x30, APIC_DM_FIXED, APIC_DEST_NOSHORT, 0x3),
			 0x0300000000004030ull);
	assert_int_equal(apic_icr_encode(APIC_XAPIC, 0x30, APIC_DM_FIXED, APIC_DEST_NOSHORT,
					 0x1ff), 0xff00000000004030ull);
	assert_int_equal(apic_icr_encode(APIC_X2APIC, 0x30, APIC_DM_FIXED, APIC_DEST_NOSHORT,
					 0x12345), 0x0001234500004030ull);
	/* NMI to all-excluding-self */
	assert_int_equal(apic_icr_encode(APIC_X2APIC, 0, APIC_DM_NMI, APIC_DEST_ALLBUT, 0),
			 0xc4400);
	/* we never set the delivery-status bit */
	assert_int_equal(apic_icr_encode(APIC_XAPIC, 0xff, 7, 3, 0xff) & APIC_ICR_BUSY, 0);
}

static void test_tdcr(void **state)
{
	/* Figure 11-10: 0000 /2, 0001 /4, 0010 /8, 0011 /16, 1000 /32, 1001 /64, 1010 /128,
	 * 1011 /1 */
	static const struct { unsigned div; uint32_t enc; } t[] = {
		{ 2, 0x0 }, { 4, 0x1 }, { 8, 0x2 }, { 16, 0x3 },
		{ 32, 0x8 }, { 64, 0x9 }, { 128, 0xa }, { 1, 0xb },
	};
	uint32_t v;

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		assert_true(apic_tdcr_encode(t[i].div, &v));
		assert_int_equal(v, t[i].enc);
		assert_int_equal(apic_tdcr_divisor(t[i].enc), t[i].div);
	}
	assert_false(apic_tdcr_encode(0, &v));
	assert_false(apic_tdcr_encode(3, &v));
	assert_false(apic_tdcr_encode(256, &v));
}

static void test_mode_of_base(void **state)
{
	(void)state;
	assert_int_equal(apic_mode_of_base(0xfee00000), APIC_DISABLED);
	assert_int_equal(apic_mode_of_base(0xfee00000 | APIC_BASE_EN | APIC_BASE_BSP), APIC_XAPIC);
	assert_int_equal(apic_mode_of_base(0xfee00000 | APIC_BASE_EN | APIC_BASE_EXTD),
			 APIC_X2APIC);
	assert_true(apic_base_invalid(0xfee00000 | APIC_BASE_EXTD));
	assert_false(apic_base_invalid(0xfee00000 | APIC_BASE_EXTD | APIC_BASE_EN));
	assert_string_equal(apic_mode_name(APIC_X2APIC), "x2APIC");
}

static void test_request_parse(void **state)
{
	enum apic_request r = APIC_REQ_X2APIC;

	(void)state;
	assert_true(apic_request_parse(NULL, &r));
	assert_int_equal(r, APIC_REQ_AUTO);
	assert_true(apic_request_parse("x2apic", &r));
	assert_int_equal(r, APIC_REQ_X2APIC);
	assert_true(apic_request_parse("xapic", &r));
	assert_int_equal(r, APIC_REQ_XAPIC);
	assert_false(apic_request_parse("x3apic", &r));
}

#define X   (0xfee00000ull | APIC_BASE_EN | APIC_BASE_BSP)
#define X2  (X | APIC_BASE_EXTD)
#define OFF (0xfee00000ull | APIC_BASE_BSP)

static void test_plan(void **state)
{
	static const struct {
		uint64_t base; bool cx2; enum apic_request req;
		enum apic_mode mode; bool write; uint64_t nb; bool note;
	} t[] = {
		/* firmware xAPIC */
		{ X, true, APIC_REQ_AUTO, APIC_XAPIC, false, X, false },
		{ X, true, APIC_REQ_XAPIC, APIC_XAPIC, false, X, false },
		{ X, true, APIC_REQ_X2APIC, APIC_X2APIC, true, X2, false },
		{ X, false, APIC_REQ_X2APIC, APIC_XAPIC, false, X, true },
		/* firmware x2APIC (maybe locked): always kept, never written */
		{ X2, true, APIC_REQ_AUTO, APIC_X2APIC, false, X2, false },
		{ X2, true, APIC_REQ_X2APIC, APIC_X2APIC, false, X2, false },
		{ X2, true, APIC_REQ_XAPIC, APIC_X2APIC, false, X2, true },
		/* globally disabled: enable xAPIC first (one step), never straight to x2APIC */
		{ OFF, true, APIC_REQ_X2APIC, APIC_XAPIC, true, X, true },
		{ OFF, false, APIC_REQ_AUTO, APIC_XAPIC, true, X, true },
		/* invalid EXTD without EN */
		{ OFF | APIC_BASE_EXTD, true, APIC_REQ_AUTO, APIC_DISABLED, false,
		  OFF | APIC_BASE_EXTD, true },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct apic_plan p = apic_plan_mode(t[i].base, true, t[i].cx2, t[i].req);

		assert_int_equal(p.mode, t[i].mode);
		assert_int_equal(p.write_base, t[i].write);
		if (p.write_base)
			assert_int_equal(p.new_base, t[i].nb);
		assert_int_equal(p.note != NULL, t[i].note);
	}
}

static void test_esr_describe(void **state)
{
	char b[96], small[12];

	(void)state;
	assert_string_equal(apic_esr_describe(0, b, sizeof(b)), "");
	assert_string_equal(apic_esr_describe(APIC_ESR_SEND_ILLEGAL, b, sizeof(b)),
			    "send-illegal-vector");
	assert_string_equal(apic_esr_describe(APIC_ESR_SEND_ACCEPT | APIC_ESR_ILLEGAL_REG, b,
					      sizeof(b)), "send-accept,illegal-register");
	assert_string_equal(apic_esr_describe(1u << 20, b, sizeof(b)), "other");
	/* truncation keeps whole names and a terminated string */
	apic_esr_describe(0xff, small, sizeof(small));
	assert_true(strlen(small) < sizeof(small));
}

static void test_muldiv(void **state)
{
	static const uint64_t v[] = { 0, 1, 3, 1000, 1000000, 0xffffffffull, 2445000000ull,
				      0x123456789abcdefull, UINT64_MAX / 3, UINT64_MAX };

	(void)state;
	for (size_t a = 0; a < 10; a++)
		for (size_t b = 0; b < 10; b++)
			for (size_t c = 1; c < 10; c++) {
				unsigned __int128 r = (unsigned __int128)v[a] * v[b] / v[c];
				uint64_t want = r >> 64 ? UINT64_MAX : (uint64_t)r;

				assert_int_equal(apic_muldiv64(v[a], v[b], v[c]), want);
			}
}

static void test_calibration_math(void **state)
{
	uint64_t med[] = { 5, 1, 4, 2, 3 };

	(void)state;
	/* 625,000 counts in 10 ms of a 2.445 GHz TSC: 62.5 MHz */
	assert_int_equal(apic_calib_hz(625000, 24450000, 2445000000ull), 62500000);
	assert_int_equal(apic_calib_hz(1, 0, 1000), 0);
	/* a full 32-bit count over a long window does not overflow */
	assert_int_equal(apic_calib_hz(0xffffffffull, 0xffffffffull * 40, 4000000000ull),
			 100000000);
	assert_int_equal(apic_timer_count_for_us(62500000, 1000), 62500);
	assert_int_equal(apic_timer_count_for_us(62500000, 0), 1);
	assert_int_equal(apic_timer_count_for_us(62500000, 3600000000ull), 0xffffffffu);
	assert_int_equal(apic_error_ppm(1010, 1000), 10000);
	assert_int_equal(apic_error_ppm(990, 1000), -10000);
	assert_int_equal(apic_error_ppm(5, 0), 0);
	assert_int_equal(apic_median(med, 5), 3);
	assert_int_equal(apic_median(med, 1), 5);
	assert_int_equal(apic_median(med, 0), 0);
	assert_int_equal(med[0], 5);	/* input untouched */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_register_map),
		cmocka_unit_test(test_lvt_pack),
		cmocka_unit_test(test_icr_encode),
		cmocka_unit_test(test_tdcr),
		cmocka_unit_test(test_mode_of_base),
		cmocka_unit_test(test_request_parse),
		cmocka_unit_test(test_plan),
		cmocka_unit_test(test_esr_describe),
		cmocka_unit_test(test_muldiv),
		cmocka_unit_test(test_calibration_math),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
