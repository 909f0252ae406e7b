/*
 * datasrc.c: lookups over the model table (DisplayFamily_DisplayModel + core type ->
 * data-source table, aux bit layout, store kind, default PEBS record format; its rows are
 * generated into pebs/pmu_tables.c) and the aux-word decoder.
 * SDM Vol. 3B "Performance Monitoring" (load latency facility, precise store, DataLA);
 * Linux arch/x86/events/intel/ds.c (intel_x86_pebs_dse layouts, *_latency_data) and core.c
 * intel_pmu_init (table per model). § = docs/hardware.md: §4.1 format per model, §5.1 bit
 * layouts, §5.3 table per model, §6 store events, §9 model numbers.
 */
#include "pebs/datasrc.h"
#include "pebs/datasrc_tables.h"

#include <stddef.h>

/* The model rows are generated (pebs/pmu_tables.c, tools/gen-tables.py) from the same hand
 * entries as the event rows of pebs/uarch.h, so the two cannot disagree about a core type. */

const struct pebs_model *pebs_model_at(unsigned i)
{
	return i < pebs_model_count ? &pebs_model_table[i] : NULL;
}

const struct pebs_model *pebs_model_lookup(unsigned family, unsigned model, enum pebs_core core)
{
	for (unsigned i = 0; i < pebs_model_count; i++) {
		const struct pebs_model *m = &pebs_model_table[i];

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
	if (m->table == PEBS_DS_PNC || m->table == PEBS_DS_ARW) {
		pebs_dsrc_decode_pnc(aux, ev == PEBS_EV_STORE, m->table == PEBS_DS_ARW, d);
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

const char *pebs_ds_table_name(unsigned table)
{
	static const char *const name[PEBS_DS_TABLE_COUNT] = {
		[PEBS_DS_NONE] = "none",	[PEBS_DS_NHM] = "nhm",
		[PEBS_DS_SNB] = "snb",		[PEBS_DS_SKL] = "skl",
		[PEBS_DS_SKL_PMEM] = "skl-pmem", [PEBS_DS_GRT] = "grt",
		[PEBS_DS_CMT] = "cmt",		[PEBS_DS_LNC] = "lnc",
		[PEBS_DS_PNC] = "pnc",		[PEBS_DS_ARW] = "arw",
	};
	return table < sizeof(name) / sizeof(name[0]) ? name[table] : "none";
}
