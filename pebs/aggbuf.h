/*
 * aggbuf.h: decode and aggregate a whole PEBS buffer in one pass, without materialising a
 * struct pebs_record / pebs_dsrc per record: the compact path of the kernel's PMI drain.
 * It gives exactly the struct pebs_agg that pebs_walk_next + pebs_dsrc_decode +
 * pebs_agg_add give for the same buffer (tested and fuzzed for equality): the common record
 * shapes take an inline fast path, anything else (first record of a shape, counter groups,
 * any malformed record) goes through the walker. SDM Vol 3B ch.18 PEBS record formats;
 * docs/hardware.md §4.2/§4.3 and §5.1.
 */
#ifndef PEBS_AGGBUF_H
#define PEBS_AGGBUF_H

#include <stddef.h>
#include <stdint.h>

#include "sample/aggregate.h"
#include "pebs/datasrc.h"
#include "pebs/record.h"

/*
 * Per (model, event, format) lookup state, built once (e.g. when PEBS is programmed) by
 * probing pebs_dsrc_decode, so the data-source knowledge stays in datasrc.c alone.
 */
struct pebs_aggbuf_ctx {
	const struct pebs_model *model;	/* may be NULL: every record level NA */
	uint8_t event;		/* enum pebs_event */
	uint8_t format;		/* PERF_CAPABILITIES[11:8] */
	uint32_t flags;		/* PEBS_WALK_* */
	uint64_t code_mask;	/* aux bits that form the source code */
	uint64_t stlb_mask;	/* aux bit meaning STLB miss (0: not in this layout) */
	uint64_t lock_mask;	/* aux bit meaning locked (0: not in this layout) */
	uint8_t ls[512][3];	/* per code: { enum pebs_level, enum pebs_snoop, remote 0/1 }; 9-bit PNC */
};

/* One walked record and its decoded data source into the aggregate (sample/aggregate.h): a
 * walker error counts as an error, the latency when the record carries one. */
static inline void pebs_agg_add(struct pebs_agg *a, const struct pebs_record *r,
				const struct pebs_dsrc *d)
{
	if (r->err)
		pebs_agg_add_error(a);
	else
		pebs_agg_add_sample(a, d, r->valid & PEBS_F_LATENCY, r->latency);
}

/* Returns 0, or -1 if the layout does not fit the lookup (source code wider than 8 bits). */
int pebs_aggbuf_init(struct pebs_aggbuf_ctx *c, const struct pebs_model *m, enum pebs_event ev,
		     unsigned format, uint32_t flags);
/* Decode buf[0..len) and add every record to *a. Returns the number of records seen. */
uint64_t pebs_aggbuf_add(const struct pebs_aggbuf_ctx *c, struct pebs_agg *a, const void *buf,
			 size_t len);

#endif
