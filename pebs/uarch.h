/*
 * uarch.h: per-microarchitecture PEBS facts as one table (pebs/pmu_tables.c), keyed by
 * DisplayFamily/DisplayModel and, on hybrid parts, the core type of CPUID.1AH.
 * The rows are generated (pebs/pmu_tables.c, docs/tables.md); facts and their primary
 * sources: docs/hardware.md §4.1 (formats), §5.3 (data-source tables), §6 (events and
 * counters), §7.1 (quirks), §9 (model numbers). A model not in the table gets the
 * architectural path (baseline PEBS, perfmon >= 5) or a SKIP with the reason.
 */
#ifndef PEBS_UARCH_H
#define PEBS_UARCH_H

#include <stdbool.h>
#include <stdint.h>

/* Which data-source encoding a load-latency record carries (§5.1-5.5). The decoder keys its
 * tables on the same family/model; this id names them. */
enum pebs_dsrc_id {
	DSRC_NONE,	/* no load-latency facility */
	DSRC_NHM,	/* table A with the _nhm patch, 4-bit index; no TLB/lock bits */
	DSRC_SNB,	/* table A as is (SNB, IVB, HSW, BDW) */
	DSRC_SKL,	/* table A + _skl(pmem=false) */
	DSRC_SKL_PMEM,	/* table A + _skl(pmem=true): SKX, ICX, SPR, EMR, GNR */
	DSRC_GRT,	/* table A + _grt (Gracemont) */
	DSRC_CMT,	/* table A + _cmt (Crestmont, Skymont) */
	DSRC_LNC,	/* table B, 8-bit index (Lion Cove) */
	DSRC_PNC,	/* table C (Panther Cove; Coyote Cove) */
	DSRC_ARW,	/* table C layout, Arctic Wolf L2-hit codes (Nova Lake E-core) */
};

/* Quirks (§7.1), one bit each. */
enum pebs_quirk {
	Q_PEBS_BROKEN	= 1u << 0,	/* Core2 Merom: AJ67/AJ68/AJ69/AJ106, PEBS disabled */
	Q_BUF_ONE_PAGE	= 1u << 1,	/* Core2 fmt 0: GLOBAL_CTRL write hangs with buffer > 4 KiB */
	Q_NHM_CTR_RESET	= 1u << 2,	/* AAK100/AAP53/BD53: magic-event counter reset */
	Q_MIN_PERIOD_32	= 1u << 3,	/* NHM/WSM minimum sampling period 32 */
	Q_UCODE_GATE	= 1u << 4,	/* PEBS broken below a microcode revision (pebs_ucode_gate) */
	Q_HT_ERRATUM	= 1u << 5,	/* BJ122/BV98/HSD29: 0xD0-0xD3 corrupt the SMT sibling */
	Q_LL_NEEDS_AUX	= 1u << 6,	/* SPR/EMR, ADL/RPL P-core: MEM_LOADS_AUX with 0x01CD */
	Q_PS_EN_STORE	= 1u << 7,	/* SNB/IVB precise store needs PEBS_ENABLE[63] */
	Q_TFA_PMC3	= 1u << 8,	/* SKL family TSX_FORCE_ABORT: microcode may use PMC3 */
	Q_HSW_PERIOD	= 1u << 9,	/* HSW11: period >= 32, INST_RETIRED.ALL >= 128 */
	Q_BDW_PERIOD	= 1u << 10,	/* BDM11/BDM55: INST_RETIRED.ALL >= 128, multiple of 64 */
};

/* One row per DisplayFamily/DisplayModel and hybrid core type, generated into
 * pebs/pmu_tables.c by tools/gen-tables.py from Intel perfmon and data/tables/uarch.toml. */
struct pebs_uarch {
	const char *name;		/* the microarchitecture (group) this row belongs to */
	uint32_t family;		/* DisplayFamily */
	uint8_t model;			/* DisplayModel */
	uint8_t core_type;		/* CPUID.1AH:EAX[31:24] on hybrid parts, 0 = any */
	uint32_t native;		/* CPUID.1AH:EAX[23:0] native model id, 0 = any */
	uint16_t steppings;		/* bit s set: stepping s is covered (perfmon mapfile) */
	uint8_t pebs_fmt;		/* record format the family reports (0xff = varies) */
	uint32_t pebs_gp;		/* GP counters that can PEBS (0: all, baseline) */
	uint16_t ll_event;		/* load-latency event, umask<<8|event; 0: none */
	uint32_t ll_gp;			/* GP counters the load-latency event may use */
	uint16_t st_event;		/* store-sampling event; 0: none */
	uint32_t st_gp;
	uint16_t aux_event;		/* event that must run beside ll_event; 0: none */
	enum pebs_dsrc_id dsrc;
	uint32_t quirks;		/* enum pebs_quirk */
	const char *errata;		/* perfmon's Errata for the events used, or NULL */
	const char *no_ll;		/* why there is no load-latency event, or NULL */
	const char *src;		/* primary sources of the hand facts */
};

/* A microcode gate: PEBS is broken on this stepping below min_rev (§7.1). */
struct pebs_ucode_gate {
	uint32_t family, model, stepping, min_rev;
};

extern const struct pebs_uarch pebs_uarch_table[];
extern const unsigned pebs_uarch_count;
/* The architectural row: baseline PEBS on a model the table does not know. */
extern const struct pebs_uarch pebs_uarch_arch;

/* The row for family/model/core type (and native model id where two core types share one
 * CPUID.1AH core type, as on Arrow Lake-H; 0 = unknown), or NULL. A row with core_type 0
 * matches any core. */
const struct pebs_uarch *pebs_uarch_find(uint32_t family, uint32_t model, uint8_t core_type,
					 uint32_t native);
/* Minimum microcode revision for PEBS on this part, 0 if none is known. */
uint32_t pebs_ucode_min(uint32_t family, uint32_t model, uint32_t stepping);
const char *pebs_dsrc_name(enum pebs_dsrc_id id);

#endif
