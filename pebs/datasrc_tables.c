/*
 * datasrc_tables.c: data-source encodings per table, one row per code, each row citing its
 * source. SDM Vol 3B table 18-24 ("Data Source Encoding for Load Latency Record", seed S2) for
 * NHM/WSM; Linux ds.c tables for SNB and later (pebs-facts.md §5.2 Table A, §5.3 patches,
 * §5.4 Table B). Tables are written out flat (base + patch already applied) so that every code
 * of every table can be read and tested as is.
 *
 * Deliberate choices where SDM and Linux disagree (pebs-facts.md §5.2):
 *  - NHM/WSM follow the SDM: 05 = snoop Hit (clean), 06 = HitM, 07 = HitM only on 06_2E
 *    (footnote; 06_2A uses Table A), 09 = reserved (Linux gives 09 a remote-HitM meaning
 *    the SDM does not have).
 *  - SNB..BDW follow Linux Table A ("Version for Sandy Bridge and later"): 05 snoop Miss,
 *    06 snoop Hit, 07 HitM, 09 remote L3 HitM. Linux keeps this table apart from the NHM
 *    patch on purpose; our seeds have no SNB-specific SDM table to contradict it.
 *  - 0B (L3 miss, remote DRAM, shared): level RAM, remote, as the SDM text says; Linux
 *    encodes level L3 (perf prints "Remote L3 hit"), which we treat as a Linux slip.
 *  - 0C/0D: Linux sets snoop None|Miss; one value is kept: MISS (exclusive state = no other
 *    cache held the line).
 */
#include "pebs/datasrc_tables.h"

#define Y PEBS_YES
#define N PEBS_NO
#define U PEBS_UNKNOWN
#define E(lvl, snp, hit, rem) { PEBS_LVL_##lvl, PEBS_SNOOP_##snp, hit, rem, 0 }
#define RSV { PEBS_LVL_NA, PEBS_SNOOP_NA, U, U, 1 }

/* SDM table 18-24 (S2), NHM/WSM; matches Linux _nhm patch for 05-07 (§5.3). */
static const struct pebs_ds_entry nhm[16] = {
	[0x00] = E(L3, NA, N, U),	/* unknown L3 cache miss (S2) */
	[0x01] = E(L1, NONE, Y, N),	/* L1D hit (S2) */
	[0x02] = E(LFB, NONE, Y, N),	/* pending core cache hit (S2) */
	[0x03] = E(L2, NONE, Y, N),	/* L2 (S2) */
	[0x04] = E(L3, NONE, Y, N),	/* L3 hit, no snoop needed (S2) */
	[0x05] = E(L3, HIT, Y, N),	/* L3 hit, cross-core snoop, clean (S2) */
	[0x06] = E(L3, HITM, Y, N),	/* L3 hit, cross-core snoop, modified (S2) */
	[0x07] = E(L3, HITM, Y, N),	/* LLC snoop HitM, only 06_2A/06_2E, else reserved (S2 note 1) */
	[0x08] = E(L3, HIT, Y, Y),	/* L3 miss, forwarded from other package, clean (S2) */
	[0x09] = RSV,			/* reserved (S2) */
	[0x0A] = E(RAM, HIT, Y, N),	/* L3 miss, local DRAM, shared (S2) */
	[0x0B] = E(RAM, HIT, Y, Y),	/* L3 miss, remote DRAM, shared (S2) */
	[0x0C] = E(RAM, MISS, Y, N),	/* L3 miss, local DRAM, exclusive (S2) */
	[0x0D] = E(RAM, MISS, Y, Y),	/* L3 miss, remote DRAM, exclusive (S2) */
	[0x0E] = E(IO, NONE, Y, U),	/* I/O (S2) */
	[0x0F] = E(UNCACHED, NONE, Y, U),	/* uncacheable memory (S2) */
};

/* Table A, SNB..BDW (L-DS pebs_data_source, §5.2). */
static const struct pebs_ds_entry snb[16] = {
	[0x00] = E(L3, NA, N, U),	/* unknown L3 miss (L-DS) */
	[0x01] = E(L1, NONE, Y, N),	/* L1 hit (L-DS) */
	[0x02] = E(LFB, NONE, Y, N),	/* LFB hit (L-DS) */
	[0x03] = E(L2, NONE, Y, N),	/* L2 hit (L-DS) */
	[0x04] = E(L3, NONE, Y, N),	/* L3 hit, snoop None (L-DS) */
	[0x05] = E(L3, MISS, Y, N),	/* L3 hit, snoop Miss (L-DS; SDM: clean) */
	[0x06] = E(L3, HIT, Y, N),	/* L3 hit, snoop Hit (L-DS; SDM: HITM) */
	[0x07] = E(L3, HITM, Y, N),	/* L3 hit, snoop HitM (L-DS) */
	[0x08] = E(L3, HIT, Y, Y),	/* remote cache (REM_CCE1), snoop Hit (L-DS) */
	[0x09] = E(L3, HITM, Y, Y),	/* remote cache, snoop HitM (L-DS; SDM-NHM: reserved) */
	[0x0A] = E(RAM, HIT, Y, N),	/* local RAM, snoop Hit (L-DS) */
	[0x0B] = E(RAM, HIT, Y, Y),	/* remote RAM, snoop Hit (L-DS lvl L3 sic; SDM: DRAM) */
	[0x0C] = E(RAM, MISS, Y, N),	/* local RAM, snoop None|Miss (L-DS) */
	[0x0D] = E(RAM, MISS, Y, Y),	/* remote RAM, snoop None|Miss (L-DS) */
	[0x0E] = E(IO, NONE, Y, U),	/* I/O (L-DS) */
	[0x0F] = E(UNCACHED, NONE, Y, U),	/* uncached (L-DS) */
};

/* Table A + _skl(pmem=false) (§5.3). */
static const struct pebs_ds_entry skl[16] = {
	[0x00] = E(L3, NA, N, U),	/* Table A */
	[0x01] = E(L1, NONE, Y, N),	/* Table A */
	[0x02] = E(LFB, NONE, Y, N),	/* Table A */
	[0x03] = E(L2, NONE, Y, N),	/* Table A */
	[0x04] = E(L3, NONE, Y, N),	/* Table A */
	[0x05] = E(L3, MISS, Y, N),	/* Table A */
	[0x06] = E(L3, HIT, Y, N),	/* Table A */
	[0x07] = E(L3, HITM, Y, N),	/* Table A */
	[0x08] = E(L4, HIT, Y, N),	/* _skl: L4, snoop Hit (§5.3) */
	[0x09] = E(L4, HIT, Y, Y),	/* _skl: remote L4, snoop Hit (§5.3) */
	[0x0A] = E(RAM, HIT, Y, N),	/* Table A */
	[0x0B] = E(RAM, NONE, Y, Y),	/* _skl: remote RAM, snoop None (§5.3) */
	[0x0C] = E(ANY_CACHE, FWD, Y, Y),	/* _skl: remote any cache, Fwd (§5.3) */
	[0x0D] = E(ANY_CACHE, HITM, Y, Y),	/* _skl: remote any cache, HitM (§5.3) */
	[0x0E] = E(IO, NONE, Y, U),	/* Table A */
	[0x0F] = E(UNCACHED, NONE, Y, U),	/* Table A */
};

/* Table A + _skl(pmem=true) (§5.3): only 08/09 differ from skl[]. */
static const struct pebs_ds_entry skl_pmem[16] = {
	[0x00] = E(L3, NA, N, U),	/* Table A */
	[0x01] = E(L1, NONE, Y, N),	/* Table A */
	[0x02] = E(LFB, NONE, Y, N),	/* Table A */
	[0x03] = E(L2, NONE, Y, N),	/* Table A */
	[0x04] = E(L3, NONE, Y, N),	/* Table A */
	[0x05] = E(L3, MISS, Y, N),	/* Table A */
	[0x06] = E(L3, HIT, Y, N),	/* Table A */
	[0x07] = E(L3, HITM, Y, N),	/* Table A */
	[0x08] = E(PMEM, HIT, Y, N),	/* _skl(pmem): PMEM, snoop Hit (§5.3) */
	[0x09] = E(PMEM, HIT, Y, Y),	/* _skl(pmem): remote PMEM (§5.3) */
	[0x0A] = E(RAM, HIT, Y, N),	/* Table A */
	[0x0B] = E(RAM, NONE, Y, Y),	/* _skl (§5.3) */
	[0x0C] = E(ANY_CACHE, FWD, Y, Y),	/* _skl (§5.3) */
	[0x0D] = E(ANY_CACHE, HITM, Y, Y),	/* _skl (§5.3) */
	[0x0E] = E(IO, NONE, Y, U),	/* Table A */
	[0x0F] = E(UNCACHED, NONE, Y, U),	/* Table A */
};

/* Table A + _grt (Gracemont, §5.3). */
static const struct pebs_ds_entry grt[16] = {
	[0x00] = E(L3, NA, N, U),	/* Table A */
	[0x01] = E(L1, NONE, Y, N),	/* Table A */
	[0x02] = E(LFB, NONE, Y, N),	/* Table A */
	[0x03] = E(L2, NONE, Y, N),	/* Table A */
	[0x04] = E(L3, NONE, Y, N),	/* Table A */
	[0x05] = E(L3, HIT, Y, N),	/* _grt: L3 hit, snoop Hit (§5.3) */
	[0x06] = E(L3, HITM, Y, N),	/* _grt: L3 hit, HitM (§5.3) */
	[0x07] = E(L3, HITM, Y, N),	/* Table A */
	[0x08] = E(L3, FWD, Y, N),	/* _grt: L3 hit, snoopX Fwd (§5.3) */
	[0x09] = E(L3, HITM, Y, Y),	/* Table A */
	[0x0A] = E(RAM, HIT, Y, N),	/* Table A */
	[0x0B] = E(RAM, HIT, Y, Y),	/* Table A (level RAM, see top) */
	[0x0C] = E(RAM, MISS, Y, N),	/* Table A */
	[0x0D] = E(RAM, MISS, Y, Y),	/* Table A */
	[0x0E] = E(IO, NONE, Y, U),	/* Table A */
	[0x0F] = E(UNCACHED, NONE, Y, U),	/* Table A */
};

/* Table A + _cmt (Crestmont/Skymont, §5.3). */
static const struct pebs_ds_entry cmt[16] = {
	[0x00] = E(L3, NA, N, U),	/* Table A */
	[0x01] = E(L1, NONE, Y, N),	/* Table A */
	[0x02] = E(LFB, NONE, Y, N),	/* Table A */
	[0x03] = E(L2, NONE, Y, N),	/* Table A */
	[0x04] = E(L3, NONE, Y, N),	/* Table A */
	[0x05] = E(L3, MISS, Y, N),	/* Table A */
	[0x06] = E(L3, HIT, Y, N),	/* Table A */
	[0x07] = E(L3, FWD, Y, N),	/* _cmt: L3 hit, Fwd (§5.3) */
	[0x08] = E(L3, HITM, Y, N),	/* _cmt: L3 hit, HitM (§5.3) */
	[0x09] = E(L3, HITM, Y, Y),	/* Table A */
	[0x0A] = E(RAM, NONE, Y, N),	/* _cmt: local RAM, snoop None (§5.3) */
	[0x0B] = E(RAM, NONE, Y, Y),	/* _cmt: remote RAM, None (§5.3) */
	[0x0C] = E(RAM, FWD, Y, Y),	/* _cmt: remote RAM, Fwd (§5.3) */
	[0x0D] = E(RAM, HITM, Y, Y),	/* _cmt: remote RAM, HitM (§5.3) */
	[0x0E] = E(IO, NONE, Y, U),	/* Table A */
	[0x0F] = E(UNCACHED, NONE, Y, U),	/* Table A */
};

/* Table B, Lion Cove, 8-bit codes; 0x12..0xFF reserved (§5.4). */
static const struct pebs_ds_entry lnc[0x12] = {
	[0x00] = E(L3, NA, N, U),	/* L3 miss, unknown (§5.4) */
	[0x01] = E(L1, NONE, Y, N),	/* L1 hit (§5.4) */
	[0x02] = E(L1, NONE, Y, N),	/* L1 hit (§5.4) */
	[0x03] = E(LFB, NONE, Y, N),	/* L1 miss-handling buffer hit (§5.4) */
	[0x04] = RSV,			/* reserved (§5.4) */
	[0x05] = E(L2, NONE, Y, N),	/* L2 hit (§5.4) */
	[0x06] = E(L2_MHB, NONE, Y, N),	/* L2 miss-handling buffer hit (§5.4) */
	[0x07] = RSV,			/* reserved (§5.4) */
	[0x08] = E(L3, NONE, Y, N),	/* L3 hit, snoop None (§5.4) */
	[0x09] = RSV,			/* reserved (§5.4) */
	[0x0A] = RSV,			/* reserved (§5.4) */
	[0x0B] = RSV,			/* reserved (§5.4) */
	[0x0C] = E(L3, FWD, Y, N),	/* L3 hit, snoopX Fwd (§5.4) */
	[0x0D] = E(L3, HITM, Y, N),	/* L3 hit, HitM (§5.4) */
	[0x0E] = RSV,			/* reserved (§5.4) */
	[0x0F] = E(L3, HITM, N, N),	/* L3 miss with snoop HitM (§5.4) */
	[0x10] = E(MSC, NONE, Y, N),	/* memory-side cache hit (§5.4) */
	[0x11] = E(RAM, NONE, Y, N),	/* local memory (§5.4) */
};

const struct pebs_ds_table_desc pebs_ds_tables[PEBS_DS_TABLE_COUNT] = {
	[PEBS_DS_NONE] = { 0, 0 },
	[PEBS_DS_NHM] = { nhm, 16 },
	[PEBS_DS_SNB] = { snb, 16 },
	[PEBS_DS_SKL] = { skl, 16 },
	[PEBS_DS_SKL_PMEM] = { skl_pmem, 16 },
	[PEBS_DS_GRT] = { grt, 16 },
	[PEBS_DS_CMT] = { cmt, 16 },
	[PEBS_DS_LNC] = { lnc, 0x12 },
};
