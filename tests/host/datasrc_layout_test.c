/*
 * datasrc_layout_test.c: the aux-word bit layouts per microarchitecture (docs/hardware.md §5.1:
 * both sides of every STLB/lock/blocked bit, code masking), store decoding (SNB/IVB precise
 * store, HSW+ DataLA, store latency), the model table (§4.1 formats, §9 models, hybrid core
 * types) and the perf-style names (§5.6). Expectations written from the reference.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "pebs/datasrc.h"

static const struct pebs_model *model(unsigned fam, unsigned mod, enum pebs_core core)
{
	const struct pebs_model *m = pebs_model_lookup(fam, mod, core);

	assert_non_null(m);
	return m;
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
	/* GRT/CMT/Darkmont store latency (0x6d0): the direction is the event the counter ran,
	 * never the aux word (Linux 89dc568e8c0b, e961d6db42d1, 8302c5f475fa fixed Linux taking
	 * it from the load table): the same word decodes as a load with its blocked bit and as a
	 * store without one */
	static const struct { unsigned mod; enum pebs_core core; uint64_t aux; } st[] = {
		{ 0x97, PEBS_CORE_E, 0x43 },	/* GRT: bit 6 data blocked */
		{ 0xAF, PEBS_CORE_ANY, 0x83 },	/* CMT: bit 7 fwd blocked */
		{ 0xCC, PEBS_CORE_E, 0x83 },	/* Darkmont (PTL E): the CMT layout */
	};
	for (unsigned i = 0; i < sizeof(st) / sizeof(st[0]); i++) {
		const struct pebs_model *m = model(6, st[i].mod, st[i].core);

		pebs_dsrc_decode(m, PEBS_EV_LOAD, st[i].aux, &d);
		assert_int_equal(d.data_blocked, PEBS_YES);
		assert_string_equal(pebs_level_id(d.level), "L2");
		pebs_dsrc_decode(m, PEBS_EV_STORE, st[i].aux, &d);
		assert_int_equal(d.data_blocked, PEBS_UNKNOWN);
		assert_string_equal(pebs_level_id(d.level), "L2");
	}
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
		cmocka_unit_test(test_bit_layouts), cmocka_unit_test(test_stores),
		cmocka_unit_test(test_models),      cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
