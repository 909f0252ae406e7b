/*
 * arch_record.c: the architectural-PEBS record walker (format 0xF; pure). A record is a chain
 * of fragments, each a 16-B header + the groups it names in the order basic, AUX, GPR, XMM,
 * LBR, counters; fragments are joined into one struct pebs_record and counted. Framing rules
 * as the adaptive walker (record.c): a size field of 0, below the header, or past the end
 * stops the walk; a fragment whose groups do not add up to its size is an error but the size
 * still frames it. Facts: docs/arch-pebs.md ("Records"); Linux ds.c
 * setup_arch_pebs_sample_data, intel_pmu_drain_arch_pebs, arch_pebs_record_continued.
 */
#include "pebs/arch_record.h"

#include <string.h>

static uint64_t rd64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

bool pebs_arch_continued(uint64_t hdr)
{
	return (hdr & ARCH_HDR_CONT) || !(hdr & ~ARCH_HDR_SIZE_MASK);
}

uint32_t pebs_arch_fragment_size(uint64_t hdr, const uint8_t *frag, size_t avail)
{
	uint64_t size = sizeof(struct pebs_arch_header);

	if (hdr & ~ARCH_HDR_DEFINED)
		return 0;	/* a reserved bit */
	if (hdr & (ARCH_HDR_YMMH | ARCH_HDR_OPMASK | ARCH_HDR_ZMMH | ARCH_HDR_H16ZMM))
		return 0;	/* vector groups: sizes not in our sources */
	if (hdr & ARCH_HDR_BASIC)
		size += sizeof(struct pebs_arch_basic);
	if (hdr & ARCH_HDR_AUX)
		size += sizeof(struct pebs_arch_aux);
	if (hdr & ARCH_HDR_GPR)
		size += sizeof(struct pebs_arch_gprs);
	if (hdr & ARCH_HDR_XMM)
		size += sizeof(struct pebs_arch_xer_header) + sizeof(struct pebs_xmm);
	if (hdr & ARCH_HDR_LBR) {
		uint64_t code = (hdr & ARCH_HDR_LBR) >> ARCH_HDR_LBR_SHIFT, n;

		if (size + sizeof(struct pebs_arch_lbr_header) > avail)
			return UINT32_MAX;
		n = code == 3 ? rd64(frag + size + offsetof(struct pebs_arch_lbr_header, depth))
			      : code * ARCH_LBR_BASE_ENTRIES;
		if (n > ARCH_LBR_MAX_DEPTH)
			return UINT32_MAX;
		size += sizeof(struct pebs_arch_lbr_header) + n * sizeof(struct pebs_lbr_entry);
	}
	if (hdr & ARCH_HDR_CNTR) {
		struct pebs_cntr_header h;

		if (size + sizeof(h) > avail)
			return UINT32_MAX;
		memcpy(&h, frag + size, sizeof(h));
		size += sizeof(h) + 8ull * (pebs_popcount32(h.cntr) + pebs_popcount32(h.fixed));
		if (h.metrics == PEBS_CNTR_METRICS)
			size += 16;
	}
	return size > ARCH_HDR_SIZE_MASK ? UINT32_MAX : (uint32_t)size;
}

/* The groups of one size-checked fragment into r. */
static void decode_fragment(const uint8_t *p, uint64_t hdr, struct pebs_record *r)
{
	size_t off = sizeof(struct pebs_arch_header);

	if (hdr & ARCH_HDR_BASIC) {
		uint64_t ret = rd64(p + off + offsetof(struct pebs_arch_basic, retire));

		r->eventing_ip = rd64(p + off + offsetof(struct pebs_arch_basic, ip));
		r->applicable_counters =
			rd64(p + off + offsetof(struct pebs_arch_basic, applicable_counters));
		r->tsc = rd64(p + off + offsetof(struct pebs_arch_basic, tsc));
		r->valid |= PEBS_F_EVENTING_IP | PEBS_F_APPLICABLE | PEBS_F_TSC;
		if (ret & (1u << 16)) {
			r->retire_latency = (uint16_t)ret;
			r->valid |= PEBS_F_RETIRE_LATENCY;
		}
		off += sizeof(struct pebs_arch_basic);
	}
	if (hdr & ARCH_HDR_AUX) {
		uint64_t lat = rd64(p + off + offsetof(struct pebs_arch_aux, latency));

		r->addr = rd64(p + off + offsetof(struct pebs_arch_aux, address));
		r->aux = rd64(p + off + offsetof(struct pebs_arch_aux, aux));
		r->tsx_tuning = rd64(p + off + offsetof(struct pebs_arch_aux, tsx_tuning));
		r->latency = (lat >> 32) & 0xffff;	/* 47:32 cache (load-to-use) latency */
		r->instr_latency = lat & 0xffff;	/* 15:0 instruction latency */
		r->valid |= PEBS_F_ADDR | PEBS_F_AUX | PEBS_F_LATENCY | PEBS_F_INSTR_LATENCY |
			    PEBS_F_TSX;
		off += sizeof(struct pebs_arch_aux);
	}
	if (hdr & ARCH_HDR_GPR) {
		r->ip = rd64(p + off + offsetof(struct pebs_arch_gprs, ip));
		r->valid |= PEBS_F_IP;
		off += sizeof(struct pebs_arch_gprs);
	}
	if (hdr & ARCH_HDR_XMM)
		off += sizeof(struct pebs_arch_xer_header) + sizeof(struct pebs_xmm);
	if (hdr & ARCH_HDR_LBR) {
		uint64_t code = (hdr & ARCH_HDR_LBR) >> ARCH_HDR_LBR_SHIFT;
		uint64_t n = code == 3 ?
			rd64(p + off + offsetof(struct pebs_arch_lbr_header, depth)) :
			code * ARCH_LBR_BASE_ENTRIES;

		off += sizeof(struct pebs_arch_lbr_header) + n * sizeof(struct pebs_lbr_entry);
	}
	if (hdr & ARCH_HDR_CNTR) {
		struct pebs_cntr_header h;

		memcpy(&h, p + off, sizeof(h));
		r->cntr_gp = h.cntr;
		r->cntr_fixed = h.fixed;
		r->cntr = p + off + sizeof(h);
		r->valid |= PEBS_F_COUNTERS;
	}
}

static bool arch_finish(struct pebs_walker *w, struct pebs_record *r, unsigned err,
			size_t next, bool stop)
{
	if (r->err == PEBS_REC_OK)
		r->err = (uint8_t)err;
	w->off = stop ? w->len : next;
	w->done = stop;
	return true;
}

bool pebs_arch_walk_next(struct pebs_walker *w, struct pebs_record *r)
{
	size_t off = w->off;
	bool groups_seen = false;

	for (;;) {
		size_t avail = w->len - off;
		const uint8_t *p = w->buf + off;

		if (avail < sizeof(struct pebs_arch_header))
			return arch_finish(w, r, PEBS_REC_TRUNCATED, off, true);
		uint64_t hdr = rd64(p);
		uint32_t fsz = (uint32_t)(hdr & ARCH_HDR_SIZE_MASK);

		if (fsz == 0)
			return arch_finish(w, r, PEBS_REC_ZERO_SIZE, off, true);
		if (fsz < sizeof(struct pebs_arch_header))
			return arch_finish(w, r, PEBS_REC_SIZE_MISMATCH, off, true);
		if (fsz > avail)
			return arch_finish(w, r, PEBS_REC_TRUNCATED, off, true);
		r->fragments++;
		r->size += fsz;
		r->format_group |= (uint32_t)(hdr >> 32);
		r->valid |= PEBS_F_GROUPS;
		if (!groups_seen && (hdr & ~ARCH_HDR_SIZE_MASK & ~ARCH_HDR_CONT &
				     ~ARCH_HDR_MODE64)) {
			groups_seen = true;
			if (!(hdr & ARCH_HDR_BASIC) && r->err == PEBS_REC_OK)
				r->err = PEBS_REC_NO_BASIC;
		}

		uint32_t want = pebs_arch_fragment_size(hdr, p, fsz);

		if (want == 0 && r->err == PEBS_REC_OK)
			r->err = PEBS_REC_BAD_GROUPS;
		else if (want != 0 && want != fsz && r->err == PEBS_REC_OK)
			r->err = PEBS_REC_SIZE_MISMATCH;
		else if (want == fsz)
			decode_fragment(p, hdr, r);
		off += fsz;
		if (!pebs_arch_continued(hdr))
			return arch_finish(w, r, PEBS_REC_OK, off, false);
		/* the chain goes on past the written bytes: an incomplete record */
		if (off >= w->len)
			return arch_finish(w, r, PEBS_REC_TRUNCATED, off, true);
	}
}
