/*
 * datasrc_tables.c: data-source encodings per table, one row per code in designated
 * initialisers, each row naming its source above it. Sources: for NHM/WSM the SDM Vol. 3B
 * table "Data Source Encoding for Load Latency Record" (Nehalem load latency facility;
 * table 18-24 in the ch. 18 editions); for SNB and later Linux arch/x86/events/intel/ds.c:
 * pebs_data_source[] ("Table A"), the per-model patches intel_pmu_pebs_data_source_nhm/
 * _skl/_grt/_cmt, and lnc_pebs_data_source[] ("Table B"). docs/hardware.md §5.2-§5.4 lays
 * the tables side by side. Tables are written out flat (base + patch already applied) so
 * that every code of every table can be read and tested as is.
 *
 * Deliberate choices where SDM and Linux disagree (docs/hardware.md §5.2):
 *  - NHM/WSM follow the SDM: 05 = snoop Hit (clean), 06 = HitM, 07 = HitM only on 06_2E
 *    (footnote; 06_2A uses Table A), 09 = reserved (Linux gives 09 a remote-HitM meaning
 *    the SDM does not have).
 *  - SNB..BDW follow Linux Table A ("Version for Sandy Bridge and later"): 05 snoop Miss,
 *    06 snoop Hit, 07 HitM, 09 remote L3 HitM. Linux keeps this table apart from the NHM
 *    patch on purpose; the SDM tables we checked have no SNB-specific table to contradict it.
 *  - 0B (L3 miss, remote DRAM, shared): level RAM, remote, as the SDM text says; Linux
 *    encodes level L3 (perf prints "Remote L3 hit"), which we treat as a Linux slip.
 *  - 0C/0D: Linux sets snoop None|Miss; one value is kept: MISS (exclusive state = no other
 *    cache held the line).
 */
#include "pebs/datasrc_tables.h"

#define Y PEBS_YES
#define N PEBS_NO
#define U PEBS_UNKNOWN
/* A code the table marks reserved: decoded as level/snoop "not available", never guessed. */
#define RSV { .level = PEBS_LVL_NA, .snoop = PEBS_SNOOP_NA, .hit = U, .remote = U, .rsv = 1 }

/* NHM/WSM: SDM "Data Source Encoding for Load Latency Record"; 05-07 match Linux's
 * intel_pmu_pebs_data_source_nhm. */
static const struct pebs_ds_entry nhm[16] = {
	/* unknown L3 cache miss (SDM) */
	[0x00] = { .level = PEBS_LVL_L3, .snoop = PEBS_SNOOP_NA, .hit = N, .remote = U },
	/* L1D hit (SDM) */
	[0x01] = { .level = PEBS_LVL_L1, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = N },
	/* pending core cache hit (SDM) */
	[0x02] = { .level = PEBS_LVL_LFB, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = N },
	/* L2 (SDM) */
	[0x03] = { .level = PEBS_LVL_L2, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = N },
	/* L3 hit, no snoop needed (SDM) */
	[0x04] = { .level = PEBS_LVL_L3, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = N },
	/* L3 hit, cross-core snoop, clean (SDM) */
	[0x05] = { .level = PEBS_LVL_L3, .snoop = PEBS_SNOOP_HIT, .hit = Y, .remote = N },
	/* L3 hit, cross-core snoop, modified (SDM) */
	[0x06] = { .level = PEBS_LVL_L3, .snoop = PEBS_SNOOP_HITM, .hit = Y, .remote = N },
	/* LLC snoop HitM, only 06_2A/06_2E, else reserved (SDM table note 1) */
	[0x07] = { .level = PEBS_LVL_L3, .snoop = PEBS_SNOOP_HITM, .hit = Y, .remote = N },
	/* L3 miss, forwarded from other package, clean (SDM) */
	[0x08] = { .level = PEBS_LVL_L3, .snoop = PEBS_SNOOP_HIT, .hit = Y, .remote = Y },
	/* reserved (SDM) */
	[0x09] = RSV,
	/* L3 miss, local DRAM, shared (SDM) */
	[0x0A] = { .level = PEBS_LVL_RAM, .snoop = PEBS_SNOOP_HIT, .hit = Y, .remote = N },
	/* L3 miss, remote DRAM, shared (SDM) */
	[0x0B] = { .level = PEBS_LVL_RAM, .snoop = PEBS_SNOOP_HIT, .hit = Y, .remote = Y },
	/* L3 miss, local DRAM, exclusive (SDM) */
	[0x0C] = { .level = PEBS_LVL_RAM, .snoop = PEBS_SNOOP_MISS, .hit = Y, .remote = N },
	/* L3 miss, remote DRAM, exclusive (SDM) */
	[0x0D] = { .level = PEBS_LVL_RAM, .snoop = PEBS_SNOOP_MISS, .hit = Y, .remote = Y },
	/* I/O (SDM) */
	[0x0E] = { .level = PEBS_LVL_IO, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = U },
	/* uncacheable memory (SDM) */
	[0x0F] = { .level = PEBS_LVL_UNCACHED, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = U },
};

/* Table A, SNB..BDW: Linux ds.c pebs_data_source[] (docs/hardware.md §5.2). */
static const struct pebs_ds_entry snb[16] = {
	/* unknown L3 miss (Linux) */
	[0x00] = { .level = PEBS_LVL_L3, .snoop = PEBS_SNOOP_NA, .hit = N, .remote = U },
	/* L1 hit (Linux) */
	[0x01] = { .level = PEBS_LVL_L1, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = N },
	/* LFB hit (Linux) */
	[0x02] = { .level = PEBS_LVL_LFB, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = N },
	/* L2 hit (Linux) */
	[0x03] = { .level = PEBS_LVL_L2, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = N },
	/* L3 hit, snoop None (Linux) */
	[0x04] = { .level = PEBS_LVL_L3, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = N },
	/* L3 hit, snoop Miss (Linux; SDM: clean) */
	[0x05] = { .level = PEBS_LVL_L3, .snoop = PEBS_SNOOP_MISS, .hit = Y, .remote = N },
	/* L3 hit, snoop Hit (Linux; SDM: HITM) */
	[0x06] = { .level = PEBS_LVL_L3, .snoop = PEBS_SNOOP_HIT, .hit = Y, .remote = N },
	/* L3 hit, snoop HitM (Linux) */
	[0x07] = { .level = PEBS_LVL_L3, .snoop = PEBS_SNOOP_HITM, .hit = Y, .remote = N },
	/* remote cache (REM_CCE1), snoop Hit (Linux) */
	[0x08] = { .level = PEBS_LVL_L3, .snoop = PEBS_SNOOP_HIT, .hit = Y, .remote = Y },
	/* remote cache, snoop HitM (Linux; SDM: reserved on NHM) */
	[0x09] = { .level = PEBS_LVL_L3, .snoop = PEBS_SNOOP_HITM, .hit = Y, .remote = Y },
	/* local RAM, snoop Hit (Linux) */
	[0x0A] = { .level = PEBS_LVL_RAM, .snoop = PEBS_SNOOP_HIT, .hit = Y, .remote = N },
	/* remote RAM, snoop Hit (Linux says level L3; SDM: DRAM) */
	[0x0B] = { .level = PEBS_LVL_RAM, .snoop = PEBS_SNOOP_HIT, .hit = Y, .remote = Y },
	/* local RAM, snoop None|Miss (Linux) */
	[0x0C] = { .level = PEBS_LVL_RAM, .snoop = PEBS_SNOOP_MISS, .hit = Y, .remote = N },
	/* remote RAM, snoop None|Miss (Linux) */
	[0x0D] = { .level = PEBS_LVL_RAM, .snoop = PEBS_SNOOP_MISS, .hit = Y, .remote = Y },
	/* I/O (Linux) */
	[0x0E] = { .level = PEBS_LVL_IO, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = U },
	/* uncached (Linux) */
	[0x0F] = { .level = PEBS_LVL_UNCACHED, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = U },
};

/* Table A + Linux ds.c intel_pmu_pebs_data_source_skl(pmem=false) (docs/hardware.md §5.3). */
static const struct pebs_ds_entry skl[16] = {
	/* Table A */
	[0x00] = { .level = PEBS_LVL_L3, .snoop = PEBS_SNOOP_NA, .hit = N, .remote = U },
	/* Table A */
	[0x01] = { .level = PEBS_LVL_L1, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = N },
	/* Table A */
	[0x02] = { .level = PEBS_LVL_LFB, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = N },
	/* Table A */
	[0x03] = { .level = PEBS_LVL_L2, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = N },
	/* Table A */
	[0x04] = { .level = PEBS_LVL_L3, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = N },
	/* Table A */
	[0x05] = { .level = PEBS_LVL_L3, .snoop = PEBS_SNOOP_MISS, .hit = Y, .remote = N },
	/* Table A */
	[0x06] = { .level = PEBS_LVL_L3, .snoop = PEBS_SNOOP_HIT, .hit = Y, .remote = N },
	/* Table A */
	[0x07] = { .level = PEBS_LVL_L3, .snoop = PEBS_SNOOP_HITM, .hit = Y, .remote = N },
	/* _skl: L4, snoop Hit */
	[0x08] = { .level = PEBS_LVL_L4, .snoop = PEBS_SNOOP_HIT, .hit = Y, .remote = N },
	/* _skl: remote L4, snoop Hit */
	[0x09] = { .level = PEBS_LVL_L4, .snoop = PEBS_SNOOP_HIT, .hit = Y, .remote = Y },
	/* Table A */
	[0x0A] = { .level = PEBS_LVL_RAM, .snoop = PEBS_SNOOP_HIT, .hit = Y, .remote = N },
	/* _skl: remote RAM, snoop None */
	[0x0B] = { .level = PEBS_LVL_RAM, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = Y },
	/* _skl: remote any cache, Fwd */
	[0x0C] = { .level = PEBS_LVL_ANY_CACHE, .snoop = PEBS_SNOOP_FWD, .hit = Y, .remote = Y },
	/* _skl: remote any cache, HitM */
	[0x0D] = { .level = PEBS_LVL_ANY_CACHE, .snoop = PEBS_SNOOP_HITM, .hit = Y, .remote = Y },
	/* Table A */
	[0x0E] = { .level = PEBS_LVL_IO, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = U },
	/* Table A */
	[0x0F] = { .level = PEBS_LVL_UNCACHED, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = U },
};

/* Table A + intel_pmu_pebs_data_source_skl(pmem=true): only 08/09 differ from skl[]. */
static const struct pebs_ds_entry skl_pmem[16] = {
	/* Table A */
	[0x00] = { .level = PEBS_LVL_L3, .snoop = PEBS_SNOOP_NA, .hit = N, .remote = U },
	/* Table A */
	[0x01] = { .level = PEBS_LVL_L1, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = N },
	/* Table A */
	[0x02] = { .level = PEBS_LVL_LFB, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = N },
	/* Table A */
	[0x03] = { .level = PEBS_LVL_L2, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = N },
	/* Table A */
	[0x04] = { .level = PEBS_LVL_L3, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = N },
	/* Table A */
	[0x05] = { .level = PEBS_LVL_L3, .snoop = PEBS_SNOOP_MISS, .hit = Y, .remote = N },
	/* Table A */
	[0x06] = { .level = PEBS_LVL_L3, .snoop = PEBS_SNOOP_HIT, .hit = Y, .remote = N },
	/* Table A */
	[0x07] = { .level = PEBS_LVL_L3, .snoop = PEBS_SNOOP_HITM, .hit = Y, .remote = N },
	/* _skl(pmem): PMEM, snoop Hit */
	[0x08] = { .level = PEBS_LVL_PMEM, .snoop = PEBS_SNOOP_HIT, .hit = Y, .remote = N },
	/* _skl(pmem): remote PMEM */
	[0x09] = { .level = PEBS_LVL_PMEM, .snoop = PEBS_SNOOP_HIT, .hit = Y, .remote = Y },
	/* Table A */
	[0x0A] = { .level = PEBS_LVL_RAM, .snoop = PEBS_SNOOP_HIT, .hit = Y, .remote = N },
	/* _skl */
	[0x0B] = { .level = PEBS_LVL_RAM, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = Y },
	/* _skl */
	[0x0C] = { .level = PEBS_LVL_ANY_CACHE, .snoop = PEBS_SNOOP_FWD, .hit = Y, .remote = Y },
	/* _skl */
	[0x0D] = { .level = PEBS_LVL_ANY_CACHE, .snoop = PEBS_SNOOP_HITM, .hit = Y, .remote = Y },
	/* Table A */
	[0x0E] = { .level = PEBS_LVL_IO, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = U },
	/* Table A */
	[0x0F] = { .level = PEBS_LVL_UNCACHED, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = U },
};

/* Table A + Linux ds.c intel_pmu_pebs_data_source_grt (Gracemont, docs/hardware.md §5.3). */
static const struct pebs_ds_entry grt[16] = {
	/* Table A */
	[0x00] = { .level = PEBS_LVL_L3, .snoop = PEBS_SNOOP_NA, .hit = N, .remote = U },
	/* Table A */
	[0x01] = { .level = PEBS_LVL_L1, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = N },
	/* Table A */
	[0x02] = { .level = PEBS_LVL_LFB, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = N },
	/* Table A */
	[0x03] = { .level = PEBS_LVL_L2, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = N },
	/* Table A */
	[0x04] = { .level = PEBS_LVL_L3, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = N },
	/* _grt: L3 hit, snoop Hit */
	[0x05] = { .level = PEBS_LVL_L3, .snoop = PEBS_SNOOP_HIT, .hit = Y, .remote = N },
	/* _grt: L3 hit, HitM */
	[0x06] = { .level = PEBS_LVL_L3, .snoop = PEBS_SNOOP_HITM, .hit = Y, .remote = N },
	/* Table A */
	[0x07] = { .level = PEBS_LVL_L3, .snoop = PEBS_SNOOP_HITM, .hit = Y, .remote = N },
	/* _grt: L3 hit, snoopX Fwd */
	[0x08] = { .level = PEBS_LVL_L3, .snoop = PEBS_SNOOP_FWD, .hit = Y, .remote = N },
	/* Table A */
	[0x09] = { .level = PEBS_LVL_L3, .snoop = PEBS_SNOOP_HITM, .hit = Y, .remote = Y },
	/* Table A */
	[0x0A] = { .level = PEBS_LVL_RAM, .snoop = PEBS_SNOOP_HIT, .hit = Y, .remote = N },
	/* Table A (level RAM, see top) */
	[0x0B] = { .level = PEBS_LVL_RAM, .snoop = PEBS_SNOOP_HIT, .hit = Y, .remote = Y },
	/* Table A */
	[0x0C] = { .level = PEBS_LVL_RAM, .snoop = PEBS_SNOOP_MISS, .hit = Y, .remote = N },
	/* Table A */
	[0x0D] = { .level = PEBS_LVL_RAM, .snoop = PEBS_SNOOP_MISS, .hit = Y, .remote = Y },
	/* Table A */
	[0x0E] = { .level = PEBS_LVL_IO, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = U },
	/* Table A */
	[0x0F] = { .level = PEBS_LVL_UNCACHED, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = U },
};

/* Table A + Linux ds.c intel_pmu_pebs_data_source_cmt (Crestmont/Skymont, hardware.md §5.3). */
static const struct pebs_ds_entry cmt[16] = {
	/* Table A */
	[0x00] = { .level = PEBS_LVL_L3, .snoop = PEBS_SNOOP_NA, .hit = N, .remote = U },
	/* Table A */
	[0x01] = { .level = PEBS_LVL_L1, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = N },
	/* Table A */
	[0x02] = { .level = PEBS_LVL_LFB, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = N },
	/* Table A */
	[0x03] = { .level = PEBS_LVL_L2, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = N },
	/* Table A */
	[0x04] = { .level = PEBS_LVL_L3, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = N },
	/* Table A */
	[0x05] = { .level = PEBS_LVL_L3, .snoop = PEBS_SNOOP_MISS, .hit = Y, .remote = N },
	/* Table A */
	[0x06] = { .level = PEBS_LVL_L3, .snoop = PEBS_SNOOP_HIT, .hit = Y, .remote = N },
	/* _cmt: L3 hit, Fwd */
	[0x07] = { .level = PEBS_LVL_L3, .snoop = PEBS_SNOOP_FWD, .hit = Y, .remote = N },
	/* _cmt: L3 hit, HitM */
	[0x08] = { .level = PEBS_LVL_L3, .snoop = PEBS_SNOOP_HITM, .hit = Y, .remote = N },
	/* Table A */
	[0x09] = { .level = PEBS_LVL_L3, .snoop = PEBS_SNOOP_HITM, .hit = Y, .remote = Y },
	/* _cmt: local RAM, snoop None */
	[0x0A] = { .level = PEBS_LVL_RAM, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = N },
	/* _cmt: remote RAM, None */
	[0x0B] = { .level = PEBS_LVL_RAM, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = Y },
	/* _cmt: remote RAM, Fwd */
	[0x0C] = { .level = PEBS_LVL_RAM, .snoop = PEBS_SNOOP_FWD, .hit = Y, .remote = Y },
	/* _cmt: remote RAM, HitM */
	[0x0D] = { .level = PEBS_LVL_RAM, .snoop = PEBS_SNOOP_HITM, .hit = Y, .remote = Y },
	/* Table A */
	[0x0E] = { .level = PEBS_LVL_IO, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = U },
	/* Table A */
	[0x0F] = { .level = PEBS_LVL_UNCACHED, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = U },
};

/* Table B, Lion Cove, 8-bit codes: Linux ds.c lnc_pebs_data_source[]; 0x12..0xFF reserved
 * (docs/hardware.md §5.4). */
static const struct pebs_ds_entry lnc[0x12] = {
	/* L3 miss, unknown */
	[0x00] = { .level = PEBS_LVL_L3, .snoop = PEBS_SNOOP_NA, .hit = N, .remote = U },
	/* L1 hit */
	[0x01] = { .level = PEBS_LVL_L1, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = N },
	/* L1 hit */
	[0x02] = { .level = PEBS_LVL_L1, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = N },
	/* L1 miss-handling buffer hit */
	[0x03] = { .level = PEBS_LVL_LFB, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = N },
	/* reserved */
	[0x04] = RSV,
	/* L2 hit */
	[0x05] = { .level = PEBS_LVL_L2, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = N },
	/* L2 miss-handling buffer hit */
	[0x06] = { .level = PEBS_LVL_L2_MHB, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = N },
	/* reserved */
	[0x07] = RSV,
	/* L3 hit, snoop None */
	[0x08] = { .level = PEBS_LVL_L3, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = N },
	/* reserved */
	[0x09] = RSV,
	/* reserved */
	[0x0A] = RSV,
	/* reserved */
	[0x0B] = RSV,
	/* L3 hit, snoopX Fwd */
	[0x0C] = { .level = PEBS_LVL_L3, .snoop = PEBS_SNOOP_FWD, .hit = Y, .remote = N },
	/* L3 hit, HitM */
	[0x0D] = { .level = PEBS_LVL_L3, .snoop = PEBS_SNOOP_HITM, .hit = Y, .remote = N },
	/* reserved */
	[0x0E] = RSV,
	/* L3 miss with snoop HitM */
	[0x0F] = { .level = PEBS_LVL_L3, .snoop = PEBS_SNOOP_HITM, .hit = N, .remote = N },
	/* memory-side cache hit */
	[0x10] = { .level = PEBS_LVL_MSC, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = N },
	/* local memory */
	[0x11] = { .level = PEBS_LVL_RAM, .snoop = PEBS_SNOOP_NONE, .hit = Y, .remote = N },
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
