/*
 * datasrc.h: PEBS data-source ("aux"/dse) decoding and the model table that selects the
 * data-source table, bit layout and default record format from DisplayFamily_DisplayModel and
 * the hybrid core type. Follows SDM Vol. 3B table 18-24 "Data Source Encoding for Load Latency
 * Record" and Linux arch/x86/events/intel/ds.c (docs/hardware.md §5: layouts §5.1, Table A
 * §5.2, model patches §5.3, Table B §5.4). Pure.
 */
#ifndef PEBS_DATASRC_H
#define PEBS_DATASRC_H

#include <stdbool.h>
#include <stdint.h>

#include "pebs/datasrc_tables.h"
#include "sample/dsrc.h"

/* How the store-event aux word is laid out (§5.1). */
enum pebs_store_kind {
	PEBS_ST_NONE = 0,	/* no store status (NHM store events) */
	PEBS_ST_PRECISE,	/* SNB/IVB precise store: 0 L1 hit, 4 STLB miss, 5 locked */
	PEBS_ST_DATALA,		/* HSW..ICL DataLA: 0 L1 hit, nothing else */
	PEBS_ST_TABLE,		/* store latency: same code table + bits as loads */
};

enum pebs_core { PEBS_CORE_ANY = 0, PEBS_CORE_P, PEBS_CORE_E };
enum pebs_event { PEBS_EV_LOAD = 0, PEBS_EV_STORE };

struct pebs_model {
	uint16_t family;	/* DisplayFamily */
	uint8_t model;		/* DisplayModel */
	uint8_t core;		/* enum pebs_core this row describes */
	uint8_t table;		/* enum pebs_ds_table */
	uint8_t store;		/* enum pebs_store_kind */
	uint8_t format;		/* default PERF_CAPABILITIES[11:8] */
	bool split_latency;	/* meminfo latency = instr 15:0 / cache 47:32 (ADL+) */
	bool blocked;		/* aux has data/address-blocked bits (GLC/GRT and later) */
	const char *name;
};

/* The model table: generated into pebs/pmu_tables.c by tools/gen-tables.py. */
extern const struct pebs_model pebs_model_table[];
extern const unsigned pebs_model_count;

/*
 * Model table lookup. core PEBS_CORE_ANY picks the P-core row on hybrid models and the only
 * row otherwise. NULL if the model is unknown or has no row for that core type.
 */
const struct pebs_model *pebs_model_lookup(unsigned family, unsigned model, enum pebs_core core);
/* True if the model has both a P- and an E-core row. */
bool pebs_model_is_hybrid(unsigned family, unsigned model);
/* Row i of the model table (for listing/tests); NULL past the end. */
const struct pebs_model *pebs_model_at(unsigned i);

/*
 * Decode an aux word for a model row (its table, bit layout, store kind; the model number
 * for NHM's code 07 footnote). m == NULL decodes as "no data source" (all NA/unknown).
 */
void pebs_dsrc_decode(const struct pebs_model *m, enum pebs_event ev, uint64_t aux,
		      struct pebs_dsrc *out);

/* The Panther Cove aux word (bit 8 selects the L2-hit or the OMR table; docs/arch-pebs.md,
 * "Panther Cove data source"); pebs_dsrc_decode calls it for PEBS_DS_PNC rows and, with
 * arw set (Arctic Wolf's own L2-hit codes, the same OMR codes), for PEBS_DS_ARW rows. */
void pebs_dsrc_decode_pnc(uint64_t aux, bool store, bool arw, struct pebs_dsrc *d);

const char *pebs_ds_table_name(unsigned table);

/* Every layout's source-code field lies below this: bits 8:0 on Panther Cove and Arctic Wolf
 * (bit 8 selects the OMR codes, datasrc_pantherc.c; Linux ds.c pnc_latency_data), 7:0 or
 * fewer on every other layout (§5.1). A scan for the codes a table can give runs over
 * 0..PEBS_DSRC_CODES-1 and keeps a value only where the decoded .code is that value. */
#define PEBS_DSRC_CODES 0x200

#endif
