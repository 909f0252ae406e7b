/*
 * ibs_decode.h: AMD IBS op samples decoded into this project's data-source form (struct
 * pebs_dsrc: level, remote, TLB, lock; plus latency and addresses), so the PEBS aggregate,
 * tables and verdicts take IBS samples unchanged. Per-family rows (Zen 1-2, Zen 3, Zen 4,
 * Zen 5) decide the DataSrc table and which fields are trustworthy. AMD64 APM Vol. 2
 * "Instruction-Based Sampling"; family 17h/19h/1Ah PPR IBS_OP_DATA2/3; Linux
 * arch/x86/events/amd/ibs.c perf_ibs_get_mem_lvl(). Facts and the dump layout: docs/ibs.md.
 * Pure.
 */
#ifndef IBS_IBS_DECODE_H
#define IBS_IBS_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sample/aggregate.h"
#include "sample/dsrc.h"

/* One op sample as the drain reads it: the dump layout of docs/ibs.md "Dump layout"
 * (8 little-endian 64-bit words, MSR order C001_1033h..C001_1039h, then IBS_OP_DATA4). */
enum ibs_word { IBS_W_CTL, IBS_W_RIP, IBS_W_DATA, IBS_W_DATA2, IBS_W_DATA3, IBS_W_LINADDR,
		IBS_W_PHYSADDR, IBS_W_DATA4, IBS_NWORDS };
#define IBS_SAMPLE_BYTES (IBS_NWORDS * 8u)

struct ibs_sample {
	uint64_t w[IBS_NWORDS];
};

/* DataSrc tables (docs/ibs.md "DataSrc"). */
enum ibs_dsrc_table {
	IBS_DS_LEGACY = 0,	/* DataSrc[2:0]: family 17h, 19h Zen 3 */
	IBS_DS_EXT,		/* DataSrc[4:0] (CPUID 8000_001BH EAX[11]): Zen 4, Zen 5 */
	IBS_DS_TABLE_COUNT
};

struct ibs_family {
	const char *name;
	uint16_t family;		/* DisplayFamily */
	uint8_t model_lo, model_hi;	/* DisplayModel range, inclusive */
	uint8_t table;			/* enum ibs_dsrc_table */
	bool l2miss;			/* IBS_OP_DATA3[20] L2Miss implemented */
	bool erratum_1293;		/* DATA2 / L2Miss invalid with SwPf or DcMissNoMabAlloc */
	bool hit_st_valid;		/* DATA2 CacheHitSt usable */
	bool erratum_1606;		/* load-latency filter needs L3MissOnly with it */
	bool strmst_rmtsocket;		/* DATA2[8] StrmSt, DATA2[9] RmtSocket (Zen 6) */
	const char *source;
};

/* The row for a CPU; NULL for a family no row knows (not Zen). */
const struct ibs_family *ibs_family_lookup(unsigned family, unsigned model);
const struct ibs_family *ibs_family_at(unsigned i);

/* What one sample says. */
struct ibs_op {
	bool valid;		/* IbsOpVal was set in the copied IBS_OP_CTL */
	bool load, store;	/* IbsLdOp / IbsStOp */
	bool dc_miss;		/* IbsDcMiss */
	bool has_lat;		/* IbsDcMissLat valid: a load that missed the DC */
	uint16_t lat;		/* IbsDcMissLat, core cycles */
	uint16_t tag_to_ret;	/* IbsTagToRetCtr */
	bool has_addr, has_phys, has_rip;
	uint64_t addr, phys, rip;
	uint8_t code;		/* DataSrc as the row's table reads it */
	bool data2_ignored;	/* erratum 1293 applied: DATA2 and L2Miss not trusted */
	bool strm_st;		/* DATA2[8] StrmSt: a streaming (non-temporal) store (Zen 6) */
	bool rmt_socket;	/* DATA2[9] RmtSocket: served from the other socket (Zen 6) */
	struct pebs_dsrc d;	/* level/remote/snoop/TLB/lock in the PEBS decoder's terms */
};

/* Decode one sample (fam NULL: every level N/A). ext_dsrc: CPUID 8000_001BH EAX[11] as
 * probed, which selects the DataSrc table as Linux does; a row's table is the default. */
void ibs_decode(const struct ibs_family *fam, bool ext_dsrc, const struct ibs_sample *s,
		struct ibs_op *op);
/* Load samples only: decode + aggregate. Returns true when the sample was a load. */
bool ibs_agg_add(struct pebs_agg *a, const struct ibs_family *fam, bool ext_dsrc,
		 const struct ibs_sample *s);

/* Sample from / to the dump bytes (little-endian). */
void ibs_sample_read(struct ibs_sample *s, const uint8_t *p);
void ibs_sample_write(const struct ibs_sample *s, uint8_t *p);

/* Table lookup used by ibs_decode: the level/remote of DataSrc code in a table. */
struct ibs_dsrc_row {
	uint8_t level;		/* enum pebs_level */
	bool remote;		/* another CCX or node by the code itself */
	bool rmt_node_applies;	/* RmtNode (DATA2[4]) marks this code remote */
	bool valid;		/* false: reserved / no valid status */
	const char *ppr;	/* the PPR's name for the code */
};
const struct ibs_dsrc_row *ibs_dsrc_row(unsigned table, unsigned code);
const char *ibs_dsrc_table_name(unsigned table);

#endif
