/*
 * uarch.h: per-microarchitecture PEBS facts as one table (pebs/uarch.c), keyed by
 * DisplayFamily/DisplayModel and, on hybrid parts, the core type of CPUID.1AH.
 * Facts and their primary sources: docs/hardware.md §4.1 (formats), §5.3 (data-source
 * tables), §6 (events and counters), §7.1 (quirks), §9 (model numbers). A model not in the table
 * gets the architectural path (baseline PEBS, perfmon >= 5) or a SKIP with the reason.
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
	DSRC_PNC,	/* table C (Panther Cove) */
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
	Q_HSW_PERIOD	= 1u << 9,	/* HSW11/BDM11/BDM55: INST_RETIRED.ALL period rules */
};

#define PEBS_MAX_MODELS 12

struct pebs_uarch {
	const char *name;
	uint32_t family;
	uint8_t models[PEBS_MAX_MODELS];	/* DisplayModel list, 0-terminated */
	uint8_t core_type;		/* CPUID.1AH core type on hybrid parts, 0 = any */
	uint8_t pebs_fmt;		/* record format the family reports (0xff = varies) */
	uint32_t pebs_gp;		/* GP counters that can PEBS (0: all, baseline) */
	uint16_t ll_event;		/* load-latency event, umask<<8|event; 0: none */
	uint32_t ll_gp;			/* GP counters the load-latency event may use */
	uint16_t st_event;		/* store-sampling event; 0: none */
	uint32_t st_gp;
	uint16_t aux_event;		/* event that must run beside ll_event; 0: none */
	enum pebs_dsrc_id dsrc;
	uint32_t quirks;		/* enum pebs_quirk */
	const char *src;		/* primary source + docs/hardware.md section */
};

/* A microcode gate: PEBS is broken on this stepping below min_rev (§7.1). */
struct pebs_ucode_gate {
	uint32_t family, model, stepping, min_rev;
};

extern const struct pebs_uarch pebs_uarch_table[];
extern const unsigned pebs_uarch_count;
/* The architectural row: baseline PEBS on a model the table does not know. */
extern const struct pebs_uarch pebs_uarch_arch;

/* The row for family/model/core type, or NULL. A row with core_type 0 matches any core. */
const struct pebs_uarch *pebs_uarch_find(uint32_t family, uint32_t model, uint8_t core_type);
/* Minimum microcode revision for PEBS on this part, 0 if none is known. */
uint32_t pebs_ucode_min(uint32_t family, uint32_t model, uint32_t stepping);
const char *pebs_dsrc_name(enum pebs_dsrc_id id);

#endif
