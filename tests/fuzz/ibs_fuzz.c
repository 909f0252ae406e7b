/*
 * ibs_fuzz.c: libFuzzer target for the IBS op-sample decoder and aggregation
 * (ibs/ibs_decode.c, ibs/ibs_tables.c; APM Vol. 2 "Instruction-Based Sampling", docs/ibs.md).
 * Input: byte 0 = family row (one past the last: no row), byte 1 bit 0 = DataSrc[4:3] present,
 * then raw samples in the dump layout (64 bytes each; a short tail is ignored). Invariants
 * beyond the sanitizers: every decoded level and snoop is in range; a latency only on a load
 * that missed the data cache and equals DcMissLat; an address only with DcLinAddrValid; L1
 * only without DcMiss; the aggregate counts exactly the load samples; the byte order round
 * trips.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ibs/ibs_decode.h"
#include "ibs/ibs_regs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct pebs_agg agg;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned nrows = 0;
	uint64_t loads = 0;

	if (size < 2)
		return 0;
	while (ibs_family_at(nrows))
		nrows++;
	const struct ibs_family *fam = ibs_family_at(data[0] % (nrows + 1));	/* may be NULL */
	bool ext = data[1] & 1;

	pebs_agg_init(&agg);
	for (size_t off = 2; size - off >= IBS_SAMPLE_BYTES; off += IBS_SAMPLE_BYTES) {
		struct ibs_sample s, t;
		struct ibs_op op;
		uint8_t back[IBS_SAMPLE_BYTES];
		uint64_t d3;

		ibs_sample_read(&s, data + off);
		ibs_sample_write(&s, back);
		if (memcmp(back, data + off, IBS_SAMPLE_BYTES))
			abort();
		ibs_sample_read(&t, back);
		d3 = s.w[IBS_W_DATA3];
		ibs_decode(fam, ext, &s, &op);
		if (op.d.level >= PEBS_LVL_COUNT || op.d.snoop >= PEBS_SNOOP_COUNT)
			abort();
		if (op.has_lat && (!op.load || !(d3 & IBS_DATA3_DC_MISS) ||
				   op.lat != (uint16_t)(d3 >> IBS_DATA3_DC_MISS_LAT_SHIFT)))
			abort();
		if (op.has_addr != !!(d3 & IBS_DATA3_DC_LIN_ADDR_VALID) ||
		    (op.has_addr && op.addr != s.w[IBS_W_LINADDR]))
			abort();
		if (fam && op.d.level == PEBS_LVL_L1 && (d3 & IBS_DATA3_DC_MISS))
			abort();
		if (!fam && op.d.has_level)
			abort();
		if (ibs_agg_add(&agg, fam, ext, &t) != op.load)
			abort();
		loads += op.load;
	}
	if (agg.records != loads)
		abort();
	return 0;
}
