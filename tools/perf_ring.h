/*
 * perf_ring.h: the records of a perf_event_open(2) mmap ring buffer, parsed (pure): the data
 * area between data_tail and data_head (struct perf_event_mmap_page, a power-of-two byte
 * ring), record headers (struct perf_event_header), PERF_RECORD_SAMPLE bodies for the sample
 * types tools/loadbench uses, PERF_RECORD_LOST / LOST_SAMPLES / THROTTLE / UNTHROTTLE
 * counted. A record that wraps around the end of the ring is copied out whole; a record that
 * reaches past data_head (cut) stops the walk without being consumed; a header whose size
 * cannot be a record ends the walk as corrupt. Layouts: include/uapi/linux/perf_event.h
 * (enum perf_event_type, PERF_SAMPLE_*), perf_event_open(2) "MMAP layout".
 */
#ifndef TOOLS_PERF_RING_H
#define TOOLS_PERF_RING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* enum perf_event_type values read here */
#define PR_RECORD_LOST		2
#define PR_RECORD_THROTTLE	5
#define PR_RECORD_UNTHROTTLE	6
#define PR_RECORD_SAMPLE	9
#define PR_RECORD_LOST_SAMPLES	13

/* PERF_SAMPLE_* bits this parser understands (any other bit: perf_ring_init fails) */
#define PR_SAMPLE_IP		(1ull << 0)
#define PR_SAMPLE_TID		(1ull << 1)
#define PR_SAMPLE_TIME		(1ull << 2)
#define PR_SAMPLE_ADDR		(1ull << 3)
#define PR_SAMPLE_ID		(1ull << 6)
#define PR_SAMPLE_CPU		(1ull << 7)
#define PR_SAMPLE_PERIOD	(1ull << 8)
#define PR_SAMPLE_STREAM_ID	(1ull << 9)
#define PR_SAMPLE_WEIGHT	(1ull << 14)
#define PR_SAMPLE_DATA_SRC	(1ull << 15)
#define PR_SAMPLE_IDENTIFIER	(1ull << 16)
#define PR_SAMPLE_WEIGHT_STRUCT	(1ull << 24)

#define PR_MAX_RECORD 256	/* longest record copied out of a wrap (ours are <= 96 B) */

struct perf_sample {
	uint64_t id, ip, time, addr, stream_id, period, data_src;
	uint32_t pid, tid, cpu;
	uint64_t weight;	/* WEIGHT: the u64; WEIGHT_STRUCT: var1_dw (Intel: cache latency) */
	uint16_t weight2;	/* WEIGHT_STRUCT var2_w (Intel: instruction latency), else 0 */
};

struct perf_ring_stats {
	uint64_t records, samples;
	uint64_t lost_records, lost;	/* PERF_RECORD_LOST: records, events lost in them */
	uint64_t lost_samples;		/* PERF_RECORD_LOST_SAMPLES */
	uint64_t throttle, unthrottle, other;
	uint64_t short_samples;		/* a sample shorter than its sample_type: skipped */
	bool cut;			/* the last walk stopped at a record past data_head */
};

typedef void (*perf_sample_fn)(void *ctx, const struct perf_sample *s);

struct perf_ring {
	uint64_t sample_type;
	size_t sample_bytes;	/* body size of a sample of this type */
	perf_sample_fn fn;
	void *ctx;
	struct perf_ring_stats st;
	const char *err;	/* set when the ring is corrupt (walks stop) */
};

/* 0; -1 when sample_type has a bit this parser does not read (r->err says which). */
int perf_ring_init(struct perf_ring *r, uint64_t sample_type, perf_sample_fn fn, void *ctx);

/* Parse one sample body (after the 8-byte header). 0, or -1 if len is too short. */
int perf_ring_parse_sample(const struct perf_ring *r, const uint8_t *body, size_t len,
			   struct perf_sample *s);

/*
 * Walk the records in [tail, head) of `data` (`size` bytes, a power of two; tail and head are
 * the free-running byte counters of perf_event_mmap_page). Returns the new tail: past the last
 * whole record (a cut record stays for the next walk; after corruption, head: nothing there
 * can be trusted).
 */
uint64_t perf_ring_walk(struct perf_ring *r, const uint8_t *data, uint64_t size, uint64_t tail,
			uint64_t head);

#endif
