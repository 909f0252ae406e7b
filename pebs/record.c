/*
 * record.c: the PEBS record walker (pure). Legacy records (formats 0-3) have a fixed size per
 * format; adaptive records (formats 4-6) carry their size in basic-group bits 63:48 and the
 * groups present in format_group (SDM Vol 3B ch.18 adaptive PEBS; docs/hardware.md §4.2/§4.3).
 * Every read is bounds-checked against the buffer; every step advances or stops the walk.
 */
#include "pebs/record.h"

#include <string.h>

static uint64_t rd64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint32_t rd32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* Record size per legacy format (§4.1). */
uint32_t pebs_legacy_size(unsigned format)
{
	static const uint32_t size[4] = {
		PEBS_FMT0_SIZE,	/* 0: Core 2 (§4.1) */
		PEBS_FMT1_SIZE,	/* 1: NHM/WSM/SNB/IVB */
		PEBS_FMT2_SIZE,	/* 2: HSW/BDW */
		PEBS_FMT3_SIZE,	/* 3: SKL family */
	};
	return format < 4 ? size[format] : 0;
}

bool pebs_format_supported(unsigned format)
{
	return format <= 6 || format == PEBS_FMT_ARCH;
}

/* format_group bits each adaptive format defines (§1.8, §4.3): 4/5 add the counter group. */
static uint32_t defined_groups(unsigned format)
{
	uint32_t g = PEBS_GRP_MEMINFO | PEBS_GRP_GPR | PEBS_GRP_XMM | PEBS_GRP_LBR |
		     (0xffu << PEBS_GRP_LBR_SHIFT);

	if (format >= 6)
		g |= PEBS_GRP_CNTR | PEBS_GRP_METRICS;
	return g;
}

/*
 * Size an adaptive record must have. rec/avail give the record bytes that may be read (the
 * counter-group header lies inside the record). Returns 0 if format_group has undefined bits,
 * UINT32_MAX if the counter header cannot be read within avail.
 */
uint32_t pebs_adaptive_size(unsigned format, uint32_t format_group, const uint8_t *rec,
			    size_t avail)
{
	uint32_t size = sizeof(struct pebs_basic);

	if (format < 4 || format > 6 || (format_group & ~defined_groups(format)))
		return 0;
	if (format_group & PEBS_GRP_MEMINFO)
		size += sizeof(struct pebs_meminfo);
	if (format_group & PEBS_GRP_GPR)
		size += sizeof(struct pebs_gprs);
	if (format_group & PEBS_GRP_XMM)
		size += sizeof(struct pebs_xmm);
	if (format_group & PEBS_GRP_LBR)
		size += ((format_group >> PEBS_GRP_LBR_SHIFT) + 1) * sizeof(struct pebs_lbr_entry);
	if (format_group & (PEBS_GRP_CNTR | PEBS_GRP_METRICS)) {
		struct pebs_cntr_header h;

		if (rec == NULL || avail < size + sizeof(h))
			return UINT32_MAX;
		h.cntr = rd32(rec + size);
		h.fixed = rd32(rec + size + 4);
		h.metrics = rd32(rec + size + 8);
		size += sizeof(h) + 8 * (pebs_popcount32(h.cntr) + pebs_popcount32(h.fixed));
		if (h.metrics == PEBS_CNTR_METRICS)
			size += 16;
	}
	return size;
}

void pebs_walk_init(struct pebs_walker *w, const void *buf, size_t len, unsigned format,
		    uint32_t flags)
{
	w->buf = buf;
	w->len = buf ? len : 0;
	w->off = 0;
	w->index = 0;
	w->format = (uint8_t)format;
	w->flags = flags;
	w->done = false;
}

static void decode_legacy(const uint8_t *p, unsigned fmt, struct pebs_record *r)
{
	r->ip = rd64(p + offsetof(struct pebs_legacy_rec, rip));
	r->valid |= PEBS_F_IP;
	if (fmt >= 1) {
		r->applicable_counters = rd64(p + offsetof(struct pebs_legacy_rec, status));
		r->addr = rd64(p + offsetof(struct pebs_legacy_rec, dla));
		r->aux = rd64(p + offsetof(struct pebs_legacy_rec, dse));
		r->latency = rd64(p + offsetof(struct pebs_legacy_rec, lat));
		r->valid |= PEBS_F_APPLICABLE | PEBS_F_ADDR | PEBS_F_AUX | PEBS_F_LATENCY;
	}
	if (fmt >= 2) {
		r->eventing_ip = rd64(p + offsetof(struct pebs_legacy_rec, real_ip));
		r->tsx_tuning = rd64(p + offsetof(struct pebs_legacy_rec, tsx_tuning));
		r->valid |= PEBS_F_EVENTING_IP | PEBS_F_TSX;
	}
	if (fmt >= 3) {
		r->tsc = rd64(p + offsetof(struct pebs_legacy_rec, tsc));
		r->valid |= PEBS_F_TSC;
	}
}

/* Fields of a size-checked adaptive record (the whole record lies in the buffer). */
static void decode_groups(const uint8_t *p, uint32_t grp, uint32_t flags, struct pebs_record *r)
{
	size_t off = sizeof(struct pebs_basic);

	if (grp & PEBS_GRP_MEMINFO) {
		uint64_t lat = rd64(p + off + offsetof(struct pebs_meminfo, latency));

		r->addr = rd64(p + off + offsetof(struct pebs_meminfo, address));
		r->aux = rd64(p + off + offsetof(struct pebs_meminfo, aux));
		r->tsx_tuning = rd64(p + off + offsetof(struct pebs_meminfo, tsx_tuning));
		r->valid |= PEBS_F_ADDR | PEBS_F_AUX | PEBS_F_LATENCY | PEBS_F_TSX;
		if (flags & PEBS_WALK_SPLIT_LATENCY) {
			r->latency = (lat >> 32) & 0xffff;	/* 47:32 cache latency */
			r->instr_latency = lat & 0xffff;	/* 15:0 instr latency */
			r->valid |= PEBS_F_INSTR_LATENCY;
		} else {
			r->latency = lat & 0xffffffffu;	/* ICL and earlier: 31:0 valid */
		}
		off += sizeof(struct pebs_meminfo);
	}
	if (grp & PEBS_GRP_GPR) {
		r->ip = rd64(p + off + offsetof(struct pebs_gprs, ip));
		r->valid |= PEBS_F_IP;
		off += sizeof(struct pebs_gprs);
	}
	if (grp & PEBS_GRP_XMM)
		off += sizeof(struct pebs_xmm);
	if (grp & PEBS_GRP_LBR)
		off += ((grp >> PEBS_GRP_LBR_SHIFT) + 1) * sizeof(struct pebs_lbr_entry);
	if (grp & (PEBS_GRP_CNTR | PEBS_GRP_METRICS)) {
		/* format 6 counter snapshot, last group (§4.3); in bounds: size was checked */
		r->cntr_gp = rd32(p + off + offsetof(struct pebs_cntr_header, cntr));
		r->cntr_fixed = rd32(p + off + offsetof(struct pebs_cntr_header, fixed));
		r->cntr = p + off + sizeof(struct pebs_cntr_header);
		r->valid |= PEBS_F_COUNTERS;
	}
}

static bool finish(struct pebs_walker *w, struct pebs_record *r, unsigned err, bool stop)
{
	r->err = (uint8_t)err;
	if (stop) {
		w->done = true;
		w->off = w->len;
	}
	return true;
}

bool pebs_walk_next(struct pebs_walker *w, struct pebs_record *r)
{
	size_t avail;
	const uint8_t *p;

	if (w->done || w->off >= w->len)
		return false;
	avail = w->len - w->off;
	p = w->buf + w->off;
	/* field by field: cheaper than a memset (rep stos) of the whole record per step */
	r->index = w->index++;
	r->offset = (uint32_t)w->off;
	r->size = 0;
	r->format = w->format;
	r->err = 0;
	r->retire_latency = 0;
	r->valid = 0;
	r->format_group = 0;
	r->ip = r->eventing_ip = r->applicable_counters = 0;
	r->addr = r->aux = r->latency = r->instr_latency = r->tsc = r->tsx_tuning = 0;
	r->fragments = 0;
	r->cntr_gp = r->cntr_fixed = 0;
	r->cntr = NULL;

	if (w->format == PEBS_FMT_ARCH)
		return pebs_arch_walk_next(w, r);
	if (!pebs_format_supported(w->format))
		return finish(w, r, PEBS_REC_BAD_FORMAT, true);

	if (w->format < 4) {
		uint32_t size = pebs_legacy_size(w->format);

		if (avail < size)
			return finish(w, r, PEBS_REC_TRUNCATED, true);
		r->size = size;
		decode_legacy(p, w->format, r);
		w->off += size;
		return finish(w, r, PEBS_REC_OK, false);
	}

	if (avail < sizeof(struct pebs_basic))
		return finish(w, r, PEBS_REC_TRUNCATED, true);
	uint64_t fs = rd64(p + offsetof(struct pebs_basic, format_size));
	uint32_t size = (uint32_t)(fs >> 48);
	uint32_t grp = (uint32_t)fs;

	r->size = size;
	r->format_group = grp;
	r->valid |= PEBS_F_GROUPS;
	if (size == 0)
		return finish(w, r, PEBS_REC_ZERO_SIZE, true);
	if (size > avail)
		return finish(w, r, PEBS_REC_TRUNCATED, true);
	/* no record is smaller than its basic group: the framing is lost, stop rather than
	 * step through the rest in tiny strides (found by decode_fuzz) */
	if (size < sizeof(struct pebs_basic))
		return finish(w, r, PEBS_REC_SIZE_MISMATCH, true);
	w->off += size;	/* a plausible written size in bounds advances the walk */

	r->eventing_ip = rd64(p + offsetof(struct pebs_basic, ip));
	r->applicable_counters = rd64(p + offsetof(struct pebs_basic, applicable_counters));
	r->tsc = rd64(p + offsetof(struct pebs_basic, tsc));
	r->valid |= PEBS_F_EVENTING_IP | PEBS_F_APPLICABLE | PEBS_F_TSC;
	if (w->flags & PEBS_WALK_TIMING_INFO) {
		r->retire_latency = (uint16_t)(fs >> 32);
		r->valid |= PEBS_F_RETIRE_LATENCY;
	}

	uint32_t want = pebs_adaptive_size(w->format, grp, p, size);

	if (want == 0)
		return finish(w, r, PEBS_REC_BAD_GROUPS, false);
	if (want != size)
		return finish(w, r, PEBS_REC_SIZE_MISMATCH, false);
	decode_groups(p, grp, w->flags, r);
	return finish(w, r, PEBS_REC_OK, false);
}

const char *pebs_rec_strerror(unsigned err)
{
	static const char *const msg[] = {
		[PEBS_REC_OK] = "ok",
		[PEBS_REC_TRUNCATED] = "record runs past the end of the buffer",
		[PEBS_REC_ZERO_SIZE] = "record size field is zero",
		[PEBS_REC_SIZE_MISMATCH] = "record size does not match its format_group",
		[PEBS_REC_BAD_FORMAT] = "unsupported PEBS record format",
		[PEBS_REC_BAD_GROUPS] = "format_group has bits this format does not define",
		[PEBS_REC_NO_BASIC] = "record starts without the basic group",
	};
	return err < sizeof(msg) / sizeof(msg[0]) ? msg[err] : "unknown error";
}
