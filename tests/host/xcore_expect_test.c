/*
 * xcore_expect_test.c: the data-source codes the cross-core kernels expect per model
 * (loads/xcore_expect.c over pebs/datasrc_tables.c): Nehalem-EX (SDM Vol. 3B table 18-24:
 * 05H clean snoop hit, 06H/07H HITM; 07H exists on 06_2EH), Skylake-X (06H XSNP_HIT, 07H
 * XSNP_HITM; the DRAM and remote rows are not expected), Alder Lake's P- and E-core tables
 * (a hybrid part: two different answers), Lion Cove (8-bit codes: 0CH Fwd, 0DH/0FH HitM),
 * Panther Cove's OMR codes above FFH, an unknown model (none), the per-table text the KTAP line prints, and the PEBS verdict
 * on aggregates shaped like the kernels' runs (the snoop kernel's flag line adds one HitM
 * record per measured line).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "loads/xcore.h"

static unsigned codes(unsigned model, enum pebs_core core, enum xcore_kind k, uint16_t *c)
{
	const struct pebs_model *m = pebs_model_lookup(6, model, core);

	assert_non_null(m);
	return xcore_expected_codes(m, k, c, 16);
}

static void test_nhm_skl(void **state)
{
	uint16_t c[16];

	(void)state;
	assert_int_equal(codes(0x2E, PEBS_CORE_P, XCORE_SNOOP, c), 1);
	assert_int_equal(c[0], 0x05);
	assert_int_equal(codes(0x2E, PEBS_CORE_P, XCORE_HITM, c), 2);
	assert_int_equal(c[0], 0x06);
	assert_int_equal(c[1], 0x07);
	assert_int_equal(codes(0x1A, PEBS_CORE_P, XCORE_HITM, c), 1);	/* no 07H on 06_1AH */
	assert_int_equal(codes(0x55, PEBS_CORE_P, XCORE_SNOOP, c), 1);
	assert_int_equal(c[0], 0x06);	/* not 0AH: local DRAM, snoop hit */
	assert_int_equal(codes(0x55, PEBS_CORE_P, XCORE_HITM, c), 1);
	assert_int_equal(c[0], 0x07);
}

static void test_hybrid_and_lnc(void **state)
{
	uint16_t p[16], e[16];
	unsigned np, ne;

	(void)state;
	np = codes(0x97, PEBS_CORE_P, XCORE_HITM, p);
	ne = codes(0x97, PEBS_CORE_E, XCORE_HITM, e);
	assert_true(np >= 1 && ne >= 1);
	assert_int_equal(p[0], 0x07);	/* Golden Cove: Table A XSNP_HITM */
	assert_int_equal(e[0], 0x06);	/* Gracemont: its own table */
	assert_int_equal(codes(0xBD, PEBS_CORE_P, XCORE_SNOOP, p), 1);
	assert_int_equal(p[0], 0x0C);
	assert_int_equal(codes(0xBD, PEBS_CORE_P, XCORE_HITM, p), 2);
	assert_int_equal(p[0], 0x0D);
	assert_int_equal(p[1], 0x0F);
	assert_int_equal(xcore_expected_codes(NULL, XCORE_HITM, p, 16), 0);
	assert_int_equal(codes(0x55, PEBS_CORE_P, XCORE_NONE, p), 0);
	assert_int_equal(codes(0x2E, PEBS_CORE_P, XCORE_HITM, p) > 1, true);
	assert_int_equal(xcore_expected_codes(pebs_model_lookup(6, 0x2E, PEBS_CORE_P), XCORE_HITM,
					      p, 1), 1);	/* max respected */
}

/* Panther Cove / Arctic Wolf: the cross-core codes are OMR codes, 100H..1FFH (bit 8;
 * datasrc_pantherc.c, Linux ds.c parse_omr_data_source): 103H "local CA, non-shared cache",
 * no HitM, no Fwd bit = snoop Hit; 123H the same with HitM (bit 5); 143H Fwd (bit 6). */
static void test_omr(void **state)
{
	const struct pebs_model *dmr = pebs_model_lookup(0x13, 0x01, PEBS_CORE_P);
	uint16_t c[64];
	unsigned n;
	bool fwd = false;

	(void)state;
	assert_non_null(dmr);
	n = xcore_expected_codes(dmr, XCORE_SNOOP, c, 64);
	assert_true(n > 4);
	assert_int_equal(c[0], 0x103);
	for (unsigned i = 0; i < n; i++)
		fwd |= c[i] == 0x143;
	assert_true(fwd);
	assert_true(xcore_expected_codes(dmr, XCORE_HITM, c, 64) > 4);
	assert_int_equal(c[0], 0x123);
}

static void test_text(void **state)
{
	char b[300], small[12];

	(void)state;
	xcore_expected_text(XCORE_HITM, b, sizeof(b));
	assert_non_null(strstr(b, "snb 07H"));
	assert_non_null(strstr(b, "lnc 0DH 0FH"));
	assert_non_null(strstr(b, "pnc 123H 124H 125H 126H +"));	/* 4 listed, the rest counted */
	xcore_expected_text(XCORE_SNOOP, b, sizeof(b));
	assert_non_null(strstr(b, "lnc 0CH;"));
	assert_non_null(strstr(b, "arw 103H "));
	xcore_expected_text(XCORE_SNOOP, small, sizeof(small));
	assert_true(strlen(small) < sizeof(small));
}

static void test_verdict(void **state)
{
	static struct pebs_agg a;
	char d[256];

	(void)state;
	memset(&a, 0, sizeof(a));
	a.records = 400;
	a.lvl[PEBS_LVL_L1].snoop[PEBS_SNOOP_NONE] = 200;	/* not counted: not cross-core */
	a.lvl[PEBS_LVL_L3].snoop[PEBS_SNOOP_HIT] = 90;	/* measured lines */
	a.lvl[PEBS_LVL_L3].snoop[PEBS_SNOOP_HITM] = 100;	/* the ack flag */
	a.lvl[PEBS_LVL_L3].snoop[PEBS_SNOOP_NONE] = 10;
	assert_int_equal(xcore_pebs_verdict(&a, XCORE_SNOOP, d, sizeof(d)), 1);
	assert_non_null(strstr(d, "90 of 200 records"));
	assert_int_equal(xcore_pebs_verdict(&a, XCORE_HITM, d, sizeof(d)), 1);	/* 100/200 */
	a.lvl[PEBS_LVL_L3].snoop[PEBS_SNOOP_NONE] = 110;	/* lines evicted: no snoop */
	assert_int_equal(xcore_pebs_verdict(&a, XCORE_HITM, d, sizeof(d)), 0);
	a.lvl[PEBS_LVL_L3].snoop[PEBS_SNOOP_HIT] = 40;		/* 40 of 250 < 25 % */
	assert_int_equal(xcore_pebs_verdict(&a, XCORE_SNOOP, d, sizeof(d)), 0);
	/* Fwd counts as a clean cross-core hit (Lion Cove, Gracemont), on "any cache" too */
	a.lvl[PEBS_LVL_ANY_CACHE].snoop[PEBS_SNOOP_FWD] = 100;
	assert_int_equal(xcore_pebs_verdict(&a, XCORE_SNOOP, d, sizeof(d)), 1);
	memset(&a, 0, sizeof(a));
	a.lvl[PEBS_LVL_L3].snoop[PEBS_SNOOP_HITM] = XCORE_PEBS_MIN - 1;
	assert_int_equal(xcore_pebs_verdict(&a, XCORE_HITM, d, sizeof(d)), -1);
	a.lvl[PEBS_LVL_RAM].snoop[PEBS_SNOOP_HITM] = 1000;	/* DRAM rows are not the point */
	assert_int_equal(xcore_pebs_verdict(&a, XCORE_HITM, d, sizeof(d)), -1);
	a.lvl[PEBS_LVL_L3].snoop[PEBS_SNOOP_MISS] = 100;
	assert_int_equal(xcore_pebs_verdict(&a, XCORE_HITM, d, sizeof(d)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nhm_skl),
		cmocka_unit_test(test_hybrid_and_lnc),
		cmocka_unit_test(test_omr),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_verdict),
	};

	return cmocka_run_group_tests_name("xcore_expect", tests, NULL, NULL);
}
