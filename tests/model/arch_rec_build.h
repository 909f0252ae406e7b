/*
 * arch_rec_build.h: host-only writer of architectural-PEBS record fragments at the byte
 * offsets of docs/arch-pebs.md ("Records": header, basic, AUX, GPR, XMM, LBR, counters),
 * written from the document, not from pebs/arch_record.h, so tests of the walker and the PMU
 * model's arch rows check the decoder against an independent encoder.
 */
#ifndef TESTS_MODEL_ARCH_REC_BUILD_H
#define TESTS_MODEL_ARCH_REC_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Header group bits (docs/arch-pebs.md, "Header"). */
#define AR_BASIC	(1ull << 63)
#define AR_AUX		(1ull << 62)
#define AR_GPR		(1ull << 61)
#define AR_XMM		(1ull << 49)
#define AR_LBR(code)	((uint64_t)(code) << 40)
#define AR_LBR_MASK	(3ull << 40)
#define AR_CNTR		(1ull << 35)
#define AR_CONT		(1ull << 31)
#define AR_MODE64	(1ull << 30)

struct arch_rec_spec {
	uint64_t ip, applicable, tsc;
	uint16_t retire;
	bool retire_valid;
	uint64_t addr, aux;
	uint16_t instr_lat, cache_lat;
	uint64_t gpr_ip;
	uint64_t lbr_depth;		/* entries for LBR code 3 */
	uint32_t cntr_gp, cntr_fixed;	/* counter-group bitmaps */
	bool metrics;			/* two PERF_METRICS qwords follow */
	const uint64_t *cntr_vals;	/* popcount(gp) + popcount(fixed) values, GP first */
};

/* Bytes of a fragment carrying `groups` (AR_* bits) for spec s. */
size_t arch_frag_size(const struct arch_rec_spec *s, uint64_t groups);
/* Write that fragment at out (cap bytes); cont sets CONT. Returns its size, 0 if no room. */
size_t arch_frag_write(uint8_t *out, size_t cap, const struct arch_rec_spec *s,
		       uint64_t groups, bool cont);

#endif
