/*
 * pebs_decode_ibs.c: pebs-decode --vendor amd (see pebs_decode_ibs.h). Each sample becomes a
 * pebs_record (index, byte offset, size 64, ip = IBS_OP_RIP unless IbsRipInvalid, addr =
 * IBS_DC_LINADDR when valid, latency = IbsDcMissLat for data-cache misses, aux = IBS_OP_DATA2)
 * and its decoded data source; only load samples are aggregated, as in the kernel.
 */
#include "tools/pebs_decode_ibs.h"
#include "pebs/aggbuf.h"

#include <string.h>

/* The sample as a pebs_record (addr, latency when has_lat, ip), for the PEBS record printer. */
static void ibs_op_record(const struct ibs_op *op, struct pebs_record *r)
{
	memset(r, 0, sizeof(*r));
	r->size = IBS_SAMPLE_BYTES;
	if (op->has_rip) {
		r->ip = op->rip;
		r->valid |= PEBS_F_IP;
	}
	if (op->has_addr) {
		r->addr = op->addr;
		r->valid |= PEBS_F_ADDR;
	}
	if (op->has_lat) {
		r->latency = op->lat;
		r->valid |= PEBS_F_LATENCY;
	}
	r->aux = op->d.raw;
	r->valid |= PEBS_F_AUX;
}

int pebs_decode_ibs(const uint8_t *buf, size_t len, const struct ibs_family *fam, bool ext,
		    pd_print_fn print, struct pebs_agg *agg)
{
	uint32_t idx = 0;
	int rc = 0;

	for (size_t off = 0; off < len; off += IBS_SAMPLE_BYTES, idx++) {
		struct ibs_sample s;
		struct ibs_op op;
		struct pebs_record r;

		if (len - off < IBS_SAMPLE_BYTES) {
			memset(&r, 0, sizeof(r));
			memset(&op, 0, sizeof(op));
			r.index = idx;
			r.offset = (uint32_t)off;
			r.size = (uint32_t)(len - off);
			r.err = PEBS_REC_TRUNCATED;
			op.d.hit = op.d.remote = op.d.stlb_miss = op.d.locked = PEBS_UNKNOWN;
			print(&r, &op.d);
			pebs_agg_add(agg, &r, &op.d);
			return 1;
		}
		ibs_sample_read(&s, buf + off);
		ibs_decode(fam, ext, &s, &op);
		ibs_op_record(&op, &r);
		r.index = idx;
		r.offset = (uint32_t)off;
		print(&r, &op.d);
		if (op.load)
			pebs_agg_add(agg, &r, &op.d);
	}
	return rc;
}
