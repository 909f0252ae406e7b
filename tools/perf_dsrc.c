/*
 * perf_dsrc.c: union perf_mem_data_src -> struct pebs_dsrc (see perf_dsrc.h). Field layout,
 * level numbers and level bits: include/uapi/linux/perf_event.h (union perf_mem_data_src,
 * PERF_MEM_LVL_*, PERF_MEM_LVLNUM_*, PERF_MEM_SNOOP[X]_*, PERF_MEM_LOCK_*, PERF_MEM_TLB_*,
 * PERF_MEM_BLK_*, PERF_MEM_HOPS_*). The names these levels print as are the kernel's table
 * names (sample/agg_print.c pebs_agg_level_name), which follow perf's tools/perf/util/mem-events.c
 * (mem_lvl[], mem_lvlnum[]); tests/host/perf_dsrc_test.c checks them against perf's strings.
 */
#include "tools/perf_dsrc.h"
#include "pebs/aggbuf.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* perf_event.h: bit position and width of each field, from bit 0 up. */
static const struct { uint8_t shift, width; } field[PDS_NFIELDS] = {
	[PDS_OP] = { 0, 5 },		/* mem_op:5, PERF_MEM_OP_SHIFT 0 */
	[PDS_LVL] = { 5, 14 },		/* mem_lvl:14, PERF_MEM_LVL_SHIFT 5 */
	[PDS_SNOOP] = { 19, 5 },	/* mem_snoop:5, PERF_MEM_SNOOP_SHIFT 19 */
	[PDS_LOCK] = { 24, 2 },		/* mem_lock:2, PERF_MEM_LOCK_SHIFT 24 */
	[PDS_DTLB] = { 26, 7 },		/* mem_dtlb:7, PERF_MEM_TLB_SHIFT 26 */
	[PDS_LVL_NUM] = { 33, 4 },	/* mem_lvl_num:4, PERF_MEM_LVLNUM_SHIFT 33 */
	[PDS_REMOTE] = { 37, 1 },	/* mem_remote:1, PERF_MEM_REMOTE_SHIFT 37 */
	[PDS_SNOOPX] = { 38, 2 },	/* mem_snoopx:2, PERF_MEM_SNOOPX_SHIFT 38 */
	[PDS_BLK] = { 40, 3 },		/* mem_blk:3, PERF_MEM_BLK_SHIFT 40 */
	[PDS_HOPS] = { 43, 3 },		/* mem_hops:3, PERF_MEM_HOPS_SHIFT 43 */
};

/* PERF_MEM_LVLNUM_* -> our level; 0 is not a level (PEBS_LVL_COUNT marks it), 0x0f is N/A.
 * 0x07 was unassigned until the uapi gained PERF_MEM_LVLNUM_L0 with the Panther Cove data
 * source (tip d2bdcde9626c, 2026; docs/arch-pebs.md): our PEBS_LVL_L0. */
static const uint8_t lvlnum_level[16] = {
	[0x00] = PEBS_LVL_COUNT,
	[0x01] = PEBS_LVL_L1,		/* PERF_MEM_LVLNUM_L1 */
	[0x02] = PEBS_LVL_L2,		/* PERF_MEM_LVLNUM_L2 */
	[0x03] = PEBS_LVL_L3,		/* PERF_MEM_LVLNUM_L3 */
	[0x04] = PEBS_LVL_L4,		/* PERF_MEM_LVLNUM_L4 */
	[0x05] = PEBS_LVL_L2_MHB,	/* PERF_MEM_LVLNUM_L2_MHB */
	[0x06] = PEBS_LVL_MSC,		/* PERF_MEM_LVLNUM_MSC */
	[0x07] = PEBS_LVL_L0,		/* PERF_MEM_LVLNUM_L0 */
	[0x08] = PEBS_LVL_UNCACHED,	/* PERF_MEM_LVLNUM_UNC */
	[0x09] = PEBS_LVL_CXL,		/* PERF_MEM_LVLNUM_CXL */
	[0x0a] = PEBS_LVL_IO,		/* PERF_MEM_LVLNUM_IO */
	[0x0b] = PEBS_LVL_ANY_CACHE,	/* PERF_MEM_LVLNUM_ANY_CACHE */
	[0x0c] = PEBS_LVL_LFB,		/* PERF_MEM_LVLNUM_LFB */
	[0x0d] = PEBS_LVL_RAM,		/* PERF_MEM_LVLNUM_RAM */
	[0x0e] = PEBS_LVL_PMEM,		/* PERF_MEM_LVLNUM_PMEM */
	[0x0f] = PEBS_LVL_NA,		/* PERF_MEM_LVLNUM_NA */
};

/* PERF_MEM_LVL_* level bits (HIT/MISS/NA excluded) -> level, remote. */
static const struct { uint16_t bit; uint8_t level; bool remote; } lvl_bit[] = {
	{ PDS_LVL_L1, PEBS_LVL_L1, false },
	{ PDS_LVL_LFB, PEBS_LVL_LFB, false },
	{ PDS_LVL_L2, PEBS_LVL_L2, false },
	{ PDS_LVL_L3, PEBS_LVL_L3, false },
	{ PDS_LVL_LOC_RAM, PEBS_LVL_RAM, false },	/* "Local RAM" */
	{ PDS_LVL_REM_RAM1, PEBS_LVL_RAM, true },	/* "Remote RAM (1 hop)" */
	{ PDS_LVL_REM_RAM2, PEBS_LVL_RAM, true },	/* "Remote RAM (2 hops)" */
	{ PDS_LVL_REM_CCE1, PEBS_LVL_L3, true },	/* "Remote Cache (1 hop)" */
	{ PDS_LVL_REM_CCE2, PEBS_LVL_L3, true },	/* "Remote Cache (2 hops)" */
	{ PDS_LVL_IO, PEBS_LVL_IO, false },
	{ PDS_LVL_UNC, PEBS_LVL_UNCACHED, false },
};

uint64_t perf_dsrc_field(uint64_t v, enum perf_dsrc_field f)
{
	return (v >> field[f].shift) & ((1ull << field[f].width) - 1);
}

uint64_t perf_dsrc_make(const uint64_t v[PDS_NFIELDS])
{
	uint64_t w = 0;

	for (unsigned f = 0; f < PDS_NFIELDS; f++)
		w |= (v[f] & ((1ull << field[f].width) - 1)) << field[f].shift;
	return w;
}

static uint8_t tri(bool yes, bool no)
{
	return yes ? PEBS_YES : no ? PEBS_NO : PEBS_UNKNOWN;
}

static void level(uint64_t v, struct pebs_dsrc *d)
{
	uint64_t num = perf_dsrc_field(v, PDS_LVL_NUM), lvl = perf_dsrc_field(v, PDS_LVL);
	uint64_t bits = lvl & ~(uint64_t)(PDS_LVL_NA | PDS_LVL_HIT | PDS_LVL_MISS);
	unsigned found = 0;

	if (num && num != PDS_LVLNUM_NA) {
		d->code = (uint16_t)num;
		d->level = lvlnum_level[num];
		if (d->level == PEBS_LVL_COUNT) {
			d->level = PEBS_LVL_NA;
			d->reserved = true;
		}
		return;
	}
	d->code = (uint16_t)bits;
	if (!bits)
		return;		/* N/A */
	for (unsigned i = 0; i < ARRAY_SIZE(lvl_bit); i++)
		if (bits & lvl_bit[i].bit) {
			found++;
			d->level = lvl_bit[i].level;
			if (lvl_bit[i].remote)
				d->remote = PEBS_YES;
		}
	if (found > 1) {	/* "A or B": no one level */
		d->level = PEBS_LVL_NA;
		d->remote = PEBS_UNKNOWN;
		d->reserved = true;
	}
}

static uint8_t snoop(uint64_t v)
{
	uint64_t s = perf_dsrc_field(v, PDS_SNOOP), x = perf_dsrc_field(v, PDS_SNOOPX);

	/* one bit is set in practice; with several, the most informative wins */
	if (x & PDS_SNOOPX_PEER)
		return PEBS_SNOOP_PEER;
	if (x & PDS_SNOOPX_FWD)
		return PEBS_SNOOP_FWD;
	if (s & PDS_SNOOP_HITM)
		return PEBS_SNOOP_HITM;
	if (s & PDS_SNOOP_HIT)
		return PEBS_SNOOP_HIT;
	if (s & PDS_SNOOP_MISS)
		return PEBS_SNOOP_MISS;
	if (s & PDS_SNOOP_NONE)
		return PEBS_SNOOP_NONE;
	return PEBS_SNOOP_NA;
}

void perf_dsrc_decode(uint64_t v, struct pebs_dsrc *d)
{
	uint64_t lvl = perf_dsrc_field(v, PDS_LVL), lock = perf_dsrc_field(v, PDS_LOCK);
	uint64_t tlb = perf_dsrc_field(v, PDS_DTLB), blk = perf_dsrc_field(v, PDS_BLK);

	*d = (struct pebs_dsrc){ .raw = v, .level = PEBS_LVL_NA, .remote = PEBS_NO };
	level(v, d);
	if (perf_dsrc_field(v, PDS_REMOTE) || perf_dsrc_field(v, PDS_HOPS))
		d->remote = PEBS_YES;
	if (d->level == PEBS_LVL_NA && d->remote != PEBS_YES)
		d->remote = PEBS_UNKNOWN;
	d->hit = tri(lvl & PDS_LVL_HIT, lvl & PDS_LVL_MISS);
	d->snoop = snoop(v);
	/* perf's lock column: N/A when the NA bit is set, Yes when locked, else No */
	d->locked = lock & PDS_LOCK_NA ? PEBS_UNKNOWN : tri(lock & PDS_LOCK_LOCKED, true);
	/* Intel: STLB miss = P(TLB, MISS) | P(TLB, L2), hit = P(TLB, HIT) | ... */
	d->stlb_miss = tri(tlb & PDS_TLB_MISS, tlb & PDS_TLB_HIT);
	d->data_blocked = blk & PDS_BLK_NA || !blk ? PEBS_UNKNOWN : tri(blk & PDS_BLK_DATA, true);
	d->addr_blocked = blk & PDS_BLK_NA || !blk ? PEBS_UNKNOWN : tri(blk & PDS_BLK_ADDR, true);
}

void perf_dsrc_agg_add(struct pebs_agg *a, uint64_t data_src, uint64_t weight)
{
	struct pebs_record r = { .valid = weight ? PEBS_F_LATENCY : 0, .latency = weight };
	struct pebs_dsrc d;

	perf_dsrc_decode(data_src, &d);
	pebs_agg_add(a, &r, &d);
}
