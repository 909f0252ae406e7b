/*
 * datasrc_pantherc.c: the Panther Cove (Diamond Rapids; Nova Lake's Coyote Cove) and Arctic
 * Wolf (Nova Lake E-core) data-source word of load- and store-latency records: bits 7:0 are
 * an L2-hit code while bit 8 is clear, and an OMR (off-module response) code when it is set;
 * 11 STLB miss, 12 locked, 13/14 data/address blocked. Source of every row: Linux
 * arch/x86/events/intel/ds.c pnc_pebs_l2_hit_data_source[], omr_data_source[],
 * parse_omr_data_source() and pnc_latency_data() (tip d2bdcde9626c, which cites Intel's ISE
 * section "PEBS Load Latency and Store Latency Facility"), arw_pebs_l2_hit_data_source[] and
 * arw_latency_data() (tip 7cd264d1972d), and the OMR snoop fix e7fcc54524f0. Where we differ
 * from that code and why: docs/arch-pebs.md ("Panther Cove data source"). Pure.
 */
#include "pebs/datasrc.h"
#include "pebs/datasrc_tables.h"

#define Y PEBS_YES
#define N PEBS_NO
#define U PEBS_UNKNOWN
#define RSV { .level = PEBS_LVL_NA, .snoop = PEBS_SNOOP_NA, .hit = U, .remote = U, .rsv = 1 }
#define HIT(l, s) { .level = (l), .snoop = (s), .hit = Y, .remote = N }

/* Bit 8 clear: where the load hit, up to L2 (pnc_pebs_l2_hit_data_source). Codes above 0x0F
 * are reserved here; Linux masks the code to 4 bits instead. */
static const struct pebs_ds_entry l2_hit[16] = {
	/* 0x00 not a cacheable access: level and snoop not available */
	[0x00] = { .level = PEBS_LVL_NA, .snoop = PEBS_SNOOP_NA, .hit = U, .remote = U },
	[0x01] = HIT(PEBS_LVL_L0, PEBS_SNOOP_NONE),	/* L0 hit */
	[0x02] = HIT(PEBS_LVL_L1, PEBS_SNOOP_NONE),	/* L1 hit */
	[0x03] = HIT(PEBS_LVL_LFB, PEBS_SNOOP_NONE),	/* L1 miss-handling buffer hit */
	[0x04] = HIT(PEBS_LVL_L2, PEBS_SNOOP_NONE),	/* L2 hit clean */
	[0x05] = RSV,
	[0x06] = RSV,
	[0x07] = HIT(PEBS_LVL_L2, PEBS_SNOOP_HIT),	/* L2 hit, snoop Hit */
	[0x08] = HIT(PEBS_LVL_L2, PEBS_SNOOP_HITM),	/* L2 hit, snoop HitM */
	[0x09] = HIT(PEBS_LVL_L2, PEBS_SNOOP_MISS),	/* prefetch promotion */
	[0x0a] = HIT(PEBS_LVL_L2, PEBS_SNOOP_MISS),	/* cross-core prefetch promotion */
	[0x0b] = RSV,
	[0x0c] = RSV,
	[0x0d] = RSV,
	[0x0e] = RSV,
	[0x0f] = HIT(PEBS_LVL_UNCACHED, PEBS_SNOOP_NONE),	/* uncached */
};

/* Arctic Wolf, bit 8 clear (arw_pebs_l2_hit_data_source, tip 7cd264d1972d); 07-0F reserved. */
static const struct pebs_ds_entry arw_l2_hit[16] = {
	/* 0x00 not a cacheable access: level and snoop not available */
	[0x00] = { .level = PEBS_LVL_NA, .snoop = PEBS_SNOOP_NA, .hit = U, .remote = U },
	[0x01] = HIT(PEBS_LVL_L1, PEBS_SNOOP_NONE),	/* L1 hit */
	[0x02] = HIT(PEBS_LVL_LFB, PEBS_SNOOP_NONE),	/* write-combining buffer hit */
	[0x03] = HIT(PEBS_LVL_L2, PEBS_SNOOP_NONE),	/* L2 hit clean */
	[0x04] = HIT(PEBS_LVL_L2, PEBS_SNOOP_HIT),	/* L2 hit, snoop Hit */
	[0x05] = HIT(PEBS_LVL_L2, PEBS_SNOOP_HITM),	/* L2 hit, snoop HitM */
	[0x06] = HIT(PEBS_LVL_UNCACHED, PEBS_SNOOP_NONE),	/* uncached */
	[0x07] = RSV, [0x08] = RSV, [0x09] = RSV, [0x0a] = RSV,
	[0x0b] = RSV, [0x0c] = RSV, [0x0d] = RSV, [0x0e] = RSV, [0x0f] = RSV,
};

/* Bit 8 set: OMR source = bits 3:0 (omr_data_source); remote and snoop come from bits 4-7. */
static const struct pebs_ds_entry omr[16] = {
	[0x00] = { .level = PEBS_LVL_NA, .snoop = PEBS_SNOOP_NA, .hit = U, .remote = U },
	[0x01] = RSV,
	[0x02] = HIT(PEBS_LVL_L3, PEBS_SNOOP_HIT),	/* local cache agent, shared cache */
	[0x03] = HIT(PEBS_LVL_L3, PEBS_SNOOP_HIT),	/* local CA, non-shared cache */
	[0x04] = HIT(PEBS_LVL_L3, PEBS_SNOOP_HIT),	/* other CA, I/O agent (L3 in Linux) */
	[0x05] = HIT(PEBS_LVL_L3, PEBS_SNOOP_HIT),	/* other CA, shared cache */
	[0x06] = HIT(PEBS_LVL_L3, PEBS_SNOOP_HIT),	/* other CA, non-shared cache */
	[0x07] = HIT(PEBS_LVL_RAM, PEBS_SNOOP_NONE),	/* MMIO (level RAM in Linux) */
	[0x08] = HIT(PEBS_LVL_RAM, PEBS_SNOOP_NONE),	/* memory region 0 */
	[0x09] = HIT(PEBS_LVL_RAM, PEBS_SNOOP_NONE),	/* memory region 1 */
	[0x0a] = HIT(PEBS_LVL_RAM, PEBS_SNOOP_NONE),	/* memory region 2 */
	[0x0b] = HIT(PEBS_LVL_RAM, PEBS_SNOOP_NONE),	/* memory region 3 */
	[0x0c] = HIT(PEBS_LVL_RAM, PEBS_SNOOP_NONE),	/* memory region 4 */
	[0x0d] = HIT(PEBS_LVL_RAM, PEBS_SNOOP_NONE),	/* memory region 5 */
	[0x0e] = HIT(PEBS_LVL_RAM, PEBS_SNOOP_NONE),	/* memory region 6 */
	[0x0f] = HIT(PEBS_LVL_RAM, PEBS_SNOOP_NONE),	/* memory region 7 */
};

/* Source 0x02: (promoted << 1 | snoop) -> snoop result (parse_omr_data_source's 4-way
 * table; see docs/arch-pebs.md for how Linux's expression differs). */
static const uint8_t omr_local_snoop[4] = {
	PEBS_SNOOP_NA, PEBS_SNOOP_MISS, PEBS_SNOOP_HIT, PEBS_SNOOP_NONE,
};

static uint8_t bit(uint64_t v, unsigned n)
{
	return (v >> n) & 1 ? PEBS_YES : PEBS_NO;
}

void pebs_dsrc_decode_pnc(uint64_t aux, bool store, bool arw, struct pebs_dsrc *d)
{
	unsigned code = aux & 0xff;

	d->code = (uint16_t)(aux & 0x1ff);	/* bit 8 kept: it selects the table */
	d->has_level = d->has_snoop = true;
	d->stlb_miss = bit(aux, 11);
	d->locked = bit(aux, 12);
	if (!store) {
		d->data_blocked = bit(aux, 13);
		d->addr_blocked = bit(aux, 14);
	}
	if (!((aux >> 8) & 1)) {
		if (code < 16)
			pebs_dsrc_apply(d, arw ? &arw_l2_hit[code] : &l2_hit[code]);
		else
			d->reserved = true;
		return;
	}

	unsigned src = code & 0xf;
	bool remote = (code >> 4) & 1, hitm = (code >> 5) & 1, snoop = (code >> 6) & 1;
	bool promoted = (code >> 7) & 1;

	pebs_dsrc_apply(d, &omr[src]);
	if (d->reserved || src == 0)
		return;
	d->remote = remote ? PEBS_YES : PEBS_NO;
	/* MMIO and memory (07-0F) carry no snoop result (Linux e7fcc54524f0: SNOOP_NONE) */
	if (src >= 0x7) {
		d->snoop = PEBS_SNOOP_NONE;
		return;
	}
	d->snoop = hitm ? PEBS_SNOOP_HITM : PEBS_SNOOP_HIT;
	if (src == 0x2)
		d->snoop = omr_local_snoop[(unsigned)promoted << 1 | (unsigned)snoop];
	else if (snoop && !hitm)
		d->snoop = PEBS_SNOOP_FWD;
}
