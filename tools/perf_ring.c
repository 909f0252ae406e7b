/*
 * perf_ring.c: perf_event_open ring-buffer records (see perf_ring.h). Sample body order:
 * include/uapi/linux/perf_event.h, PERF_RECORD_SAMPLE ("{ u64 id; } && PERF_SAMPLE_IDENTIFIER,
 * { u64 ip; } && PERF_SAMPLE_IP, { u32 pid, tid; } && PERF_SAMPLE_TID, { u64 time; }, { u64
 * addr; }, { u64 id; }, { u64 stream_id; }, { u32 cpu, res; }, { u64 period; }, ..., union
 * perf_sample_weight && PERF_SAMPLE_WEIGHT_TYPE, { u64 data_src; } && PERF_SAMPLE_DATA_SRC").
 */
#include "tools/perf_ring.h"
#include "kernel/unaligned.h"

#include <string.h>

#define SUPPORTED (PR_SAMPLE_IP | PR_SAMPLE_TID | PR_SAMPLE_TIME | PR_SAMPLE_ADDR | PR_SAMPLE_ID | \
		   PR_SAMPLE_CPU | PR_SAMPLE_PERIOD | PR_SAMPLE_STREAM_ID | PR_SAMPLE_WEIGHT | \
		   PR_SAMPLE_DATA_SRC | PR_SAMPLE_IDENTIFIER | PR_SAMPLE_WEIGHT_STRUCT)

int perf_ring_init(struct perf_ring *r, uint64_t type, perf_sample_fn fn, void *ctx)
{
	memset(r, 0, sizeof(*r));
	r->sample_type = type;
	r->fn = fn;
	r->ctx = ctx;
	if (type & ~SUPPORTED) {
		r->err = "sample_type has fields this reader does not parse";
		return -1;
	}
	if ((type & PR_SAMPLE_WEIGHT) && (type & PR_SAMPLE_WEIGHT_STRUCT)) {
		r->err = "PERF_SAMPLE_WEIGHT and WEIGHT_STRUCT together (the kernel refuses this)";
		return -1;
	}
	r->sample_bytes = 8 * (size_t)__builtin_popcountll(type & SUPPORTED &
							   ~PR_SAMPLE_WEIGHT_STRUCT) +
			  (type & PR_SAMPLE_WEIGHT_STRUCT ? 8 : 0);
	return 0;
}

int perf_ring_parse_sample(const struct perf_ring *r, const uint8_t *p, size_t len,
			   struct perf_sample *s)
{
	uint64_t t = r->sample_type;

	memset(s, 0, sizeof(*s));
	if (len < r->sample_bytes)
		return -1;
	if (t & PR_SAMPLE_IDENTIFIER)
		s->id = load_le64(p), p += 8;
	if (t & PR_SAMPLE_IP)
		s->ip = load_le64(p), p += 8;
	if (t & PR_SAMPLE_TID)
		s->pid = load_le32(p), s->tid = load_le32(p + 4), p += 8;
	if (t & PR_SAMPLE_TIME)
		s->time = load_le64(p), p += 8;
	if (t & PR_SAMPLE_ADDR)
		s->addr = load_le64(p), p += 8;
	if (t & PR_SAMPLE_ID)
		s->id = load_le64(p), p += 8;
	if (t & PR_SAMPLE_STREAM_ID)
		s->stream_id = load_le64(p), p += 8;
	if (t & PR_SAMPLE_CPU)
		s->cpu = load_le32(p), p += 8;
	if (t & PR_SAMPLE_PERIOD)
		s->period = load_le64(p), p += 8;
	if (t & PR_SAMPLE_WEIGHT)
		s->weight = load_le64(p), p += 8;
	if (t & PR_SAMPLE_WEIGHT_STRUCT) {	/* { u32 var1_dw; u16 var2_w; u16 var3_w; } */
		s->weight = load_le32(p);
		memcpy(&s->weight2, p + 4, 2);
		p += 8;
	}
	if (t & PR_SAMPLE_DATA_SRC)
		s->data_src = load_le64(p);
	return 0;
}

static void record(struct perf_ring *r, uint32_t type, const uint8_t *body, size_t len)
{
	struct perf_sample s;

	r->st.records++;
	switch (type) {
	case PR_RECORD_SAMPLE:
		if (perf_ring_parse_sample(r, body, len, &s)) {
			r->st.short_samples++;
			return;
		}
		r->st.samples++;
		if (r->fn)
			r->fn(r->ctx, &s);
		return;
	case PR_RECORD_LOST:		/* { u64 id; u64 lost; } */
		r->st.lost_records++;
		if (len >= 16)
			r->st.lost += load_le64(body + 8);
		return;
	case PR_RECORD_LOST_SAMPLES:	/* { u64 lost; } */
		if (len >= 8)
			r->st.lost_samples += load_le64(body);
		return;
	case PR_RECORD_THROTTLE:
		r->st.throttle++;
		return;
	case PR_RECORD_UNTHROTTLE:
		r->st.unthrottle++;
		return;
	default:
		r->st.other++;
	}
}

uint64_t perf_ring_walk(struct perf_ring *r, const uint8_t *data, uint64_t size, uint64_t tail,
			uint64_t head)
{
	uint8_t buf[PR_MAX_RECORD];

	r->st.cut = false;
	if (r->err)
		return head;
	if (!size || (size & (size - 1)) || head - tail > size) {
		r->err = head - tail > size ? "data_head runs more than the ring ahead of data_tail"
					    : "ring size is not a power of two";
		return head;
	}
	while (head - tail >= 8) {
		uint64_t off = tail & (size - 1);
		uint8_t hdr[8];
		uint32_t type;
		uint16_t rsize;
		const uint8_t *rec;

		for (unsigned i = 0; i < 8; i++)	/* a header may wrap too */
			hdr[i] = data[(off + i) & (size - 1)];
		memcpy(&type, hdr, 4);
		memcpy(&rsize, hdr + 6, 2);	/* struct perf_event_header { u32 type; u16 misc, size; } */
		if (rsize < 8 || (rsize & 7)) {
			r->err = "record size below 8 or not a multiple of 8: ring corrupt";
			return head;
		}
		if (rsize > head - tail) {
			r->st.cut = true;	/* not all of it is there yet */
			return tail;
		}
		if (off + rsize <= size) {
			rec = data + off;
		} else if (rsize <= sizeof(buf)) {
			memcpy(buf, data + off, size - off);
			memcpy(buf + (size - off), data, rsize - (size - off));
			rec = buf;
		} else {
			r->st.other++;		/* a long foreign record across the end: skip it */
			tail += rsize;
			continue;
		}
		record(r, type, rec + 8, rsize - 8u);
		tail += rsize;
	}
	if (head != tail)
		r->st.cut = true;
	return tail;
}
