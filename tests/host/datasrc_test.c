/*
 * datasrc_test.c: golden tests for every code of every data-source table (pebs-facts.md §5.2
 * Table A, §5.3 patches, §5.4 Table B; SDM table 18-24 seed S2), both sides of every
 * STLB/lock/blocked bit per layout (§5.1), store decoding, the model table (§4.1, §9) and the
 * perf-style names (§5.6). Expectations are written out here from the reference, not derived
 * from pebs/datasrc_tables.c, so a wrong table row fails.
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

/* SDM table 18-24 (S2) for NHM/WSM. 07: 06_2E only. 09 reserved. */
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
	/* code 07 is LLC snoop HitM on 06_2E only (S2 note 1) */
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

struct bits {
	unsigned fam, mod;
	enum pebs_core core;
	int stlb, lock, dblk, ablk;	/* bit number, -1 = not in this layout (unknown) */
	unsigned code_mask;
};

/* §5.1 bit layouts. */
static const struct bits layouts[] = {
	{ 6, 0x1A, PEBS_CORE_ANY, -1, -1, -1, -1, 0xf },	/* NHM: no TLB/lock */
	{ 6, 0x2A, PEBS_CORE_ANY, 4, 5, -1, -1, 0xf },		/* SNB ld_* */
	{ 6, 0x5E, PEBS_CORE_ANY, 4, 5, -1, -1, 0xf },		/* SKL ld_* */
	{ 6, 0x8F, PEBS_CORE_ANY, 4, 5, 6, 7, 0xf },		/* GLC ld_* + blocked */
	{ 6, 0x97, PEBS_CORE_P, 4, 5, 6, 7, 0xf },		/* ADL P */
	{ 6, 0x97, PEBS_CORE_E, 5, 4, 6, -1, 0xf },		/* GRT: 4 locked, 5 STLB */
	{ 6, 0xAF, PEBS_CORE_ANY, 6, 5, 7, -1, 0x1f },		/* CMT */
	{ 6, 0xBD, PEBS_CORE_P, 10, 11, 12, 13, 0xff },		/* LNC */
};

static void expect_bit(const char *what, int bitno, uint8_t got, uint64_t aux)
{
	uint8_t want = bitno < 0 ? PEBS_UNKNOWN : ((aux >> bitno) & 1) ? PEBS_YES : PEBS_NO;

	if (got != want)
		fail_msg("%s: aux 0x%llx want %d got %d", what, (unsigned long long)aux, want, got);
}

static void test_bit_layouts(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
		const struct bits *b = &layouts[i];
		const struct pebs_model *m = model(b->fam, b->mod, b->core);
		int bitsv[4] = { b->stlb, b->lock, b->dblk, b->ablk };

		/* every flag alone, both sides, with a code that must survive the flags */
		for (unsigned k = 0; k < 4; k++) {
			for (unsigned side = 0; side < 2; side++) {
				uint64_t aux = 0x1;
				struct pebs_dsrc d;

				if (side && bitsv[k] >= 0)
					aux |= 1ull << bitsv[k];
				pebs_dsrc_decode(m, PEBS_EV_LOAD, aux, &d);
				assert_int_equal(d.code, 1);
				assert_string_equal(pebs_level_id(d.level), "L1");
				expect_bit("stlb", b->stlb, d.stlb_miss, aux);
				expect_bit("lock", b->lock, d.locked, aux);
				expect_bit("dblk", b->dblk, d.data_blocked, aux);
				expect_bit("ablk", b->ablk, d.addr_blocked, aux);
			}
		}
		/* all flags and all upper bits set: code still the masked field */
		struct pebs_dsrc d;

		pebs_dsrc_decode(m, PEBS_EV_LOAD, (~(uint64_t)b->code_mask | 1), &d);
		assert_int_equal(d.code, 1);
		assert_int_equal(d.raw, (~(uint64_t)b->code_mask | 1));
	}
}

static void test_stores(void **state)
{
	struct pebs_dsrc d;

	(void)state;
	/* SNB/IVB precise store: 0 L1 hit, 4 STLB miss, 5 locked (§5.1) */
	pebs_dsrc_decode(model(6, 0x3A, PEBS_CORE_ANY), PEBS_EV_STORE, 0x01, &d);
	assert_string_equal(pebs_dsrc_level_name(&d), "L1 hit");
	assert_int_equal(d.stlb_miss, PEBS_NO);
	assert_int_equal(d.locked, PEBS_NO);
	pebs_dsrc_decode(model(6, 0x2A, PEBS_CORE_ANY), PEBS_EV_STORE, 0x30, &d);
	assert_string_equal(pebs_dsrc_level_name(&d), "L1 miss");
	assert_int_equal(d.hit, PEBS_NO);
	assert_int_equal(d.stlb_miss, PEBS_YES);
	assert_int_equal(d.locked, PEBS_YES);
	/* HSW..ICL DataLA: only bit 0 (§5.1) */
	pebs_dsrc_decode(model(6, 0x3C, PEBS_CORE_ANY), PEBS_EV_STORE, 0x31, &d);
	assert_string_equal(pebs_dsrc_level_name(&d), "L1 hit");
	assert_int_equal(d.stlb_miss, PEBS_UNKNOWN);
	assert_int_equal(d.locked, PEBS_UNKNOWN);
	pebs_dsrc_decode(model(6, 0x7E, PEBS_CORE_ANY), PEBS_EV_STORE, 0x00, &d);
	assert_string_equal(pebs_dsrc_level_name(&d), "L1 miss");
	/* NHM store events carry no status */
	pebs_dsrc_decode(model(6, 0x1E, PEBS_CORE_ANY), PEBS_EV_STORE, 0x01, &d);
	assert_string_equal(pebs_level_id(d.level), "NA");
	assert_int_equal(d.hit, PEBS_UNKNOWN);
	/* GLC store latency: same table and 4/5 bits, no blocked bits (§5.1 st_lat_*) */
	pebs_dsrc_decode(model(6, 0x8F, PEBS_CORE_ANY), PEBS_EV_STORE, 0xD3, &d);
	assert_string_equal(pebs_level_id(d.level), "L2");
	assert_int_equal(d.stlb_miss, PEBS_YES);
	assert_int_equal(d.locked, PEBS_NO);
	assert_int_equal(d.data_blocked, PEBS_UNKNOWN);
	/* no model: everything unknown */
	pebs_dsrc_decode(NULL, PEBS_EV_LOAD, 0x1, &d);
	assert_string_equal(pebs_level_id(d.level), "NA");
	assert_int_equal(d.stlb_miss, PEBS_UNKNOWN);
}

static void test_models(void **state)
{
	static const struct {
		unsigned fam, mod, fmt;
	} fmts[] = {	/* §4.1 */
		{ 6, 0x17, 0 }, { 6, 0x1A, 1 }, { 6, 0x2C, 1 }, { 6, 0x2D, 1 }, { 6, 0x3E, 1 },
		{ 6, 0x3F, 2 }, { 6, 0x56, 2 }, { 6, 0x4E, 3 }, { 6, 0x55, 3 }, { 6, 0xA6, 3 },
		{ 6, 0x86, 4 }, { 6, 0x7D, 4 }, { 6, 0x6A, 4 }, { 6, 0xBD, 6 }, { 6, 0xC6, 6 },
		{ 6, 0xC5, 6 }, { 6, 0xCC, 0xF }, { 0x13, 0x01, 0xF },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++)
		assert_int_equal(model(fmts[i].fam, fmts[i].mod, PEBS_CORE_ANY)->format,
				 fmts[i].fmt);
	assert_null(pebs_model_lookup(6, 0x99, PEBS_CORE_ANY));
	assert_null(pebs_model_lookup(7, 0x2A, PEBS_CORE_ANY));
	assert_null(pebs_model_lookup(6, 0x3C, PEBS_CORE_E));
	assert_null(pebs_model_lookup(6, 0xAF, PEBS_CORE_P));
	assert_true(pebs_model_is_hybrid(6, 0x97));
	assert_true(pebs_model_is_hybrid(6, 0xBD));
	assert_false(pebs_model_is_hybrid(6, 0x3C));
	assert_false(pebs_model_is_hybrid(6, 0xBE));
	/* default core on hybrid = P */
	assert_int_equal(model(6, 0xBD, PEBS_CORE_ANY)->core, PEBS_CORE_P);
	/* split latency word: Golden Cove / Gracemont and later (§4.3) */
	assert_true(model(6, 0x8F, PEBS_CORE_ANY)->split_latency);
	assert_true(model(6, 0x97, PEBS_CORE_E)->split_latency);
	assert_false(model(6, 0x7E, PEBS_CORE_ANY)->split_latency);
	assert_false(model(6, 0x6A, PEBS_CORE_ANY)->split_latency);
	/* every row is unique per (family, model, core) and reachable by lookup */
	for (unsigned i = 0; pebs_model_at(i); i++) {
		const struct pebs_model *m = pebs_model_at(i);

		assert_ptr_equal(pebs_model_lookup(m->family, m->model, m->core), m);
		assert_true(m->table < PEBS_DS_TABLE_COUNT);
	}
}

static void test_names(void **state)
{
	static const struct {
		unsigned fam, mod;
		uint64_t aux;
		const char *name;
	} names[] = {
		{ 6, 0x3C, 0x01, "L1 hit" },	{ 6, 0x3C, 0x02, "LFB/MAB hit" },
		{ 6, 0x3C, 0x03, "L2 hit" },	{ 6, 0x3C, 0x04, "L3 hit" },
		{ 6, 0x3C, 0x00, "L3 miss" },	{ 6, 0x3C, 0x0A, "Local RAM hit" },
		{ 6, 0x3C, 0x0D, "Remote RAM hit" }, { 6, 0x3C, 0x08, "Remote cache hit" },
		{ 6, 0x55, 0x08, "PMEM" },	{ 6, 0x3C, 0x0E, "I/O" },
		{ 6, 0x3C, 0x0F, "Uncached" },	{ 6, 0x5E, 0x08, "L4 hit" },
		{ 6, 0x5E, 0x0C, "Remote Any cache hit" }, { 6, 0x1A, 0x09, "unknown" },
		{ 6, 0xBD, 0x06, "L2 MHB hit" },	{ 6, 0xBD, 0x10, "Memory-side Cache hit" },
		{ 6, 0xBD, 0x0F, "L3 miss" },
	};
	struct pebs_dsrc d;

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		pebs_dsrc_decode(model(names[i].fam, names[i].mod, PEBS_CORE_ANY), PEBS_EV_LOAD,
				 names[i].aux, &d);
		assert_string_equal(pebs_dsrc_level_name(&d), names[i].name);
	}
	assert_string_equal(pebs_snoop_name(PEBS_SNOOP_NONE), "None");
	assert_string_equal(pebs_snoop_name(PEBS_SNOOP_HIT), "Hit");
	assert_string_equal(pebs_snoop_name(PEBS_SNOOP_MISS), "Miss");
	assert_string_equal(pebs_snoop_name(PEBS_SNOOP_HITM), "HitM");
	assert_string_equal(pebs_snoop_name(PEBS_SNOOP_FWD), "Fwd");
	assert_string_equal(pebs_snoop_id(99), "NA");
	assert_string_equal(pebs_level_id(99), "NA");
	assert_string_equal(pebs_level_id(PEBS_LVL_ANY_CACHE), "ANY_CACHE");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nhm_table),   cmocka_unit_test(test_snb_table),
		cmocka_unit_test(test_skl_tables),  cmocka_unit_test(test_atom_tables),
		cmocka_unit_test(test_lnc_table),   cmocka_unit_test(test_bit_layouts),
		cmocka_unit_test(test_stores),      cmocka_unit_test(test_models),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
