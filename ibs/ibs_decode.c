/*
 * ibs_decode.c: one IBS op sample -> struct ibs_op (see ibs_decode.h). The order of the level
 * decision follows Linux arch/x86/events/amd/ibs.c perf_ibs_get_mem_lvl(): uncached first
 * (DcMiss, L2Miss, DataSrc and DcMissLat are invalid for UC accesses), DC hit = L1, L2Miss
 * clear = L2, then DataSrc (load ops only, IBS_OP_DATA2 is valid for loads only), then a MAB
 * hit (DcMissNoMabAlloc) = LFB, else N/A. Erratum 1293 (family 19h models 00h-0Fh) drops
 * DATA2 and L2Miss on samples with SwPf or DcMissNoMabAlloc. Latency: IbsDcMissLat, valid
 * only for loads that missed the DC (APM Vol. 2 "IBS Op Data 3 Register"): L1 hits carry
 * none. docs/ibs.md has the tables and sources.
 */
#include "ibs/ibs_decode.h"
#include "ibs/ibs_regs.h"

#include <string.h>

static enum pebs_tri tri(bool b)
{
	return b ? PEBS_YES : PEBS_NO;
}

static void level(const struct ibs_family *fam, unsigned table, const struct ibs_sample *s,
		  struct ibs_op *op)
{
	uint64_t d2 = op->data2_ignored ? 0 : s->w[IBS_W_DATA2], d3 = s->w[IBS_W_DATA3];
	const struct ibs_dsrc_row *row;

	if (fam->strmst_rmtsocket) {	/* Zen 6: Linux tip e267b4178134 */
		op->strm_st = d2 & IBS_DATA2_STRM_ST;
		op->rmt_socket = d2 & IBS_DATA2_RMT_SOCKET;
	}
	op->code = (uint8_t)(d2 & IBS_DATA2_SRC_LO);
	if (table == IBS_DS_EXT)
		op->code |= (uint8_t)(((d2 & IBS_DATA2_SRC_HI) >> IBS_DATA2_SRC_HI_SHIFT) << 3);
	row = ibs_dsrc_row(table, op->code);
	op->d.raw = d2;
	op->d.code = op->code;
	op->d.has_level = true;
	/* UC, except code 7 (I/O: MMIO, config, PCI, APIC) in either table: Linux
	 * perf_ibs_get_mem_lvl() compares with IBS_DATA_SRC_EXT_IO, 7 in both */
	if ((d3 & IBS_DATA3_DC_UC_MEM_ACC) && op->code != 7) {
		op->d.level = PEBS_LVL_UNCACHED;
		return;
	}
	op->d.hit = PEBS_YES;	/* from here on: the level that served the load */
	op->d.remote = PEBS_NO;
	if (!op->dc_miss) {
		op->d.level = PEBS_LVL_L1;
		return;
	}
	if (fam->l2miss && !op->data2_ignored && !(d3 & IBS_DATA3_L2_MISS)) {
		op->d.level = PEBS_LVL_L2;
		return;
	}
	if (op->load && row->valid && row->level != PEBS_LVL_NA) {
		op->d.level = row->level;
		op->d.remote = tri(row->remote || op->rmt_socket || (row->rmt_node_applies &&
						   (d2 & IBS_DATA2_RMT_NODE)));
		if (fam->hit_st_valid && !(d2 & IBS_DATA2_CACHE_HIT_ST) &&
		    (row->level == PEBS_LVL_L3 || row->level == PEBS_LVL_ANY_CACHE)) {
			op->d.snoop = PEBS_SNOOP_HITM;	/* CacheHitSt 0: M state */
			op->d.has_snoop = true;
		}
		return;
	}
	if (d3 & IBS_DATA3_DC_MISS_NO_MAB_ALLOC) {
		op->d.level = PEBS_LVL_LFB;
		return;
	}
	op->d.level = PEBS_LVL_NA;
	op->d.hit = PEBS_UNKNOWN;
	op->d.reserved = op->load && op->code != 0 && !row->valid;
}

void ibs_decode(const struct ibs_family *fam, bool ext_dsrc, const struct ibs_sample *s,
		struct ibs_op *op)
{
	uint64_t d3 = s->w[IBS_W_DATA3];

	memset(op, 0, sizeof(*op));
	op->d.hit = op->d.remote = op->d.stlb_miss = op->d.locked = PEBS_UNKNOWN;
	op->d.data_blocked = op->d.addr_blocked = PEBS_UNKNOWN;
	op->valid = s->w[IBS_W_CTL] & IBS_OP_VAL;
	op->load = d3 & IBS_DATA3_LD_OP;
	op->store = d3 & IBS_DATA3_ST_OP;
	op->dc_miss = d3 & IBS_DATA3_DC_MISS;
	op->rip = s->w[IBS_W_RIP];
	op->has_rip = !(s->w[IBS_W_DATA] & IBS_OP_DATA_RIP_INVALID);
	op->tag_to_ret = (uint16_t)(s->w[IBS_W_DATA] >> IBS_OP_DATA_TAG_TO_RET_SHIFT);
	op->has_addr = d3 & IBS_DATA3_DC_LIN_ADDR_VALID;
	op->has_phys = d3 & IBS_DATA3_DC_PHY_ADDR_VALID;
	op->addr = op->has_addr ? s->w[IBS_W_LINADDR] : 0;
	op->phys = op->has_phys ? s->w[IBS_W_PHYSADDR] : 0;
	if (!fam || !(op->load || op->store))
		return;		/* not a memory op, or no row: nothing about the data */
	op->data2_ignored = fam->erratum_1293 &&
			    (d3 & (IBS_DATA3_SW_PF | IBS_DATA3_DC_MISS_NO_MAB_ALLOC));
	op->has_lat = op->load && op->dc_miss && !(d3 & IBS_DATA3_DC_UC_MEM_ACC);
	op->lat = op->has_lat ? (uint16_t)(d3 >> IBS_DATA3_DC_MISS_LAT_SHIFT) : 0;
	level(fam, ext_dsrc ? IBS_DS_EXT : IBS_DS_LEGACY, s, op);
	op->d.locked = tri(d3 & IBS_DATA3_DC_LOCKED_OP);
	if (op->has_addr)	/* Linux perf_ibs_get_tlb_lvl(): TLB bits need a valid address */
		op->d.stlb_miss = tri((d3 & IBS_DATA3_DC_L1TLB_MISS) &&
				      (d3 & IBS_DATA3_DC_L2TLB_MISS));
}

bool ibs_agg_add(struct pebs_agg *a, const struct ibs_family *fam, bool ext_dsrc,
		 const struct ibs_sample *s)
{
	struct ibs_op op;

	ibs_decode(fam, ext_dsrc, s, &op);
	if (!op.load)
		return false;
	pebs_agg_add_sample(a, &op.d, op.has_lat, op.lat);
	return true;
}

void ibs_sample_read(struct ibs_sample *s, const uint8_t *p)
{
	for (unsigned i = 0; i < IBS_NWORDS; i++) {
		uint64_t v = 0;

		for (unsigned b = 0; b < 8; b++)
			v |= (uint64_t)p[i * 8 + b] << (8 * b);
		s->w[i] = v;
	}
}

void ibs_sample_write(const struct ibs_sample *s, uint8_t *p)
{
	for (unsigned i = 0; i < IBS_NWORDS; i++)
		for (unsigned b = 0; b < 8; b++)
			p[i * 8 + b] = (uint8_t)(s->w[i] >> (8 * b));
}
