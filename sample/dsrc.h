/*
 * dsrc.h: where one sampled load got its data from, whichever sampler took it (Intel PEBS:
 * pebs/datasrc.h decodes the record's data-source word into it; AMD IBS: ibs/ibs_decode.h
 * decodes IBS_OP_DATA2/3 into it): the level, the snoop result, the remote/STLB/lock flags,
 * and their printable names. The names keep the pebs_ prefix they were born with; the level
 * set follows Linux's perf_mem_data_src (include/uapi/linux/perf_event.h). Pure.
 */
#ifndef SAMPLE_DSRC_H
#define SAMPLE_DSRC_H

#include <stdbool.h>
#include <stdint.h>

/* Cache/memory level; the names are the CLI's (PEBS_LVL_* <-> "L1", "LFB", ...). */
enum pebs_level {
	PEBS_LVL_NA = 0,
	PEBS_LVL_L1,
	PEBS_LVL_LFB,
	PEBS_LVL_L2,
	PEBS_LVL_L2_MHB,
	PEBS_LVL_L3,
	PEBS_LVL_L4,
	PEBS_LVL_MSC,
	PEBS_LVL_RAM,
	PEBS_LVL_PMEM,
	PEBS_LVL_CXL,
	PEBS_LVL_IO,
	PEBS_LVL_UNCACHED,
	PEBS_LVL_ANY_CACHE,
	PEBS_LVL_L0,		/* Panther Cove L0 (docs/arch-pebs.md, data source) */
	PEBS_LVL_COUNT
};

enum pebs_snoop {
	PEBS_SNOOP_NA = 0,
	PEBS_SNOOP_NONE,
	PEBS_SNOOP_HIT,
	PEBS_SNOOP_MISS,
	PEBS_SNOOP_HITM,
	PEBS_SNOOP_FWD,
	PEBS_SNOOP_PEER,
	PEBS_SNOOP_COUNT
};

/* A flag the layout may not carry: unknown is not false. */
enum pebs_tri { PEBS_NO = 0, PEBS_YES = 1, PEBS_UNKNOWN = 2 };

struct pebs_dsrc {
	uint64_t raw;		/* the aux word as written */
	uint16_t code;		/* the source field extracted by the layout */
	uint8_t level;		/* enum pebs_level */
	uint8_t snoop;		/* enum pebs_snoop */
	uint8_t hit, remote, stlb_miss, locked, data_blocked, addr_blocked; /* enum pebs_tri */
	bool reserved;		/* code is reserved/unknown in this table: level/snoop NA */
	/* Whether the record and its layout carry a level / a snoop result at all. False when
	 * the record has no aux word, the model has no data-source encoding for this event, or
	 * the store layout has no such field (docs/decoder.md "JSON contract": null). True with
	 * level/snoop NA when the table itself says "not available" or the code is reserved. */
	bool has_level, has_snoop;
};

/* CLI names ("L1", "RAM", ... / "NONE", "HITM", ...). */
const char *pebs_level_id(unsigned level);
const char *pebs_snoop_id(unsigned snoop);
/* perf-style human names: "L1 hit", "Local RAM hit", "Remote cache hit"; snoop "HitM". */
const char *pebs_dsrc_level_name(const struct pebs_dsrc *d);
const char *pebs_snoop_name(unsigned snoop);
#endif
