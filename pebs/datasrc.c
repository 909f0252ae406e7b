/*
 * datasrc.c: the model table (DisplayFamily_DisplayModel + core type -> data-source table,
 * aux bit layout, store kind, default PEBS record format) and the aux-word decoder.
 * SDM Vol 3B ch.18 (load latency facility, precise store, DataLA); pebs-facts.md §4.1 (format
 * per model), §5.1 (bit layouts), §5.3 (table per model), §6 (store events), §9 (models).
 */
#include "pebs/datasrc.h"
#include "pebs/datasrc_tables.h"

#include <stddef.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define P PEBS_CORE_P
#define E PEBS_CORE_E
#define ROW(fam, mod, core, tab, st, fmt, split, blk, name) \
	{ fam, mod, core, PEBS_DS_##tab, PEBS_ST_##st, fmt, split, blk, name }

/*
 * Hybrid models list the P-core row first. Default formats marked (*) are UNVERIFIED in
 * pebs-facts.md §4.1 (format 4 vs 5 is not documented per model; the records are identical).
 */
static const struct pebs_model models[] = {
	/* Core 2: fmt 0, no load latency (§4.1) */
	ROW(6, 0x0F, P, NONE, NONE, 0, false, false, "Merom"),
	ROW(6, 0x16, P, NONE, NONE, 0, false, false, "Merom-L"),
	ROW(6, 0x17, P, NONE, NONE, 0, false, false, "Penryn"),
	ROW(6, 0x1D, P, NONE, NONE, 0, false, false, "Dunnington"),
	/* NHM/WSM: SDM table 18-24, fmt 1, no TLB/lock bits (§4.1, §5.1, §5.3) */
	ROW(6, 0x1E, P, NHM, NONE, 1, false, false, "Nehalem"),
	ROW(6, 0x1A, P, NHM, NONE, 1, false, false, "Nehalem-EP"),
	ROW(6, 0x2E, P, NHM, NONE, 1, false, false, "Nehalem-EX"),
	ROW(6, 0x25, P, NHM, NONE, 1, false, false, "Westmere"),
	ROW(6, 0x2C, P, NHM, NONE, 1, false, false, "Westmere-EP"),
	ROW(6, 0x2F, P, NHM, NONE, 1, false, false, "Westmere-EX"),
	/* SNB/IVB: Table A, fmt 1, precise store (§4.1, §5.1, §5.3) */
	ROW(6, 0x2A, P, SNB, PRECISE, 1, false, false, "Sandy Bridge"),
	ROW(6, 0x2D, P, SNB, PRECISE, 1, false, false, "Sandy Bridge-X"),
	ROW(6, 0x3A, P, SNB, PRECISE, 1, false, false, "Ivy Bridge"),
	ROW(6, 0x3E, P, SNB, PRECISE, 1, false, false, "Ivy Bridge-X"),
	/* HSW/BDW: Table A, fmt 2, DataLA stores (§4.1, §5.1, §5.3) */
	ROW(6, 0x3C, P, SNB, DATALA, 2, false, false, "Haswell"),
	ROW(6, 0x3F, P, SNB, DATALA, 2, false, false, "Haswell-X"),
	ROW(6, 0x45, P, SNB, DATALA, 2, false, false, "Haswell-L"),
	ROW(6, 0x46, P, SNB, DATALA, 2, false, false, "Haswell-G"),
	ROW(6, 0x3D, P, SNB, DATALA, 2, false, false, "Broadwell"),
	ROW(6, 0x47, P, SNB, DATALA, 2, false, false, "Broadwell-G"),
	ROW(6, 0x4F, P, SNB, DATALA, 2, false, false, "Broadwell-X"),
	ROW(6, 0x56, P, SNB, DATALA, 2, false, false, "Broadwell-D"),
	/* Skylake family: _skl, fmt 3 (§4.1, §5.3) */
	ROW(6, 0x4E, P, SKL, DATALA, 3, false, false, "Skylake-L"),
	ROW(6, 0x5E, P, SKL, DATALA, 3, false, false, "Skylake"),
	ROW(6, 0x8E, P, SKL, DATALA, 3, false, false, "Kaby Lake-L"),
	ROW(6, 0x9E, P, SKL, DATALA, 3, false, false, "Kaby/Coffee Lake"),
	ROW(6, 0xA5, P, SKL, DATALA, 3, false, false, "Comet Lake"),
	ROW(6, 0xA6, P, SKL, DATALA, 3, false, false, "Comet Lake-L"),
	ROW(6, 0x55, P, SKL_PMEM, DATALA, 3, false, false, "Skylake-X/Cascade Lake"),
	/* Ice Lake / Tiger Lake / Rocket Lake: _skl, adaptive fmt 4 (§4.1, §5.3) */
	ROW(6, 0x7D, P, SKL, DATALA, 4, false, false, "Ice Lake"),
	ROW(6, 0x7E, P, SKL, DATALA, 4, false, false, "Ice Lake-L"),
	ROW(6, 0x8C, P, SKL, DATALA, 4, false, false, "Tiger Lake-L"),
	ROW(6, 0x8D, P, SKL, DATALA, 4, false, false, "Tiger Lake"),
	ROW(6, 0xA7, P, SKL, DATALA, 4, false, false, "Rocket Lake"),
	ROW(6, 0x6A, P, SKL_PMEM, DATALA, 4, false, false, "Ice Lake-X"),
	ROW(6, 0x6C, P, SKL_PMEM, DATALA, 4, false, false, "Ice Lake-D"),
	/* Golden/Raptor Cove servers: _skl(pmem), split latency, store latency (§5.3, §6) */
	ROW(6, 0x8F, P, SKL_PMEM, TABLE, 4, true, true, "Sapphire Rapids"),	/* (*) */
	ROW(6, 0xCF, P, SKL_PMEM, TABLE, 4, true, true, "Emerald Rapids"),	/* (*) */
	ROW(6, 0xAD, P, SKL_PMEM, TABLE, 4, true, true, "Granite Rapids-X"),	/* (*) */
	ROW(6, 0xAE, P, SKL_PMEM, TABLE, 4, true, true, "Granite Rapids-D"),	/* (*) */
	/* Alder/Raptor Lake hybrid: P Golden Cove _skl, E Gracemont _grt (§5.3) */
	ROW(6, 0x97, P, SKL, TABLE, 4, true, true, "Alder Lake-S P"),	/* (*) */
	ROW(6, 0x97, E, GRT, TABLE, 4, true, true, "Alder Lake-S E"),
	ROW(6, 0x9A, P, SKL, TABLE, 4, true, true, "Alder Lake-L P"),
	ROW(6, 0x9A, E, GRT, TABLE, 4, true, true, "Alder Lake-L E"),
	ROW(6, 0xB7, P, SKL, TABLE, 4, true, true, "Raptor Lake P"),
	ROW(6, 0xB7, E, GRT, TABLE, 4, true, true, "Raptor Lake E"),
	ROW(6, 0xBA, P, SKL, TABLE, 4, true, true, "Raptor Lake-P P"),
	ROW(6, 0xBA, E, GRT, TABLE, 4, true, true, "Raptor Lake-P E"),
	ROW(6, 0xBF, P, SKL, TABLE, 4, true, true, "Raptor Lake-S P"),
	ROW(6, 0xBF, E, GRT, TABLE, 4, true, true, "Raptor Lake-S E"),
	ROW(6, 0xBE, E, GRT, TABLE, 4, true, true, "Alder Lake-N"),
	/* Meteor Lake / Arrow Lake-U: P Redwood Cove _skl, E Crestmont _cmt (§5.3) */
	ROW(6, 0xAA, P, SKL, TABLE, 5, true, true, "Meteor Lake-L P"),	/* (*) */
	ROW(6, 0xAA, E, CMT, TABLE, 5, true, true, "Meteor Lake-L E"),	/* (*) */
	ROW(6, 0xAC, P, SKL, TABLE, 5, true, true, "Meteor Lake P"),	/* (*) */
	ROW(6, 0xAC, E, CMT, TABLE, 5, true, true, "Meteor Lake E"),	/* (*) */
	ROW(6, 0xB5, P, SKL, TABLE, 5, true, true, "Arrow Lake-U P"),	/* (*) */
	ROW(6, 0xB5, E, CMT, TABLE, 5, true, true, "Arrow Lake-U E"),	/* (*) */
	ROW(6, 0xAF, E, CMT, TABLE, 5, true, true, "Sierra Forest"),	/* (*) */
	ROW(6, 0xB6, E, CMT, TABLE, 5, true, true, "Grand Ridge"),	/* (*) */
	/* Lunar/Arrow Lake: P Lion Cove Table B, E Skymont _cmt, fmt 6 (§4.1, §5.3, §5.4) */
	ROW(6, 0xBD, P, LNC, TABLE, 6, true, true, "Lunar Lake P"),
	ROW(6, 0xBD, E, CMT, TABLE, 6, true, true, "Lunar Lake E"),
	ROW(6, 0xC6, P, LNC, TABLE, 6, true, true, "Arrow Lake P"),
	ROW(6, 0xC6, E, CMT, TABLE, 6, true, true, "Arrow Lake E"),
	ROW(6, 0xC5, P, LNC, TABLE, 6, true, true, "Arrow Lake-H P"),
	ROW(6, 0xC5, E, CMT, TABLE, 6, true, true, "Arrow Lake-H E"),
	/* Panther Lake: architectural PEBS (0xF, not walked here) (§4.1, §5.3, §5.4) */
	ROW(6, 0xCC, P, LNC, TABLE, 0xF, true, true, "Panther Lake P"),
	ROW(6, 0xCC, E, CMT, TABLE, 0xF, true, true, "Panther Lake E"),
	/* Tremont: adaptive fmt 4, no load-latency facility (§4.1, §6) */
	ROW(6, 0x86, E, NONE, NONE, 4, false, false, "Tremont-D"),
	ROW(6, 0x96, E, NONE, NONE, 4, false, false, "Tremont"),
	ROW(6, 0x9C, E, NONE, NONE, 4, false, false, "Tremont-L"),
	/* Diamond Rapids: arch PEBS; Table C (§5.5) is not decoded: raw only */
	ROW(0x13, 0x01, P, NONE, NONE, 0xF, true, true, "Diamond Rapids"),
};

const struct pebs_model *pebs_model_at(unsigned i)
{
	return i < ARRAY_SIZE(models) ? &models[i] : NULL;
}

const struct pebs_model *pebs_model_lookup(unsigned family, unsigned model, enum pebs_core core)
{
	for (unsigned i = 0; i < ARRAY_SIZE(models); i++) {
		const struct pebs_model *m = &models[i];

		if (m->family != family || m->model != model)
			continue;
		if (core == PEBS_CORE_ANY || m->core == core)
			return m;
	}
	return NULL;
}

bool pebs_model_is_hybrid(unsigned family, unsigned model)
{
	return pebs_model_lookup(family, model, PEBS_CORE_P) &&
	       pebs_model_lookup(family, model, PEBS_CORE_E);
}

static uint8_t bit(uint64_t v, unsigned n)
{
	return (v >> n) & 1 ? PEBS_YES : PEBS_NO;
}

static void set_na(struct pebs_dsrc *d)
{
	d->level = PEBS_LVL_NA;
	d->snoop = PEBS_SNOOP_NA;
	d->hit = d->remote = PEBS_UNKNOWN;
}

/* Source code + STLB/lock/blocked bits per layout (§5.1). */
static void decode_layout(const struct pebs_model *m, uint64_t aux, bool store,
			  struct pebs_dsrc *d)
{
	switch (m->table) {
	case PEBS_DS_NHM:	/* bits 4/5 not valid on NHM/WSM (§5.1) */
		d->code = aux & 0xf;
		break;
	case PEBS_DS_GRT:	/* 3:0 source, 4 locked, 5 STLB miss, 6 data blocked (§5.1) */
		d->code = aux & 0xf;
		d->locked = bit(aux, 4);
		d->stlb_miss = bit(aux, 5);
		if (!store)
			d->data_blocked = bit(aux, 6);
		break;
	case PEBS_DS_CMT:	/* 4:0 source, 5 locked, 6 STLB miss, 7 fwd blocked (§5.1) */
		d->code = aux & 0x1f;
		d->locked = bit(aux, 5);
		d->stlb_miss = bit(aux, 6);
		if (!store)
			d->data_blocked = bit(aux, 7);
		break;
	case PEBS_DS_LNC:	/* 7:0 source, 10 STLB, 11 locked, 12/13 blocked (§5.1) */
		d->code = aux & 0xff;
		d->stlb_miss = bit(aux, 10);
		d->locked = bit(aux, 11);
		if (!store) {
			d->data_blocked = bit(aux, 12);
			d->addr_blocked = bit(aux, 13);
		}
		break;
	default:		/* ld_* / st_lat_*: 3:0, 4 STLB, 5 locked, 6/7 blocked (§5.1) */
		d->code = aux & 0xf;
		d->stlb_miss = bit(aux, 4);
		d->locked = bit(aux, 5);
		if (m->blocked && !store) {
			d->data_blocked = bit(aux, 6);
			d->addr_blocked = bit(aux, 7);
		}
		break;
	}
}

void pebs_dsrc_decode(const struct pebs_model *m, enum pebs_event ev, uint64_t aux,
		      struct pebs_dsrc *d)
{
	*d = (struct pebs_dsrc){ .raw = aux };
	d->stlb_miss = d->locked = d->data_blocked = d->addr_blocked = PEBS_UNKNOWN;
	set_na(d);
	if (m == NULL)
		return;

	if (ev == PEBS_EV_STORE && m->store != PEBS_ST_TABLE) {
		if (m->store == PEBS_ST_NONE)
			return;
		/* precise store / DataLA: bit 0 = L1 hit, else L1 miss (§5.1) */
		d->code = aux & 1;
		d->has_level = true;	/* no snoop field in a store status word */
		d->level = PEBS_LVL_L1;
		d->hit = bit(aux, 0);
		if (m->store == PEBS_ST_PRECISE) {
			d->stlb_miss = bit(aux, 4);
			d->locked = bit(aux, 5);
		}
		return;
	}
	if (m->table == PEBS_DS_NONE || m->table >= PEBS_DS_TABLE_COUNT)
		return;

	decode_layout(m, aux, ev == PEBS_EV_STORE, d);
	d->has_level = d->has_snoop = true;
	const struct pebs_ds_table_desc *t = &pebs_ds_tables[m->table];
	const struct pebs_ds_entry *e = d->code < t->nrows ? &t->rows[d->code] : NULL;

	/* NHM code 07 exists only on 06_2A/06_2E (S2 table 18-24 note 1). */
	if (m->table == PEBS_DS_NHM && d->code == 7 && !(m->model == 0x2A || m->model == 0x2E))
		e = NULL;
	if (e == NULL || e->rsv) {
		d->reserved = true;
		return;
	}
	d->level = e->level;
	d->snoop = e->snoop;
	d->hit = e->hit;
	d->remote = e->remote;
}
