/*
 * datasrc.c: the model table (DisplayFamily_DisplayModel + core type -> data-source table,
 * aux bit layout, store kind, default PEBS record format) and the aux-word decoder.
 * SDM Vol. 3B "Performance Monitoring" (load latency facility, precise store, DataLA);
 * Linux arch/x86/events/intel/ds.c (intel_x86_pebs_dse layouts, *_latency_data) and core.c
 * intel_pmu_init (table per model). § = docs/hardware.md: §4.1 format per model, §5.1 bit
 * layouts, §5.3 table per model, §6 store events, §9 model numbers.
 */
#include "pebs/datasrc.h"
#include "pebs/datasrc_tables.h"

#include <stddef.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define P PEBS_CORE_P
#define E PEBS_CORE_E

/*
 * Hybrid models list the P-core row first. Default formats marked (*) are UNVERIFIED
 * (docs/hardware.md §4.1: format 4 vs 5 is not documented per model; the records are
 * identical). Each group's comment names its source; the model numbers are Linux
 * arch/x86/include/asm/intel-family.h.
 */
static const struct pebs_model models[] = {
	/* Core 2: fmt 0, no load latency (§4.1) */
	{ .family = 6, .model = 0x0F, .core = P, .format = 0, .name = "Merom",
	  .table = PEBS_DS_NONE, .store = PEBS_ST_NONE },
	{ .family = 6, .model = 0x16, .core = P, .format = 0, .name = "Merom-L",
	  .table = PEBS_DS_NONE, .store = PEBS_ST_NONE },
	{ .family = 6, .model = 0x17, .core = P, .format = 0, .name = "Penryn",
	  .table = PEBS_DS_NONE, .store = PEBS_ST_NONE },
	{ .family = 6, .model = 0x1D, .core = P, .format = 0, .name = "Dunnington",
	  .table = PEBS_DS_NONE, .store = PEBS_ST_NONE },
	/* NHM/WSM: SDM load-latency data-source table, fmt 1, no TLB/lock bits (§4.1, §5.1) */
	{ .family = 6, .model = 0x1E, .core = P, .format = 1, .name = "Nehalem",
	  .table = PEBS_DS_NHM, .store = PEBS_ST_NONE },
	{ .family = 6, .model = 0x1A, .core = P, .format = 1, .name = "Nehalem-EP",
	  .table = PEBS_DS_NHM, .store = PEBS_ST_NONE },
	{ .family = 6, .model = 0x2E, .core = P, .format = 1, .name = "Nehalem-EX",
	  .table = PEBS_DS_NHM, .store = PEBS_ST_NONE },
	{ .family = 6, .model = 0x25, .core = P, .format = 1, .name = "Westmere",
	  .table = PEBS_DS_NHM, .store = PEBS_ST_NONE },
	{ .family = 6, .model = 0x2C, .core = P, .format = 1, .name = "Westmere-EP",
	  .table = PEBS_DS_NHM, .store = PEBS_ST_NONE },
	{ .family = 6, .model = 0x2F, .core = P, .format = 1, .name = "Westmere-EX",
	  .table = PEBS_DS_NHM, .store = PEBS_ST_NONE },
	/* SNB/IVB: Table A, fmt 1, precise store (§4.1, §5.1, §5.3) */
	{ .family = 6, .model = 0x2A, .core = P, .format = 1, .name = "Sandy Bridge",
	  .table = PEBS_DS_SNB, .store = PEBS_ST_PRECISE },
	{ .family = 6, .model = 0x2D, .core = P, .format = 1, .name = "Sandy Bridge-X",
	  .table = PEBS_DS_SNB, .store = PEBS_ST_PRECISE },
	{ .family = 6, .model = 0x3A, .core = P, .format = 1, .name = "Ivy Bridge",
	  .table = PEBS_DS_SNB, .store = PEBS_ST_PRECISE },
	{ .family = 6, .model = 0x3E, .core = P, .format = 1, .name = "Ivy Bridge-X",
	  .table = PEBS_DS_SNB, .store = PEBS_ST_PRECISE },
	/* HSW/BDW: Table A, fmt 2, DataLA stores (§4.1, §5.1, §5.3) */
	{ .family = 6, .model = 0x3C, .core = P, .format = 2, .name = "Haswell",
	  .table = PEBS_DS_SNB, .store = PEBS_ST_DATALA },
	{ .family = 6, .model = 0x3F, .core = P, .format = 2, .name = "Haswell-X",
	  .table = PEBS_DS_SNB, .store = PEBS_ST_DATALA },
	{ .family = 6, .model = 0x45, .core = P, .format = 2, .name = "Haswell-L",
	  .table = PEBS_DS_SNB, .store = PEBS_ST_DATALA },
	{ .family = 6, .model = 0x46, .core = P, .format = 2, .name = "Haswell-G",
	  .table = PEBS_DS_SNB, .store = PEBS_ST_DATALA },
	{ .family = 6, .model = 0x3D, .core = P, .format = 2, .name = "Broadwell",
	  .table = PEBS_DS_SNB, .store = PEBS_ST_DATALA },
	{ .family = 6, .model = 0x47, .core = P, .format = 2, .name = "Broadwell-G",
	  .table = PEBS_DS_SNB, .store = PEBS_ST_DATALA },
	{ .family = 6, .model = 0x4F, .core = P, .format = 2, .name = "Broadwell-X",
	  .table = PEBS_DS_SNB, .store = PEBS_ST_DATALA },
	{ .family = 6, .model = 0x56, .core = P, .format = 2, .name = "Broadwell-D",
	  .table = PEBS_DS_SNB, .store = PEBS_ST_DATALA },
	/* Skylake family: _skl, fmt 3 (§4.1, §5.3) */
	{ .family = 6, .model = 0x4E, .core = P, .format = 3, .name = "Skylake-L",
	  .table = PEBS_DS_SKL, .store = PEBS_ST_DATALA },
	{ .family = 6, .model = 0x5E, .core = P, .format = 3, .name = "Skylake",
	  .table = PEBS_DS_SKL, .store = PEBS_ST_DATALA },
	{ .family = 6, .model = 0x8E, .core = P, .format = 3, .name = "Kaby Lake-L",
	  .table = PEBS_DS_SKL, .store = PEBS_ST_DATALA },
	{ .family = 6, .model = 0x9E, .core = P, .format = 3, .name = "Kaby/Coffee Lake",
	  .table = PEBS_DS_SKL, .store = PEBS_ST_DATALA },
	{ .family = 6, .model = 0xA5, .core = P, .format = 3, .name = "Comet Lake",
	  .table = PEBS_DS_SKL, .store = PEBS_ST_DATALA },
	{ .family = 6, .model = 0xA6, .core = P, .format = 3, .name = "Comet Lake-L",
	  .table = PEBS_DS_SKL, .store = PEBS_ST_DATALA },
	{ .family = 6, .model = 0x55, .core = P, .format = 3, .name = "Skylake-X/Cascade Lake",
	  .table = PEBS_DS_SKL_PMEM, .store = PEBS_ST_DATALA },
	/* Ice Lake / Tiger Lake / Rocket Lake: _skl, adaptive fmt 4 (§4.1, §5.3) */
	{ .family = 6, .model = 0x7D, .core = P, .format = 4, .name = "Ice Lake",
	  .table = PEBS_DS_SKL, .store = PEBS_ST_DATALA },
	{ .family = 6, .model = 0x7E, .core = P, .format = 4, .name = "Ice Lake-L",
	  .table = PEBS_DS_SKL, .store = PEBS_ST_DATALA },
	{ .family = 6, .model = 0x8C, .core = P, .format = 4, .name = "Tiger Lake-L",
	  .table = PEBS_DS_SKL, .store = PEBS_ST_DATALA },
	{ .family = 6, .model = 0x8D, .core = P, .format = 4, .name = "Tiger Lake",
	  .table = PEBS_DS_SKL, .store = PEBS_ST_DATALA },
	{ .family = 6, .model = 0xA7, .core = P, .format = 4, .name = "Rocket Lake",
	  .table = PEBS_DS_SKL, .store = PEBS_ST_DATALA },
	{ .family = 6, .model = 0x6A, .core = P, .format = 4, .name = "Ice Lake-X",
	  .table = PEBS_DS_SKL_PMEM, .store = PEBS_ST_DATALA },
	{ .family = 6, .model = 0x6C, .core = P, .format = 4, .name = "Ice Lake-D",
	  .table = PEBS_DS_SKL_PMEM, .store = PEBS_ST_DATALA },
	/* Golden/Raptor Cove servers: _skl(pmem), split latency, store latency (§5.3, §6) */
	{ .family = 6, .model = 0x8F, .core = P, .format = 4, .name = "Sapphire Rapids", /* (*) */
	  .table = PEBS_DS_SKL_PMEM, .store = PEBS_ST_TABLE, .split_latency = true, .blocked = true },
	{ .family = 6, .model = 0xCF, .core = P, .format = 4, .name = "Emerald Rapids", /* (*) */
	  .table = PEBS_DS_SKL_PMEM, .store = PEBS_ST_TABLE, .split_latency = true, .blocked = true },
	{ .family = 6, .model = 0xAD, .core = P, .format = 4, .name = "Granite Rapids-X", /* (*) */
	  .table = PEBS_DS_SKL_PMEM, .store = PEBS_ST_TABLE, .split_latency = true, .blocked = true },
	{ .family = 6, .model = 0xAE, .core = P, .format = 4, .name = "Granite Rapids-D", /* (*) */
	  .table = PEBS_DS_SKL_PMEM, .store = PEBS_ST_TABLE, .split_latency = true, .blocked = true },
	/* Alder/Raptor Lake hybrid: P Golden Cove _skl, E Gracemont _grt (§5.3) */
	{ .family = 6, .model = 0x97, .core = P, .format = 4, .name = "Alder Lake-S P", /* (*) */
	  .table = PEBS_DS_SKL, .store = PEBS_ST_TABLE, .split_latency = true, .blocked = true },
	{ .family = 6, .model = 0x97, .core = E, .format = 4, .name = "Alder Lake-S E",
	  .table = PEBS_DS_GRT, .store = PEBS_ST_TABLE, .split_latency = true, .blocked = true },
	{ .family = 6, .model = 0x9A, .core = P, .format = 4, .name = "Alder Lake-L P",
	  .table = PEBS_DS_SKL, .store = PEBS_ST_TABLE, .split_latency = true, .blocked = true },
	{ .family = 6, .model = 0x9A, .core = E, .format = 4, .name = "Alder Lake-L E",
	  .table = PEBS_DS_GRT, .store = PEBS_ST_TABLE, .split_latency = true, .blocked = true },
	{ .family = 6, .model = 0xB7, .core = P, .format = 4, .name = "Raptor Lake P",
	  .table = PEBS_DS_SKL, .store = PEBS_ST_TABLE, .split_latency = true, .blocked = true },
	{ .family = 6, .model = 0xB7, .core = E, .format = 4, .name = "Raptor Lake E",
	  .table = PEBS_DS_GRT, .store = PEBS_ST_TABLE, .split_latency = true, .blocked = true },
	{ .family = 6, .model = 0xBA, .core = P, .format = 4, .name = "Raptor Lake-P P",
	  .table = PEBS_DS_SKL, .store = PEBS_ST_TABLE, .split_latency = true, .blocked = true },
	{ .family = 6, .model = 0xBA, .core = E, .format = 4, .name = "Raptor Lake-P E",
	  .table = PEBS_DS_GRT, .store = PEBS_ST_TABLE, .split_latency = true, .blocked = true },
	{ .family = 6, .model = 0xBF, .core = P, .format = 4, .name = "Raptor Lake-S P",
	  .table = PEBS_DS_SKL, .store = PEBS_ST_TABLE, .split_latency = true, .blocked = true },
	{ .family = 6, .model = 0xBF, .core = E, .format = 4, .name = "Raptor Lake-S E",
	  .table = PEBS_DS_GRT, .store = PEBS_ST_TABLE, .split_latency = true, .blocked = true },
	{ .family = 6, .model = 0xBE, .core = E, .format = 4, .name = "Alder Lake-N",
	  .table = PEBS_DS_GRT, .store = PEBS_ST_TABLE, .split_latency = true, .blocked = true },
	/* Meteor Lake / Arrow Lake-U: P Redwood Cove _skl, E Crestmont _cmt (§5.3) */
	{ .family = 6, .model = 0xAA, .core = P, .format = 5, .name = "Meteor Lake-L P", /* (*) */
	  .table = PEBS_DS_SKL, .store = PEBS_ST_TABLE, .split_latency = true, .blocked = true },
	{ .family = 6, .model = 0xAA, .core = E, .format = 5, .name = "Meteor Lake-L E", /* (*) */
	  .table = PEBS_DS_CMT, .store = PEBS_ST_TABLE, .split_latency = true, .blocked = true },
	{ .family = 6, .model = 0xAC, .core = P, .format = 5, .name = "Meteor Lake P", /* (*) */
	  .table = PEBS_DS_SKL, .store = PEBS_ST_TABLE, .split_latency = true, .blocked = true },
	{ .family = 6, .model = 0xAC, .core = E, .format = 5, .name = "Meteor Lake E", /* (*) */
	  .table = PEBS_DS_CMT, .store = PEBS_ST_TABLE, .split_latency = true, .blocked = true },
	{ .family = 6, .model = 0xB5, .core = P, .format = 5, .name = "Arrow Lake-U P", /* (*) */
	  .table = PEBS_DS_SKL, .store = PEBS_ST_TABLE, .split_latency = true, .blocked = true },
	{ .family = 6, .model = 0xB5, .core = E, .format = 5, .name = "Arrow Lake-U E", /* (*) */
	  .table = PEBS_DS_CMT, .store = PEBS_ST_TABLE, .split_latency = true, .blocked = true },
	{ .family = 6, .model = 0xAF, .core = E, .format = 5, .name = "Sierra Forest", /* (*) */
	  .table = PEBS_DS_CMT, .store = PEBS_ST_TABLE, .split_latency = true, .blocked = true },
	{ .family = 6, .model = 0xB6, .core = E, .format = 5, .name = "Grand Ridge", /* (*) */
	  .table = PEBS_DS_CMT, .store = PEBS_ST_TABLE, .split_latency = true, .blocked = true },
	/* Lunar/Arrow Lake: P Lion Cove Table B, E Skymont _cmt, fmt 6 (§4.1, §5.3, §5.4) */
	{ .family = 6, .model = 0xBD, .core = P, .format = 6, .name = "Lunar Lake P",
	  .table = PEBS_DS_LNC, .store = PEBS_ST_TABLE, .split_latency = true, .blocked = true },
	{ .family = 6, .model = 0xBD, .core = E, .format = 6, .name = "Lunar Lake E",
	  .table = PEBS_DS_CMT, .store = PEBS_ST_TABLE, .split_latency = true, .blocked = true },
	{ .family = 6, .model = 0xC6, .core = P, .format = 6, .name = "Arrow Lake P",
	  .table = PEBS_DS_LNC, .store = PEBS_ST_TABLE, .split_latency = true, .blocked = true },
	{ .family = 6, .model = 0xC6, .core = E, .format = 6, .name = "Arrow Lake E",
	  .table = PEBS_DS_CMT, .store = PEBS_ST_TABLE, .split_latency = true, .blocked = true },
	{ .family = 6, .model = 0xC5, .core = P, .format = 6, .name = "Arrow Lake-H P",
	  .table = PEBS_DS_LNC, .store = PEBS_ST_TABLE, .split_latency = true, .blocked = true },
	{ .family = 6, .model = 0xC5, .core = E, .format = 6, .name = "Arrow Lake-H E",
	  .table = PEBS_DS_CMT, .store = PEBS_ST_TABLE, .split_latency = true, .blocked = true },
	/* Panther Lake: architectural PEBS (0xF, pebs/arch_record.c) (§4.1, §5.3, §5.4) */
	{ .family = 6, .model = 0xCC, .core = P, .format = 0xF, .name = "Panther Lake P",
	  .table = PEBS_DS_LNC, .store = PEBS_ST_TABLE, .split_latency = true, .blocked = true },
	{ .family = 6, .model = 0xCC, .core = E, .format = 0xF, .name = "Panther Lake E",
	  .table = PEBS_DS_CMT, .store = PEBS_ST_TABLE, .split_latency = true, .blocked = true },
	/* Tremont: adaptive fmt 4, no load-latency facility (§4.1, §6) */
	{ .family = 6, .model = 0x86, .core = E, .format = 4, .name = "Tremont-D",
	  .table = PEBS_DS_NONE, .store = PEBS_ST_NONE },
	{ .family = 6, .model = 0x96, .core = E, .format = 4, .name = "Tremont",
	  .table = PEBS_DS_NONE, .store = PEBS_ST_NONE },
	{ .family = 6, .model = 0x9C, .core = E, .format = 4, .name = "Tremont-L",
	  .table = PEBS_DS_NONE, .store = PEBS_ST_NONE },
	/* Diamond Rapids: arch PEBS, Panther Cove L2-hit/OMR table (§5.5; docs/arch-pebs.md) */
	{ .family = 0x13, .model = 0x01, .core = P, .format = 0xF, .name = "Diamond Rapids",
	  .table = PEBS_DS_PNC, .store = PEBS_ST_TABLE, .split_latency = true, .blocked = true },
	/* Clearwater Forest: arch PEBS, Darkmont E-cores, Crestmont layout (docs/arch-pebs.md) */
	{ .family = 6, .model = 0xDD, .core = E, .format = 0xF, .name = "Clearwater Forest",
	  .table = PEBS_DS_CMT, .store = PEBS_ST_TABLE, .split_latency = true, .blocked = true },
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
	if (m->table == PEBS_DS_PNC) {
		pebs_dsrc_decode_pnc(aux, ev == PEBS_EV_STORE, d);
		return;
	}
	if (m->table == PEBS_DS_NONE || m->table >= PEBS_DS_TABLE_COUNT)
		return;

	decode_layout(m, aux, ev == PEBS_EV_STORE, d);
	d->has_level = d->has_snoop = true;
	const struct pebs_ds_table_desc *t = &pebs_ds_tables[m->table];
	const struct pebs_ds_entry *e = d->code < t->nrows ? &t->rows[d->code] : NULL;

	/* NHM code 07 exists only on 06_2A/06_2E (SDM table 18-24, note 1). */
	if (m->table == PEBS_DS_NHM && d->code == 7 && !(m->model == 0x2A || m->model == 0x2E))
		e = NULL;
	pebs_dsrc_apply(d, e);
}
