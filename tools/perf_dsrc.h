/*
 * perf_dsrc.h: Linux perf's `union perf_mem_data_src` (PERF_SAMPLE_DATA_SRC,
 * include/uapi/linux/perf_event.h) decoded into this project's data-source terms
 * (pebs/datasrc.h: level, snoop, hit, remote, STLB miss, lock, blocked), so that
 * tools/loadbench --pebs aggregates Linux's samples with sample/aggregate.c and prints the same
 * per-level `lvl` lines as the kernel (docs/output.md §3). Pure: no Linux header needed, the
 * field positions are the table in perf_dsrc.c.
 */
#ifndef TOOLS_PERF_DSRC_H
#define TOOLS_PERF_DSRC_H

#include <stdint.h>

#include "sample/aggregate.h"
#include "pebs/datasrc.h"

/* Fields of union perf_mem_data_src, from bit 0 up. */
enum perf_dsrc_field {
	PDS_OP, PDS_LVL, PDS_SNOOP, PDS_LOCK, PDS_DTLB, PDS_LVL_NUM, PDS_REMOTE, PDS_SNOOPX,
	PDS_BLK, PDS_HOPS, PDS_NFIELDS
};
uint64_t perf_dsrc_field(uint64_t data_src, enum perf_dsrc_field f);
/* Build a data_src word from field values (tests, fixtures). */
uint64_t perf_dsrc_make(const uint64_t v[PDS_NFIELDS]);

/* Bits of the fields this decoder reads (values as in perf_event.h, unshifted). */
#define PDS_LVL_NA		0x01
#define PDS_LVL_HIT		0x02
#define PDS_LVL_MISS		0x04
#define PDS_LVL_L1		0x08
#define PDS_LVL_LFB		0x10
#define PDS_LVL_L2		0x20
#define PDS_LVL_L3		0x40
#define PDS_LVL_LOC_RAM		0x80
#define PDS_LVL_REM_RAM1	0x100
#define PDS_LVL_REM_RAM2	0x200
#define PDS_LVL_REM_CCE1	0x400
#define PDS_LVL_REM_CCE2	0x800
#define PDS_LVL_IO		0x1000
#define PDS_LVL_UNC		0x2000
#define PDS_LVLNUM_NA		0x0f
#define PDS_SNOOP_NONE		0x02
#define PDS_SNOOP_HIT		0x04
#define PDS_SNOOP_MISS		0x08
#define PDS_SNOOP_HITM		0x10
#define PDS_SNOOPX_FWD		0x01
#define PDS_SNOOPX_PEER		0x02
#define PDS_LOCK_NA		0x01
#define PDS_LOCK_LOCKED		0x02
#define PDS_TLB_HIT		0x02
#define PDS_TLB_MISS		0x04
#define PDS_BLK_NA		0x01
#define PDS_BLK_DATA		0x02
#define PDS_BLK_ADDR		0x04

/*
 * Decode into d (d->raw = data_src, d->code = the level number or level bits used). The level
 * comes from mem_lvl_num when it is set and not N/A (perf prefers it the same way), else from
 * the single level bit of mem_lvl; several level bits ("L1 or L2" in perf's words) or a level
 * number with no level of ours decode as PEBS_LVL_NA with d->reserved set.
 */
void perf_dsrc_decode(uint64_t data_src, struct pebs_dsrc *d);

/* One perf sample into the aggregate (sample/aggregate.c): its data_src decoded, its weight the
 * latency in core cycles (Intel load latency); weight 0 counts as a record without latency. */
void perf_dsrc_agg_add(struct pebs_agg *a, uint64_t data_src, uint64_t weight);

#endif
