/*
 * datasrc_tables.h: the per-code data-source tables behind datasrc.c (docs/hardware.md §5.2-§5.4,
 * SDM Vol 3B table 18-24). Internal to pebs/datasrc*.c and their tests.
 */
#ifndef PEBS_DATASRC_TABLES_H
#define PEBS_DATASRC_TABLES_H

#include <stddef.h>
#include <stdint.h>

#include "sample/dsrc.h"

/* Data-source tables (§5.2-§5.4). */
enum pebs_ds_table {
	PEBS_DS_NONE = 0,	/* no load-latency data source on this model */
	PEBS_DS_NHM,		/* SDM table 18-24 (NHM/WSM) */
	PEBS_DS_SNB,		/* Table A as is (SNB..BDW) */
	PEBS_DS_SKL,		/* Table A + _skl(pmem=false): L4 */
	PEBS_DS_SKL_PMEM,	/* Table A + _skl(pmem=true): PMEM */
	PEBS_DS_GRT,		/* Table A + _grt (Gracemont) */
	PEBS_DS_CMT,		/* Table A + _cmt (Crestmont/Skymont) */
	PEBS_DS_LNC,		/* Table B, 8-bit codes (Lion Cove) */
	PEBS_DS_PNC,		/* Panther Cove: L2-hit / OMR split, pebs/datasrc_pantherc.c */
	PEBS_DS_ARW,		/* Arctic Wolf: the same split, its own L2-hit codes */
	PEBS_DS_TABLE_COUNT
};

/* One encoding. rsv = reserved in this table (decoded as unknown, never guessed). */
struct pebs_ds_entry {
	uint8_t level;	/* enum pebs_level */
	uint8_t snoop;	/* enum pebs_snoop */
	uint8_t hit;	/* enum pebs_tri */
	uint8_t remote;	/* enum pebs_tri */
	uint8_t rsv;
};

struct pebs_ds_table_desc {
	const struct pebs_ds_entry *rows;
	unsigned nrows;		/* codes >= nrows are reserved */
};

/* A table row into d; NULL or a reserved row marks d reserved (level/snoop stay NA). */
static inline void pebs_dsrc_apply(struct pebs_dsrc *d, const struct pebs_ds_entry *e)
{
	if (e == NULL || e->rsv) {
		d->reserved = true;
		return;
	}
	d->level = e->level;
	d->snoop = e->snoop;
	d->hit = e->hit;
	d->remote = e->remote;
}

/* Indexed by enum pebs_ds_table; PEBS_DS_NONE has no rows. */
extern const struct pebs_ds_table_desc pebs_ds_tables[PEBS_DS_TABLE_COUNT];

#endif
