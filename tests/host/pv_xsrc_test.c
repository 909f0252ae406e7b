/*
 * pv_xsrc_test.c: the snoop / HITM / remote PEBS verdicts (loads/pv_xsrc.h), both ways: the
 * expected codes come out of each model's data-source table (SDM Vol. 3B table 18-24 on
 * Nehalem; Linux's Table A from Sandy Bridge on; docs/hardware.md §5), a measurement whose
 * records carry those codes passes and one whose records carry the neighbouring local codes
 * fails; a table without such a code SKIPs with the table's name; Lion Cove's Fwd-only clean
 * hit and no remote row, and Panther Cove's / Arctic Wolf's OMR codes above FFH.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "loads/pv_xsrc.h"
#include "pebs/record.h"
#include "pebs/aggbuf.h"

static const struct pebs_model *model(unsigned m, enum pebs_core core)
{
	const struct pebs_model *r = pebs_model_lookup(6, m, core);

	assert_non_null(r);
	return r;
}

static void codes_are(unsigned m, enum pebs_core core, enum pv_xsrc w, const char *want)
{
	char names[96];

	pv_xsrc_codes(model(m, core), w, names, sizeof(names));
	assert_string_equal(names, want);
}

static void test_codes_from_tables(void **state)
{
	char names[8];

	(void)state;
	/* Nehalem-EP: SDM table 18-24 (07H reserved off 06_2E, 09H reserved) */
	codes_are(0x1A, PEBS_CORE_ANY, PV_X_REMOTE, "08H 0BH 0DH");
	codes_are(0x1A, PEBS_CORE_ANY, PV_X_SNOOP, "05H 08H");
	codes_are(0x1A, PEBS_CORE_ANY, PV_X_HITM, "06H");
	codes_are(0x2E, PEBS_CORE_ANY, PV_X_HITM, "06H 07H");	/* Nehalem-EX: 07H HitM */
	/* Sandy Bridge, Skylake-SP: Table A, remote HitM 09H */
	codes_are(0x2A, PEBS_CORE_ANY, PV_X_REMOTE, "08H 09H 0BH 0DH");
	codes_are(0x2A, PEBS_CORE_ANY, PV_X_SNOOP, "06H 08H");
	codes_are(0x2A, PEBS_CORE_ANY, PV_X_HITM, "07H 09H");
	/* Skylake-SP: Table A + _skl, whose successors replace 08H (L4) and add 0CH (remote
	 * cache, Fwd) */
	codes_are(0x55, PEBS_CORE_ANY, PV_X_REMOTE, "09H 0BH 0CH 0DH");
	/* a hybrid part: the P-core (_skl) and the E-core (_grt) tables disagree */
	codes_are(0x97, PEBS_CORE_P, PV_X_REMOTE, "09H 0BH 0CH 0DH");
	codes_are(0x97, PEBS_CORE_E, PV_X_REMOTE, "09H 0BH 0DH");
	codes_are(0x97, PEBS_CORE_P, PV_X_HITM, "07H 0DH");
	codes_are(0x97, PEBS_CORE_E, PV_X_HITM, "06H 07H 09H");
	/* truncation: the count stays right, the text ends cleanly */
	assert_int_equal(pv_xsrc_codes(model(0x2A, PEBS_CORE_ANY), PV_X_REMOTE, names,
				       sizeof(names)), 4);
	assert_string_equal(names, "08H 09H");
	assert_int_equal(pv_xsrc_codes(NULL, PV_X_REMOTE, names, sizeof(names)), 0);
	assert_string_equal(names, "");
}

/* n1 records of code c1 and n2 of c2, decoded with model m (latency 100). */
static void fill(struct pebs_agg *a, const struct pebs_model *m, unsigned c1, unsigned n1,
		 unsigned c2, unsigned n2)
{
	struct pebs_record r = { .valid = PEBS_F_LATENCY, .latency = 100 };
	struct pebs_dsrc d;

	pebs_agg_init(a);
	for (unsigned i = 0; i < n1 + n2; i++) {
		r.aux = i < n1 ? c1 : c2;
		pebs_dsrc_decode(m, PEBS_EV_LOAD, r.aux, &d);
		pebs_agg_add(a, &r, &d);
	}
}

static enum pv_result verdict(const struct pebs_agg *a, const struct pebs_model *m,
			      enum pv_xsrc w, char *d)
{
	return pv_xsrc(a, m, w, d, 200);
}

static void test_both_ways(void **state)
{
	static struct pebs_agg a;
	const struct pebs_model *snb = model(0x2D, PEBS_CORE_ANY), *nhm = model(0x1A,
										PEBS_CORE_ANY);
	char d[200];

	(void)state;
	fill(&a, snb, 0x0B, 700, 0x0C, 300);	/* remote DRAM 70 %, local DRAM the rest */
	assert_int_equal(verdict(&a, snb, PV_X_REMOTE, d), PV_PASS);
	assert_string_equal(d, "remote 70.0% >= 50%, of 1000 (codes 08H 09H 0BH 0DH, table snb)");
	fill(&a, snb, 0x0B, 300, 0x0C, 700);	/* mostly local: the remote claim fails */
	assert_int_equal(verdict(&a, snb, PV_X_REMOTE, d), PV_FAIL);
	assert_non_null(strstr(d, "remote 30.0% < 50%"));
	fill(&a, snb, 0x0D, 500, 0x04, 500);	/* exactly the minimum share */
	assert_int_equal(verdict(&a, snb, PV_X_REMOTE, d), PV_PASS);

	fill(&a, snb, 0x06, 900, 0x04, 100);	/* Table A snoop Hit vs no snoop */
	assert_int_equal(verdict(&a, snb, PV_X_SNOOP, d), PV_PASS);
	assert_int_equal(verdict(&a, snb, PV_X_HITM, d), PV_FAIL);
	fill(&a, snb, 0x07, 900, 0x06, 100);	/* HitM vs clean */
	assert_int_equal(verdict(&a, snb, PV_X_HITM, d), PV_PASS);
	assert_int_equal(verdict(&a, snb, PV_X_SNOOP, d), PV_FAIL);
	fill(&a, snb, 0x0A, 900, 0x06, 100);	/* local RAM with a snoop Hit is not a cache snoop */
	assert_int_equal(verdict(&a, snb, PV_X_SNOOP, d), PV_FAIL);

	/* the same code means different things per table: 06H is HitM on Nehalem */
	fill(&a, nhm, 0x06, 900, 0x04, 100);
	assert_int_equal(verdict(&a, nhm, PV_X_HITM, d), PV_PASS);
	assert_int_equal(verdict(&a, nhm, PV_X_SNOOP, d), PV_FAIL);
	fill(&a, nhm, 0x05, 900, 0x04, 100);
	assert_int_equal(verdict(&a, nhm, PV_X_SNOOP, d), PV_PASS);

	pebs_agg_init(&a);			/* no records: a failure, not a pass */
	assert_int_equal(verdict(&a, snb, PV_X_REMOTE, d), PV_FAIL);
	assert_string_equal(d, "no records (want codes 08H 09H 0BH 0DH)");
}

static void test_no_code_skips(void **state)
{
	static struct pebs_agg a;
	const struct pebs_model *core2 = model(0x17, PEBS_CORE_ANY);	/* Penryn: no table */
	char d[200];

	(void)state;
	fill(&a, core2, 0x0B, 10, 0, 0);
	assert_int_equal(verdict(&a, core2, PV_X_REMOTE, d), PV_SKIP);
	assert_string_equal(d, "data-source table none has no remote code");
	assert_int_equal(verdict(&a, NULL, PV_X_HITM, d), PV_SKIP);
	assert_string_equal(pv_xsrc_name(PV_X_HITM), "hitm");
}

/* Lion Cove (Linux ds.c lnc_pebs_data_source): its only clean cross-core hit is 0CH "L3 Hit
 * Snoop Fwd", and it has no remote row at all (one-socket parts). Panther Cove / Diamond
 * Rapids and Arctic Wolf: the OMR codes lie at 100H..1FFH (bit 8; Linux ds.c
 * pnc_latency_data, parse_omr_data_source: bit 4 remote), so a scan of 00H..FFH alone finds
 * no remote code there and pebs_remote SKIPs on a two-socket Diamond Rapids. */
static void test_lnc_and_omr(void **state)
{
	static struct pebs_agg a;
	const struct pebs_model *dmr = pebs_model_lookup(0x13, 0x01, PEBS_CORE_P);
	const struct pebs_model *arw = pebs_model_lookup(0x12, 0x01, PEBS_CORE_E);
	char d[200], names[10];

	(void)state;
	codes_are(0xBD, PEBS_CORE_P, PV_X_SNOOP, "0CH");
	codes_are(0xBD, PEBS_CORE_P, PV_X_HITM, "0DH 0FH");
	codes_are(0xBD, PEBS_CORE_P, PV_X_REMOTE, "");
	fill(&a, model(0xBD, PEBS_CORE_P), 0x0C, 60, 0x01, 40);
	assert_int_equal(verdict(&a, model(0xBD, PEBS_CORE_P), PV_X_SNOOP, d), PV_PASS);
	assert_int_equal(verdict(&a, model(0xBD, PEBS_CORE_P), PV_X_REMOTE, d), PV_SKIP);
	assert_string_equal(d, "data-source table lnc has no remote code");
	assert_non_null(dmr);
	assert_non_null(arw);
	/* 118H: OMR source 8 (memory region 0), bit 4 remote; 108H the same, local */
	fill(&a, dmr, 0x118, 70, 0x108, 30);
	assert_int_equal(verdict(&a, dmr, PV_X_REMOTE, d), PV_PASS);
	assert_non_null(strstr(d, "remote 70.0% >= 50%, of 100 (codes 112H 113H "));
	assert_non_null(strstr(d, " +"));	/* more codes than fit: the rest counted */
	assert_non_null(strstr(d, ", table pnc)"));
	fill(&a, dmr, 0x118, 30, 0x108, 70);
	assert_int_equal(verdict(&a, dmr, PV_X_REMOTE, d), PV_FAIL);
	fill(&a, arw, 0x118, 70, 0x108, 30);
	assert_int_equal(verdict(&a, arw, PV_X_REMOTE, d), PV_PASS);
	/* whole names only: "08H 09H" fits 10 bytes, " 0BH" does not */
	assert_int_equal(pv_xsrc_codes(model(0x2A, PEBS_CORE_ANY), PV_X_REMOTE, names,
				       sizeof(names)), 4);
	assert_string_equal(names, "08H 09H");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_codes_from_tables),
		cmocka_unit_test(test_both_ways),
		cmocka_unit_test(test_no_code_skips),
		cmocka_unit_test(test_lnc_and_omr),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
