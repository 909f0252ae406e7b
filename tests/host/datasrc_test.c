/*
 * datasrc_test.c: golden tests for every code of every data-source table (docs/hardware.md §5.2
 * Table A, §5.3 patches, §5.4 Table B; SDM table 18-24), each through the models that
 * use it. Expectations are written out here from the reference, not derived from
 * pebs/datasrc_tables.c, so a wrong table row fails. Bit layouts, stores, the model table and
 * names: datasrc_layout_test.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "pebs/datasrc.h"

/* level/snoop as the CLI prints them; "RSV" = reserved (level NA + reserved flag). */
struct gold {
	unsigned code;
	const char *level, *snoop;
	char hit, remote;	/* 'y' 'n' '?' */
};

static uint8_t tri(char c)
{
	return c == 'y' ? PEBS_YES : c == 'n' ? PEBS_NO : PEBS_UNKNOWN;
}

static const struct pebs_model *model(unsigned fam, unsigned mod, enum pebs_core core)
{
	const struct pebs_model *m = pebs_model_lookup(fam, mod, core);

	assert_non_null(m);
	return m;
}

static void check_row(const struct pebs_model *m, const struct gold *g, uint64_t aux)
{
	struct pebs_dsrc d;
	char ctx[96];

	pebs_dsrc_decode(m, PEBS_EV_LOAD, aux, &d);
	snprintf(ctx, sizeof(ctx), "%s code 0x%02x aux 0x%llx", m->name, g->code,
		 (unsigned long long)aux);
	if (strcmp(g->level, "RSV") == 0) {
		if (!d.reserved)
			fail_msg("%s: expected reserved, got %s", ctx, pebs_level_id(d.level));
		assert_string_equal(pebs_level_id(d.level), "NA");
		assert_string_equal(pebs_snoop_id(d.snoop), "NA");
		assert_int_equal(d.hit, PEBS_UNKNOWN);
		assert_int_equal(d.remote, PEBS_UNKNOWN);
		assert_string_equal(pebs_dsrc_level_name(&d), "unknown");
		return;
	}
	if (d.reserved || strcmp(pebs_level_id(d.level), g->level) ||
	    strcmp(pebs_snoop_id(d.snoop), g->snoop) || d.hit != tri(g->hit) ||
	    d.remote != tri(g->remote))
		fail_msg("%s: want %s/%s/%c/%c got %s/%s/%d/%d rsv %d", ctx, g->level, g->snoop,
			 g->hit, g->remote, pebs_level_id(d.level), pebs_snoop_id(d.snoop), d.hit,
			 d.remote, d.reserved);
	assert_int_equal(d.code, g->code);
}

static void check_table(const struct pebs_model *m, const struct gold *g, size_t n,
			unsigned ncodes)
{
	assert_int_equal(n, ncodes);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(g[i].code, i);
		check_row(m, &g[i], g[i].code);
	}
}

#define CHECK_TABLE(m, g, ncodes) check_table(m, g, sizeof(g) / sizeof(g[0]), ncodes)

/* SDM table 18-24 for NHM/WSM. 07: 06_2E only. 09 reserved. */
static const struct gold nhm_gold[] = {
	{ 0x0, "L3", "NA", 'n', '?' },	{ 0x1, "L1", "NONE", 'y', 'n' },
	{ 0x2, "LFB", "NONE", 'y', 'n' },	{ 0x3, "L2", "NONE", 'y', 'n' },
	{ 0x4, "L3", "NONE", 'y', 'n' },	{ 0x5, "L3", "HIT", 'y', 'n' },
	{ 0x6, "L3", "HITM", 'y', 'n' },	{ 0x7, "RSV", 0, 0, 0 },
	{ 0x8, "L3", "HIT", 'y', 'y' },	{ 0x9, "RSV", 0, 0, 0 },
	{ 0xA, "RAM", "HIT", 'y', 'n' },	{ 0xB, "RAM", "HIT", 'y', 'y' },
	{ 0xC, "RAM", "MISS", 'y', 'n' },	{ 0xD, "RAM", "MISS", 'y', 'y' },
	{ 0xE, "IO", "NONE", 'y', '?' },	{ 0xF, "UNCACHED", "NONE", 'y', '?' },
};

/* Table A (§5.2) as Linux has it, except 0B level RAM (deliberate, see datasrc_tables.c). */
static const struct gold snb_gold[] = {
	{ 0x0, "L3", "NA", 'n', '?' },	{ 0x1, "L1", "NONE", 'y', 'n' },
	{ 0x2, "LFB", "NONE", 'y', 'n' },	{ 0x3, "L2", "NONE", 'y', 'n' },
	{ 0x4, "L3", "NONE", 'y', 'n' },	{ 0x5, "L3", "MISS", 'y', 'n' },
	{ 0x6, "L3", "HIT", 'y', 'n' },	{ 0x7, "L3", "HITM", 'y', 'n' },
	{ 0x8, "L3", "HIT", 'y', 'y' },	{ 0x9, "L3", "HITM", 'y', 'y' },
	{ 0xA, "RAM", "HIT", 'y', 'n' },	{ 0xB, "RAM", "HIT", 'y', 'y' },
	{ 0xC, "RAM", "MISS", 'y', 'n' },	{ 0xD, "RAM", "MISS", 'y', 'y' },
	{ 0xE, "IO", "NONE", 'y', '?' },	{ 0xF, "UNCACHED", "NONE", 'y', '?' },
};

/* Table A + _skl(pmem=false) (§5.3). */
static const struct gold skl_gold[] = {
	{ 0x0, "L3", "NA", 'n', '?' },	{ 0x1, "L1", "NONE", 'y', 'n' },
	{ 0x2, "LFB", "NONE", 'y', 'n' },	{ 0x3, "L2", "NONE", 'y', 'n' },
	{ 0x4, "L3", "NONE", 'y', 'n' },	{ 0x5, "L3", "MISS", 'y', 'n' },
	{ 0x6, "L3", "HIT", 'y', 'n' },	{ 0x7, "L3", "HITM", 'y', 'n' },
	{ 0x8, "L4", "HIT", 'y', 'n' },	{ 0x9, "L4", "HIT", 'y', 'y' },
	{ 0xA, "RAM", "HIT", 'y', 'n' },	{ 0xB, "RAM", "NONE", 'y', 'y' },
	{ 0xC, "ANY_CACHE", "FWD", 'y', 'y' }, { 0xD, "ANY_CACHE", "HITM", 'y', 'y' },
	{ 0xE, "IO", "NONE", 'y', '?' },	{ 0xF, "UNCACHED", "NONE", 'y', '?' },
};

/* Table A + _skl(pmem=true) (§5.3). */
static const struct gold skx_gold[] = {
	{ 0x0, "L3", "NA", 'n', '?' },	{ 0x1, "L1", "NONE", 'y', 'n' },
	{ 0x2, "LFB", "NONE", 'y', 'n' },	{ 0x3, "L2", "NONE", 'y', 'n' },
	{ 0x4, "L3", "NONE", 'y', 'n' },	{ 0x5, "L3", "MISS", 'y', 'n' },
	{ 0x6, "L3", "HIT", 'y', 'n' },	{ 0x7, "L3", "HITM", 'y', 'n' },
	{ 0x8, "PMEM", "HIT", 'y', 'n' },	{ 0x9, "PMEM", "HIT", 'y', 'y' },
	{ 0xA, "RAM", "HIT", 'y', 'n' },	{ 0xB, "RAM", "NONE", 'y', 'y' },
	{ 0xC, "ANY_CACHE", "FWD", 'y', 'y' }, { 0xD, "ANY_CACHE", "HITM", 'y', 'y' },
	{ 0xE, "IO", "NONE", 'y', '?' },	{ 0xF, "UNCACHED", "NONE", 'y', '?' },
};

/* Table A + _grt (§5.3). */
static const struct gold grt_gold[] = {
	{ 0x0, "L3", "NA", 'n', '?' },	{ 0x1, "L1", "NONE", 'y', 'n' },
	{ 0x2, "LFB", "NONE", 'y', 'n' },	{ 0x3, "L2", "NONE", 'y', 'n' },
	{ 0x4, "L3", "NONE", 'y', 'n' },	{ 0x5, "L3", "HIT", 'y', 'n' },
	{ 0x6, "L3", "HITM", 'y', 'n' },	{ 0x7, "L3", "HITM", 'y', 'n' },
	{ 0x8, "L3", "FWD", 'y', 'n' },	{ 0x9, "L3", "HITM", 'y', 'y' },
	{ 0xA, "RAM", "HIT", 'y', 'n' },	{ 0xB, "RAM", "HIT", 'y', 'y' },
	{ 0xC, "RAM", "MISS", 'y', 'n' },	{ 0xD, "RAM", "MISS", 'y', 'y' },
	{ 0xE, "IO", "NONE", 'y', '?' },	{ 0xF, "UNCACHED", "NONE", 'y', '?' },
};

/* Table A + _cmt (§5.3); 5-bit field, 0x10-0x1F reserved. */
static const struct gold cmt_gold[] = {
	{ 0x0, "L3", "NA", 'n', '?' },	{ 0x1, "L1", "NONE", 'y', 'n' },
	{ 0x2, "LFB", "NONE", 'y', 'n' },	{ 0x3, "L2", "NONE", 'y', 'n' },
	{ 0x4, "L3", "NONE", 'y', 'n' },	{ 0x5, "L3", "MISS", 'y', 'n' },
	{ 0x6, "L3", "HIT", 'y', 'n' },	{ 0x7, "L3", "FWD", 'y', 'n' },
	{ 0x8, "L3", "HITM", 'y', 'n' },	{ 0x9, "L3", "HITM", 'y', 'y' },
	{ 0xA, "RAM", "NONE", 'y', 'n' },	{ 0xB, "RAM", "NONE", 'y', 'y' },
	{ 0xC, "RAM", "FWD", 'y', 'y' },	{ 0xD, "RAM", "HITM", 'y', 'y' },
	{ 0xE, "IO", "NONE", 'y', '?' },	{ 0xF, "UNCACHED", "NONE", 'y', '?' },
};

/* Table B (§5.4); 0x12-0xFF reserved. */
static const struct gold lnc_gold[] = {
	{ 0x00, "L3", "NA", 'n', '?' },	{ 0x01, "L1", "NONE", 'y', 'n' },
	{ 0x02, "L1", "NONE", 'y', 'n' },	{ 0x03, "LFB", "NONE", 'y', 'n' },
	{ 0x04, "RSV", 0, 0, 0 },	{ 0x05, "L2", "NONE", 'y', 'n' },
	{ 0x06, "L2_MHB", "NONE", 'y', 'n' }, { 0x07, "RSV", 0, 0, 0 },
	{ 0x08, "L3", "NONE", 'y', 'n' },	{ 0x09, "RSV", 0, 0, 0 },
	{ 0x0A, "RSV", 0, 0, 0 },	{ 0x0B, "RSV", 0, 0, 0 },
	{ 0x0C, "L3", "FWD", 'y', 'n' },	{ 0x0D, "L3", "HITM", 'y', 'n' },
	{ 0x0E, "RSV", 0, 0, 0 },	{ 0x0F, "L3", "HITM", 'n', 'n' },
	{ 0x10, "MSC", "NONE", 'y', 'n' },	{ 0x11, "RAM", "NONE", 'y', 'n' },
};

static const struct gold rsv = { 0, "RSV", 0, 0, 0 };

static void test_nhm_table(void **state)
{
	(void)state;
	CHECK_TABLE(model(6, 0x1A, PEBS_CORE_ANY), nhm_gold, 16);
	CHECK_TABLE(model(6, 0x2F, PEBS_CORE_ANY), nhm_gold, 16);
	/* code 07 is LLC snoop HitM on 06_2E only (SDM table 18-24, note 1) */
	struct gold g7 = { 0x7, "L3", "HITM", 'y', 'n' };

	check_row(model(6, 0x2E, PEBS_CORE_ANY), &g7, 7);
}

static void test_snb_table(void **state)
{
	(void)state;
	CHECK_TABLE(model(6, 0x2A, PEBS_CORE_ANY), snb_gold, 16);
	CHECK_TABLE(model(6, 0x3C, PEBS_CORE_ANY), snb_gold, 16);
	CHECK_TABLE(model(6, 0x4F, PEBS_CORE_ANY), snb_gold, 16);
}

static void test_skl_tables(void **state)
{
	(void)state;
	CHECK_TABLE(model(6, 0x5E, PEBS_CORE_ANY), skl_gold, 16);
	CHECK_TABLE(model(6, 0x7E, PEBS_CORE_ANY), skl_gold, 16);
	CHECK_TABLE(model(6, 0x97, PEBS_CORE_P), skl_gold, 16);
	CHECK_TABLE(model(6, 0xAA, PEBS_CORE_P), skl_gold, 16);
	CHECK_TABLE(model(6, 0x55, PEBS_CORE_ANY), skx_gold, 16);
	CHECK_TABLE(model(6, 0x8F, PEBS_CORE_ANY), skx_gold, 16);
	CHECK_TABLE(model(6, 0xAD, PEBS_CORE_ANY), skx_gold, 16);
}

static void test_atom_tables(void **state)
{
	(void)state;
	CHECK_TABLE(model(6, 0xBE, PEBS_CORE_ANY), grt_gold, 16);
	CHECK_TABLE(model(6, 0x97, PEBS_CORE_E), grt_gold, 16);
	CHECK_TABLE(model(6, 0xAF, PEBS_CORE_ANY), cmt_gold, 16);
	CHECK_TABLE(model(6, 0xAA, PEBS_CORE_E), cmt_gold, 16);
	CHECK_TABLE(model(6, 0xBD, PEBS_CORE_E), cmt_gold, 16);
	/* Crestmont source field is 5 bits: 0x10-0x1F are not in any table -> reserved */
	for (unsigned c = 0x10; c < 0x20; c++)
		check_row(model(6, 0xAF, PEBS_CORE_ANY), &rsv, c);
}

static void test_lnc_table(void **state)
{
	(void)state;
	CHECK_TABLE(model(6, 0xBD, PEBS_CORE_P), lnc_gold, 0x12);
	CHECK_TABLE(model(6, 0xC5, PEBS_CORE_P), lnc_gold, 0x12);
	for (unsigned c = 0x12; c < 0x100; c++)
		check_row(model(6, 0xBD, PEBS_CORE_P), &rsv, c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nhm_table),   cmocka_unit_test(test_snb_table),
		cmocka_unit_test(test_skl_tables),  cmocka_unit_test(test_atom_tables),
		cmocka_unit_test(test_lnc_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
