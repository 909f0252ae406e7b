/*
 * datasrc_pantherc_test.c: golden decodes of the Panther Cove data-source word (Diamond
 * Rapids, family 19 model 01), written out from Linux ds.c pnc_pebs_l2_hit_data_source[],
 * omr_data_source[] and parse_omr_data_source() (tip d2bdcde9626c) and docs/arch-pebs.md
 * ("Panther Cove data source"), not from pebs/datasrc_pantherc.c: every L2-hit code, every
 * OMR source with its remote/HitM/snoop bits, the STLB/lock/blocked bits, and the choices
 * where we differ from Linux (codes above 0x0F reserved; source 02's snoop pair). OMR
 * sources 07-0F (MMIO, memory) carry no snoop result: Linux e7fcc54524f0 "Fix OMR snoop
 * information parsing issues" gives them SNOOP_NONE. Nova Lake (tip 7cd264d1972d): the
 * Coyote Cove P-core decodes as Panther Cove; the Arctic Wolf E-core has its own L2-hit table
 * (arw_pebs_l2_hit_data_source[]) and the same OMR codes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "pebs/datasrc.h"

struct gold {
	uint64_t aux;
	const char *level, *snoop;	/* CLI ids; "RSV": reserved code */
	char hit, remote;		/* 'y' 'n' '?' */
};

static uint8_t tri(char c)
{
	return c == 'y' ? PEBS_YES : c == 'n' ? PEBS_NO : PEBS_UNKNOWN;
}

static const struct gold golden[] = {
	/* bit 8 clear: L2-hit codes */
	{ 0x000, "NA", "NA", '?', '?' },	/* not a cacheable access */
	{ 0x001, "L0", "NONE", 'y', 'n' },
	{ 0x002, "L1", "NONE", 'y', 'n' },
	{ 0x003, "LFB", "NONE", 'y', 'n' },
	{ 0x004, "L2", "NONE", 'y', 'n' },
	{ 0x005, "RSV", NULL, '?', '?' },
	{ 0x006, "RSV", NULL, '?', '?' },
	{ 0x007, "L2", "HIT", 'y', 'n' },
	{ 0x008, "L2", "HITM", 'y', 'n' },
	{ 0x009, "L2", "MISS", 'y', 'n' },	/* prefetch promotion */
	{ 0x00a, "L2", "MISS", 'y', 'n' },	/* cross-core prefetch promotion */
	{ 0x00b, "RSV", NULL, '?', '?' },
	{ 0x00e, "RSV", NULL, '?', '?' },
	{ 0x00f, "UNCACHED", "NONE", 'y', 'n' },
	{ 0x012, "RSV", NULL, '?', '?' },	/* Linux: & 0xf -> L1; we: reserved */
	{ 0x0ff, "RSV", NULL, '?', '?' },
	/* bit 8 set: OMR; bits 3:0 source, 4 remote, 5 HitM, 6 snoop, 7 promoted */
	{ 0x100, "NA", "NA", '?', '?' },	/* invalid */
	{ 0x101, "RSV", NULL, '?', '?' },
	{ 0x102, "L3", "NA", 'y', 'n' },	/* local shared cache, pair 00 */
	{ 0x142, "L3", "MISS", 'y', 'n' },	/* pair 01 */
	{ 0x182, "L3", "HIT", 'y', 'n' },	/* pair 10 */
	{ 0x1c2, "L3", "NONE", 'y', 'n' },	/* pair 11 */
	{ 0x112, "L3", "NA", 'y', 'y' },	/* remote */
	{ 0x103, "L3", "HIT", 'y', 'n' },	/* local non-shared cache */
	{ 0x123, "L3", "HITM", 'y', 'n' },
	{ 0x143, "L3", "FWD", 'y', 'n' },
	{ 0x104, "L3", "HIT", 'y', 'n' },	/* other CA I/O agent */
	{ 0x115, "L3", "HIT", 'y', 'y' },	/* other CA shared cache, remote */
	{ 0x166, "L3", "HITM", 'y', 'n' },	/* HitM wins over Fwd */
	{ 0x107, "RAM", "NONE", 'y', 'n' },	/* MMIO: no snoop (e7fcc54524f0) */
	{ 0x108, "RAM", "NONE", 'y', 'n' },	/* memory region 0 */
	{ 0x118, "RAM", "NONE", 'y', 'y' },	/* remote memory region 0 */
	{ 0x12f, "RAM", "NONE", 'y', 'n' },	/* region 7: the HitM bit means nothing */
	{ 0x14f, "RAM", "NONE", 'y', 'n' },	/* nor does the snoop bit */
};

/* Arctic Wolf: arw_pebs_l2_hit_data_source[] (tip 7cd264d1972d); OMR as Panther Cove. */
static const struct gold arw_golden[] = {
	{ 0x000, "NA", "NA", '?', '?' },	/* not a cacheable access */
	{ 0x001, "L1", "NONE", 'y', 'n' },
	{ 0x002, "LFB", "NONE", 'y', 'n' },	/* write-combining buffer */
	{ 0x003, "L2", "NONE", 'y', 'n' },	/* L2 hit clean */
	{ 0x004, "L2", "HIT", 'y', 'n' },
	{ 0x005, "L2", "HITM", 'y', 'n' },
	{ 0x006, "UNCACHED", "NONE", 'y', 'n' },
	{ 0x007, "RSV", NULL, '?', '?' },
	{ 0x008, "RSV", NULL, '?', '?' },	/* PNC: L2 HitM */
	{ 0x00a, "RSV", NULL, '?', '?' },
	{ 0x00f, "RSV", NULL, '?', '?' },	/* PNC: uncached */
	{ 0x012, "RSV", NULL, '?', '?' },
	{ 0x100, "NA", "NA", '?', '?' },
	{ 0x1c2, "L3", "NONE", 'y', 'n' },	/* OMR source 02, pair 11 */
	{ 0x143, "L3", "FWD", 'y', 'n' },
	{ 0x115, "L3", "HIT", 'y', 'y' },
	{ 0x118, "RAM", "NONE", 'y', 'y' },
};

static void check(const struct pebs_model *m, const struct gold *g, unsigned n)
{
	for (unsigned i = 0; i < n; i++, g++) {
		struct pebs_dsrc d;

		pebs_dsrc_decode(m, PEBS_EV_LOAD, g->aux, &d);
		assert_true(d.has_level && d.has_snoop);
		if (!strcmp(g->level, "RSV")) {
			if (!d.reserved)
				fail_msg("%s aux 0x%03llx: decoded, expected reserved", m->name,
					 (unsigned long long)g->aux);
			assert_string_equal(pebs_level_id(d.level), "NA");
		} else {
			if (d.reserved || strcmp(pebs_level_id(d.level), g->level) ||
			    strcmp(pebs_snoop_id(d.snoop), g->snoop))
				fail_msg("%s aux 0x%03llx: %s/%s%s, expected %s/%s", m->name,
					 (unsigned long long)g->aux, pebs_level_id(d.level),
					 pebs_snoop_id(d.snoop), d.reserved ? " (reserved)" : "",
					 g->level, g->snoop);
		}
		assert_int_equal(d.hit, tri(g->hit));
		assert_int_equal(d.remote, tri(g->remote));
		assert_int_equal(d.stlb_miss, PEBS_NO);
		assert_int_equal(d.locked, PEBS_NO);
	}
}

static const struct pebs_model *dmr(void)
{
	const struct pebs_model *m = pebs_model_lookup(0x13, 0x01, PEBS_CORE_ANY);

	assert_non_null(m);
	assert_int_equal(m->table, PEBS_DS_PNC);
	assert_int_equal(m->format, 0xF);
	assert_string_equal(pebs_ds_table_name(m->table), "pnc");
	return m;
}

static void test_golden(void **state)
{
	const struct pebs_model *m = dmr();

	(void)state;
	check(m, golden, sizeof(golden) / sizeof(golden[0]));
}

/* Nova Lake 12_01/12_03: Coyote Cove = Panther Cove's table; Arctic Wolf its own, same bits. */
static void test_nova_lake(void **state)
{
	(void)state;
	for (unsigned mod = 1; mod <= 3; mod += 2) {
		const struct pebs_model *p = pebs_model_lookup(0x12, mod, PEBS_CORE_P);
		const struct pebs_model *e = pebs_model_lookup(0x12, mod, PEBS_CORE_E);
		struct pebs_dsrc d;

		assert_non_null(p);
		assert_non_null(e);
		assert_int_equal(p->table, PEBS_DS_PNC);
		assert_int_equal(e->table, PEBS_DS_ARW);
		assert_string_equal(pebs_ds_table_name(e->table), "arw");
		check(p, golden, sizeof(golden) / sizeof(golden[0]));
		check(e, arw_golden, sizeof(arw_golden) / sizeof(arw_golden[0]));
		/* the audit's word: L2 HitM, STLB miss, locked on the P-core */
		pebs_dsrc_decode(p, PEBS_EV_LOAD, 0x1c08, &d);
		assert_string_equal(pebs_level_id(d.level), "L2");
		assert_string_equal(pebs_snoop_id(d.snoop), "HITM");
		assert_int_equal(d.stlb_miss, PEBS_YES);
		assert_int_equal(d.locked, PEBS_YES);
		/* the E-core: the same word is reserved (08), its bits still read */
		pebs_dsrc_decode(e, PEBS_EV_LOAD, 0x7805, &d);
		assert_string_equal(pebs_level_id(d.level), "L2");
		assert_string_equal(pebs_snoop_id(d.snoop), "HITM");
		assert_int_equal(d.stlb_miss, PEBS_YES);
		assert_int_equal(d.locked, PEBS_YES);
		assert_int_equal(d.data_blocked, PEBS_YES);
		assert_int_equal(d.addr_blocked, PEBS_YES);
		/* direction comes from the event, not the table (Linux 335b0642812e) */
		pebs_dsrc_decode(e, PEBS_EV_STORE, 0x7805, &d);
		assert_int_equal(d.data_blocked, PEBS_UNKNOWN);
		assert_string_equal(pebs_level_id(d.level), "L2");
	}
}

static void test_bits(void **state)
{
	const struct pebs_model *m = dmr();
	struct pebs_dsrc d;

	(void)state;
	pebs_dsrc_decode(m, PEBS_EV_LOAD, 0x0804, &d);	/* 11: STLB miss */
	assert_int_equal(d.stlb_miss, PEBS_YES);
	assert_int_equal(d.locked, PEBS_NO);
	pebs_dsrc_decode(m, PEBS_EV_LOAD, 0x1002, &d);	/* 12: locked */
	assert_int_equal(d.locked, PEBS_YES);
	assert_int_equal(d.stlb_miss, PEBS_NO);
	pebs_dsrc_decode(m, PEBS_EV_LOAD, 0x0604, &d);	/* 9/10: STLB hits are not misses */
	assert_int_equal(d.stlb_miss, PEBS_NO);
	pebs_dsrc_decode(m, PEBS_EV_LOAD, 0x6004, &d);	/* 13/14 blocked */
	assert_int_equal(d.data_blocked, PEBS_YES);
	assert_int_equal(d.addr_blocked, PEBS_YES);
	pebs_dsrc_decode(m, PEBS_EV_STORE, 0x7802, &d);	/* store: same table, no blocked */
	assert_string_equal(pebs_level_id(d.level), "L1");
	assert_int_equal(d.stlb_miss, PEBS_YES);
	assert_int_equal(d.locked, PEBS_YES);
	assert_int_equal(d.data_blocked, PEBS_UNKNOWN);
	assert_string_equal(pebs_dsrc_level_name(&d), "L1 hit");
	pebs_dsrc_decode(m, PEBS_EV_LOAD, 0x001, &d);
	assert_string_equal(pebs_dsrc_level_name(&d), "L0 hit");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden),
		cmocka_unit_test(test_bits),
		cmocka_unit_test(test_nova_lake),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
