/*
 * decode_fuzz.c: libFuzzer target for the PEBS record walker + data-source decoder +
 * aggregation (pebs/record.c, pebs/arch_record.c, datasrc*.c, aggregate.c; SDM Vol 3B ch.18
 * record formats; architectural PEBS, format 0xF: docs/arch-pebs.md "Records").
 * Input: byte 0 = record format (low 4 bits; 0xF walks arch fragments), byte 1 = model-table
 * row (Diamond Rapids' Panther Cove table included), byte 2 = walk flags
 * and event kind, then the raw record buffer. Invariants checked beyond the sanitizers: the
 * walk terminates in a bounded number of steps, offsets strictly increase, every record
 * reported OK lies inside the buffer (an arch record of at least one fragment), a counter
 * snapshot lies inside the buffer, and the one-pass buffer aggregation
 * (pebs/aggbuf.c) gives exactly the per-record aggregate.
 */
#include <stddef.h>
#include <stdint.h>

#include "pebs/aggbuf.h"
#include "sample/aggregate.h"

#include <string.h>
#include "pebs/datasrc.h"
#include "pebs/record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct pebs_agg agg, agg2;
static struct pebs_aggbuf_ctx ctx;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 3)
		return 0;
	unsigned fmt = data[0] & 0xf;
	unsigned nrows = 0;

	while (pebs_model_at(nrows))
		nrows++;
	const struct pebs_model *m = pebs_model_at(data[1] % (nrows + 1));	/* may be NULL */
	uint32_t flags = data[2] & 3;
	enum pebs_event ev = (data[2] & 4) ? PEBS_EV_STORE : PEBS_EV_LOAD;
	const uint8_t *buf = data + 3;
	size_t len = size - 3;
	struct pebs_walker w;
	struct pebs_record r;
	struct pebs_dsrc d;
	size_t steps = 0, last = 0;
	int chars = 0;

	pebs_agg_init(&agg);
	pebs_walk_init(&w, buf, len, fmt, flags);
	while (pebs_walk_next(&w, &r)) {
		if (++steps > len / 8 + 1)
			__builtin_trap();	/* the walk must always advance */
		if (steps > 1 && r.offset <= last)
			__builtin_trap();
		last = r.offset;
		if (r.err == PEBS_REC_OK && ((size_t)r.offset + r.size > len || r.size == 0))
			__builtin_trap();
		if (r.err == PEBS_REC_OK && fmt == PEBS_FMT_ARCH && r.fragments == 0)
			__builtin_trap();
		if (r.valid & PEBS_F_COUNTERS) {
			size_t n = 8u * (size_t)(__builtin_popcount(r.cntr_gp) +
						 __builtin_popcount(r.cntr_fixed));

			if (r.cntr < buf || (size_t)(r.cntr - buf) + n > len)
				__builtin_trap();
		}
		pebs_dsrc_decode((r.valid & PEBS_F_AUX) ? m : NULL, ev, r.aux, &d);
		chars += (int)pebs_dsrc_level_name(&d)[0] + (int)pebs_level_id(d.level)[0] +
			 (int)pebs_snoop_id(d.snoop)[0] + (int)pebs_rec_strerror(r.err)[0];
		pebs_agg_add(&agg, &r, &d);
	}
	for (unsigned i = 0; i < PEBS_LVL_COUNT; i++)
		if (pebs_agg_percentile(&agg.lvl[i], 990) > agg.lvl[i].max && agg.lvl[i].count)
			__builtin_trap();
	if (pebs_aggbuf_init(&ctx, m, ev, fmt, flags))
		__builtin_trap();
	pebs_agg_init(&agg2);
	if (pebs_aggbuf_add(&ctx, &agg2, buf, len) != steps || memcmp(&agg, &agg2, sizeof(agg)))
		__builtin_trap();
	return chars < 0;
}
