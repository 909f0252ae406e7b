/*
 * perf_dsrc_test.c: tools/perf_dsrc.c against Linux perf. For every combination of the fields
 * that decide a level (mem_lvl_num x mem_lvl x mem_remote x mem_hops: 4 M words) the test
 * builds the level string perf prints (tools/perf/util/mem-events.c perf_mem__lvl_scnprintf:
 * mem_lvl_num first when set and not N/A, "Remote " and the hop name before it, else the
 * mem_lvl bits joined by " or ", then " hit"/" miss"; tables mem_lvlnum[], mem_lvl[],
 * mem_hops[] written out below from that file), maps perf's level word to the kernel's table
 * name by hand, and requires the decoder's level to print that name. Every value of the
 * snoop, snoopx, lock, dTLB and blocked fields is checked against perf's meaning of it.
 * tests/scripts/loadbench.t checks the perf strings below against the installed perf binary.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "loads/kpebs_print.h"
#include "sample/agg_print.h"
#include "tools/perf_dsrc.h"

/* perf's mem_lvl[]: bit i of mem_lvl */
static const char *const perf_mem_lvl[14] = {
	"N/A", "HIT", "MISS", "L1", "LFB/MAB", "L2", "L3", "Local RAM", "Remote RAM (1 hop)",
	"Remote RAM (2 hops)", "Remote Cache (1 hop)", "Remote Cache (2 hops)", "I/O", "Uncached",
};
/* perf's mem_lvlnum[] (Linux 6.12, plus "L0" from perf's PERF_MEM_LVLNUM_L0 support); NULL:
 * perf prints "Unknown level %d" (older: "L%d") */
static const char *const perf_mem_lvlnum[16] = {
	[0x01] = "L1", [0x02] = "L2", [0x03] = "L3", [0x04] = "L4", [0x05] = "L2 MHB",
	[0x06] = "Memory-side Cache", [0x07] = "L0", [0x08] = "Uncached", [0x09] = "CXL", [0x0a] = "I/O",
	[0x0b] = "Any cache", [0x0c] = "LFB/MAB", [0x0d] = "RAM", [0x0e] = "PMEM", [0x0f] = "N/A",
};
/* perf's mem_hops[] */
static const char *const perf_mem_hops[8] = {
	"N/A", "core, same node", "node, same socket", "socket, same board", "board",
};

/* perf's level word -> the kernel's `lvl` table name (sample/agg_print.c), by hand. */
static const struct { const char *perf, *ours; } word_map[] = {
	{ "L1", "L1 hit" }, { "LFB/MAB", "LFB/MAB hit" }, { "L2", "L2 hit" },
	{ "L2 MHB", "L2 MHB hit" }, { "L3", "L3" }, { "L4", "L4 hit" },
	{ "Memory-side Cache", "Memory-side Cache hit" }, { "RAM", "RAM hit" },
	{ "Local RAM", "RAM hit" }, { "Remote RAM (1 hop)", "RAM hit" },
	{ "Remote RAM (2 hops)", "RAM hit" }, { "Remote Cache (1 hop)", "L3" },
	{ "Remote Cache (2 hops)", "L3" }, { "PMEM", "PMEM" }, { "CXL", "CXL" },
	{ "I/O", "I/O" }, { "Uncached", "Uncached" }, { "Any cache", "Any cache hit" },
	{ "L0", "L0 hit" }, { "N/A", "N/A" },
};

/* perf's level string for word v; *word receives the level word alone ("" for several). */
static void perf_lvl_string(uint64_t v, char *out, size_t n, const char **word)
{
	uint64_t num = perf_dsrc_field(v, PDS_LVL_NUM), lvl = perf_dsrc_field(v, PDS_LVL);
	uint64_t hops = perf_dsrc_field(v, PDS_HOPS);
	const char *hm = lvl & PDS_LVL_HIT ? "hit" : lvl & PDS_LVL_MISS ? "miss" : "";
	size_t o = 0;
	int printed = 0;

	out[0] = 0;
	if (num && num != PDS_LVLNUM_NA) {
		*word = perf_mem_lvlnum[num] ? perf_mem_lvlnum[num] : "";
		snprintf(out, n, "%s%s%s%s %s", perf_dsrc_field(v, PDS_REMOTE) ? "Remote " : "",
			 hops ? perf_mem_hops[hops] ? perf_mem_hops[hops] : "?" : "",
			 hops ? " " : "", perf_mem_lvlnum[num] ? perf_mem_lvlnum[num] : "L?", hm);
		return;
	}
	lvl &= ~(uint64_t)(PDS_LVL_NA | PDS_LVL_HIT | PDS_LVL_MISS);
	*word = "N/A";
	for (unsigned i = 0; lvl && i < 14; i++)
		if (lvl & (1ull << i)) {
			o += (size_t)snprintf(out + o, n - o, "%s%s", printed++ ? " or " : "",
					      perf_mem_lvl[i]);
			*word = printed > 1 ? "" : perf_mem_lvl[i];
		}
	if (printed)
		snprintf(out + o, n - o, " %s", hm);
	else
		snprintf(out, n, "N/A");
}

static const char *ours_for(const char *word)
{
	for (size_t i = 0; i < sizeof(word_map) / sizeof(word_map[0]); i++)
		if (!strcmp(word_map[i].perf, word))
			return word_map[i].ours;
	return "N/A";		/* several levels, or a number perf has no name for */
}

static uint64_t make(uint64_t op, uint64_t lvl, uint64_t snoop, uint64_t lock, uint64_t tlb,
		     uint64_t num, uint64_t remote, uint64_t snoopx, uint64_t blk, uint64_t hops)
{
	const uint64_t v[PDS_NFIELDS] = { op, lvl, snoop, lock, tlb, num, remote, snoopx, blk,
					  hops };

	return perf_dsrc_make(v);
}

/* The field layout against PERF_MEM_S() values of perf_event.h, written out. */
static void test_layout(void **state)
{
	(void)state;
	assert_int_equal(make(0, 0x08 | 0x02, 0, 0, 0, 0, 0, 0, 0, 0), (0x0aull << 5));
	assert_int_equal(make(0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0), 0x02);		/* OP_LOAD */
	assert_int_equal(make(0, 0, 0x10, 0, 0, 0, 0, 0, 0, 0), 0x10ull << 19);	/* HITM */
	assert_int_equal(make(0, 0, 0, 0x02, 0, 0, 0, 0, 0, 0), 0x02ull << 24);	/* LOCKED */
	assert_int_equal(make(0, 0, 0, 0, 0x04, 0, 0, 0, 0, 0), 0x04ull << 26);	/* TLB MISS */
	assert_int_equal(make(0, 0, 0, 0, 0, 0x0d, 0, 0, 0, 0), 0x0dull << 33);	/* LVLNUM RAM */
	assert_int_equal(make(0, 0, 0, 0, 0, 0, 1, 0, 0, 0), 1ull << 37);
	assert_int_equal(make(0, 0, 0, 0, 0, 0, 0, 0x02, 0, 0), 0x02ull << 38);	/* PEER */
	assert_int_equal(make(0, 0, 0, 0, 0, 0, 0, 0, 0x04, 0), 0x04ull << 40);	/* BLK ADDR */
	assert_int_equal(make(0, 0, 0, 0, 0, 0, 0, 0, 0, 0x03), 0x03ull << 43);	/* HOPS_2 */
	for (unsigned f = 0; f < PDS_NFIELDS; f++) {
		uint64_t v[PDS_NFIELDS] = { 0 };

		v[f] = ~0ull;
		assert_int_equal(perf_dsrc_field(perf_dsrc_make(v), (enum perf_dsrc_field)f),
				 perf_dsrc_field(~0ull, (enum perf_dsrc_field)f));
	}
}

/*
 * Every mem_lvl value x remote x hops with mem_lvl_num 0 and N/A (where perf reads mem_lvl),
 * and for every other mem_lvl_num (where perf and the decoder ignore the level bits) every
 * NA/HIT/MISS combination with no, each single, and all level bits.
 */
static void test_levels_against_perf(void **state)
{
	unsigned long checked = 0, bad = 0;

	(void)state;
	for (uint64_t num = 0; num < 16; num++)
		for (uint64_t lvl = 0; lvl < (1u << 14); lvl++)
			for (uint64_t rem = 0; rem < 2; rem++)
				for (uint64_t hops = 0; hops < 8; hops++) {
					uint64_t v = make(2, lvl, 0, 0, 0, num, rem, 0, 0, hops);
					uint64_t lb = lvl >> 3;
					char s[256];
					const char *word, *want;
					struct pebs_dsrc d;

					if (num && num != PDS_LVLNUM_NA && lb && (lb & (lb - 1)) &&
					    lb != 0x7ff)
						continue;
					perf_lvl_string(v, s, sizeof(s), &word);
					want = ours_for(word);
					perf_dsrc_decode(v, &d);
					checked++;
					if (strcmp(pebs_agg_level_name(d.level), want) && bad++ < 10)
						print_error("0x%llx: perf \"%s\" -> want %s, got %s\n",
							    (unsigned long long)v, s, want,
							    pebs_agg_level_name(d.level));
					if ((lvl & 2) && d.hit != PEBS_YES)
						bad++;
					if (!(lvl & 6) && d.hit != PEBS_UNKNOWN)
						bad++;
					if ((lvl & 6) == 4 && d.hit != PEBS_NO)
						bad++;
					if ((rem || hops) && d.remote != PEBS_YES)
						bad++;
					assert_int_equal(d.raw, v);
				}
	assert_int_equal(checked, 2ul * 16384 * 16 + 14ul * 8 * 13 * 16);
	assert_int_equal(bad, 0);
}

/* Spot checks with perf's own output strings, as `perf mem report` prints them. */
static void test_perf_strings(void **state)
{
	static const struct { uint64_t lvl, num, rem, hops; const char *perf, *ours; } t[] = {
		{ 0x08 | 0x02, 0x01, 0, 0, "L1 hit", "L1 hit" },
		{ 0x10 | 0x02, 0x0c, 0, 0, "LFB/MAB hit", "LFB/MAB hit" },
		{ 0x20 | 0x02, 0x02, 0, 0, "L2 hit", "L2 hit" },
		{ 0x40 | 0x04, 0x03, 0, 0, "L3 miss", "L3" },
		{ 0x80 | 0x02, 0, 0, 0, "Local RAM hit", "RAM hit" },
		{ 0x02, 0x0d, 1, 2, "Remote node, same socket RAM hit", "RAM hit" },
		{ 0x400 | 0x02, 0, 0, 0, "Remote Cache (1 hop) hit", "L3" },
		{ 0x08 | 0x20 | 0x02, 0, 0, 0, "L1 or L2 hit", "N/A" },
		{ 0x01, 0, 0, 0, "N/A", "N/A" },
		{ 0x02, 0x0f, 0, 0, "N/A", "N/A" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		uint64_t v = make(2, t[i].lvl, 0, 0, 0, t[i].num, t[i].rem, 0, 0, t[i].hops);
		struct pebs_dsrc d;
		const char *w;
		char s[128];

		perf_lvl_string(v, s, sizeof(s), &w);
		assert_string_equal(s, t[i].perf);
		perf_dsrc_decode(v, &d);
		assert_string_equal(pebs_agg_level_name(d.level), t[i].ours);
	}
}

static void test_snoop_lock_tlb_blk(void **state)
{
	(void)state;
	for (uint64_t s = 0; s < 32; s++)
		for (uint64_t x = 0; x < 4; x++) {
			struct pebs_dsrc d;
			unsigned want = x & 2 ? PEBS_SNOOP_PEER : x & 1 ? PEBS_SNOOP_FWD :
					s & 0x10 ? PEBS_SNOOP_HITM : s & 4 ? PEBS_SNOOP_HIT :
					s & 8 ? PEBS_SNOOP_MISS : s & 2 ? PEBS_SNOOP_NONE :
					PEBS_SNOOP_NA;

			perf_dsrc_decode(make(2, 0x0a, s, 0, 0, 1, 0, x, 0, 0), &d);
			assert_int_equal(d.snoop, want);
		}
	for (uint64_t l = 0; l < 4; l++) {
		struct pebs_dsrc d;

		perf_dsrc_decode(make(2, 0x0a, 0, l, 0, 1, 0, 0, 0, 0), &d);
		/* perf_mem__lck_scnprintf: NA bit "N/A", LOCKED "Yes", else "No" */
		assert_int_equal(d.locked, l & 1 ? PEBS_UNKNOWN : l & 2 ? PEBS_YES : PEBS_NO);
	}
	for (uint64_t t = 0; t < 128; t++) {
		struct pebs_dsrc d;

		perf_dsrc_decode(make(2, 0x0a, 0, 0, t, 1, 0, 0, 0, 0), &d);
		assert_int_equal(d.stlb_miss, t & 4 ? PEBS_YES : t & 2 ? PEBS_NO : PEBS_UNKNOWN);
	}
	for (uint64_t b = 0; b < 8; b++) {
		struct pebs_dsrc d;
		uint8_t na = !b || (b & 1);

		perf_dsrc_decode(make(2, 0x0a, 0, 0, 0, 1, 0, 0, b, 0), &d);
		assert_int_equal(d.data_blocked, na ? PEBS_UNKNOWN : b & 2 ? PEBS_YES : PEBS_NO);
		assert_int_equal(d.addr_blocked, na ? PEBS_UNKNOWN : b & 4 ? PEBS_YES : PEBS_NO);
	}
}

static char lines[32][KP_LINE];
static unsigned nlines;

static void cap(void *ctx, const char *s)
{
	(void)ctx;
	if (nlines < 32)
		snprintf(lines[nlines++], KP_LINE, "%s", s);
}

/* Samples as loadbench --pebs aggregates them, printed as the kernel's `lvl` lines. */
static void test_aggregate_lines(void **state)
{
	static struct pebs_agg a;
	uint64_t l1 = make(2, 0x08 | 0x02, 0x02, 1, 0x0a, 0x01, 0, 0, 0, 0);	/* Intel L1 hit */
	uint64_t ram = make(2, 0x80 | 0x02, 0x08, 1, 0x0a, 0x0d, 0, 0, 0, 0);	/* local RAM */
	uint64_t rcache = make(2, 0x400 | 0x02, 0x10, 1, 0x0a, 0x03, 1, 0, 0, 0);

	(void)state;
	pebs_agg_init(&a);
	for (unsigned i = 0; i < 90; i++)
		perf_dsrc_agg_add(&a, l1, 4 + i % 3);
	for (unsigned i = 0; i < 8; i++)
		perf_dsrc_agg_add(&a, ram, 300 + i);
	perf_dsrc_agg_add(&a, rcache, 120);
	perf_dsrc_agg_add(&a, l1, 0);		/* no weight: a record without latency */
	assert_int_equal(a.records, 100);
	assert_int_equal(a.lvl[PEBS_LVL_L1].count, 90);
	assert_int_equal(a.lvl[PEBS_LVL_L1].nolat, 1);
	assert_int_equal(a.lvl[PEBS_LVL_RAM].count, 8);
	assert_int_equal(a.lvl[PEBS_LVL_L3].count, 1);
	assert_int_equal(a.lvl[PEBS_LVL_L3].snoop[PEBS_SNOOP_HITM], 1);
	nlines = 0;
	kp_table(cap, NULL, "load_l1", &a);
	assert_string_equal(lines[0], "load_l1: lvl level count share min p50 p90 p99 max");
	assert_string_equal(lines[1], "load_l1: lvl L1 hit 91 91.0% 4 5 6 6 6");
	assert_string_equal(lines[2], "load_l1: lvl L3 1 1.0% 120 120 120 120 120");
	/* 300..307 above 255: buckets of 16 ([288, 304) and [304, 320)), midpoints clamped to
	 * [min, max] (sample/aggregate.h): p50 300, p90 307 */
	assert_string_equal(lines[3], "load_l1: lvl RAM hit 8 8.0% 300 300 307 307 307");
	assert_string_equal(lines[4], "load_l1: hist L1 2:90");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_levels_against_perf),
		cmocka_unit_test(test_perf_strings),
		cmocka_unit_test(test_snoop_lock_tlb_blk),
		cmocka_unit_test(test_aggregate_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
