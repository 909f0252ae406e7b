/*
 * record_test.c: the PEBS record walker on records built byte by byte at the offsets of
 * docs/hardware.md §4.2 (legacy formats 0-3) and §4.3 (adaptive groups), independent of the
 * structs in pebs/record.h. Malformed inputs: truncated, zero size, size mismatch, undefined
 * group bits, unsupported format. Every buffer is an exact-size heap copy so ASan catches any
 * read past its end.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pebs/record.h"

static uint8_t buf[8192];
static size_t blen;

static void put64(size_t off, uint64_t v)
{
	memcpy(buf + off, &v, 8);
}

static void put32(size_t off, uint32_t v)
{
	memcpy(buf + off, &v, 4);
}

/* Walk buf[0..blen) from an exact-size heap copy; returns the number of records. */
static unsigned walk(unsigned fmt, uint32_t flags, struct pebs_record *out, unsigned max)
{
	uint8_t *copy = malloc(blen ? blen : 1);
	struct pebs_walker w;
	unsigned n = 0;
	struct pebs_record r;

	memcpy(copy, buf, blen);
	pebs_walk_init(&w, copy, blen, fmt, flags);
	while (pebs_walk_next(&w, &r)) {
		assert_true(n < max);
		out[n++] = r;
	}
	assert_false(pebs_walk_next(&w, &r));	/* stays finished */
	free(copy);
	return n;
}

/* Legacy record at off: field at byte o holds 0x1000*rec + o (§4.2 offsets). */
static void legacy(size_t off, unsigned rec, unsigned size)
{
	for (unsigned o = 0; o < size; o += 8)
		put64(off + o, 0x100000u * (rec + 1) + o);
}

#define V(rec, o) (0x100000ull * ((rec) + 1) + (o))

static void test_legacy_formats(void **state)
{
	static const unsigned size[4] = { 144, 176, 192, 200 };	/* §4.1 */
	struct pebs_record r[4];

	(void)state;
	for (unsigned fmt = 0; fmt < 4; fmt++) {
		assert_int_equal(pebs_legacy_size(fmt), size[fmt]);
		memset(buf, 0, sizeof(buf));
		legacy(0, 0, size[fmt]);
		legacy(size[fmt], 1, size[fmt]);
		blen = 2 * size[fmt];
		assert_int_equal(walk(fmt, 0, r, 4), 2);
		for (unsigned i = 0; i < 2; i++) {
			assert_int_equal(r[i].err, PEBS_REC_OK);
			assert_int_equal(r[i].index, i);
			assert_int_equal(r[i].offset, i * size[fmt]);
			assert_int_equal(r[i].size, size[fmt]);
			assert_int_equal(r[i].format, fmt);
			assert_int_equal(r[i].ip, V(i, 0x08));
			assert_int_equal(!!(r[i].valid & PEBS_F_AUX), fmt >= 1);
			assert_int_equal(!!(r[i].valid & PEBS_F_EVENTING_IP), fmt >= 2);
			assert_int_equal(!!(r[i].valid & PEBS_F_TSC), fmt >= 3);
			assert_false(r[i].valid & PEBS_F_INSTR_LATENCY);
			if (fmt >= 1) {
				assert_int_equal(r[i].applicable_counters, V(i, 0x90));
				assert_int_equal(r[i].addr, V(i, 0x98));
				assert_int_equal(r[i].aux, V(i, 0xA0));
				assert_int_equal(r[i].latency, V(i, 0xA8));
			}
			if (fmt >= 2) {
				assert_int_equal(r[i].eventing_ip, V(i, 0xB0));
				assert_int_equal(r[i].tsx_tuning, V(i, 0xB8));
			}
			if (fmt >= 3)
				assert_int_equal(r[i].tsc, V(i, 0xC0));
		}
	}
}

static void test_legacy_truncated(void **state)
{
	struct pebs_record r[4];

	(void)state;
	legacy(0, 0, 200);
	legacy(200, 1, 200);
	blen = 200 + 199;
	assert_int_equal(walk(3, 0, r, 4), 2);
	assert_int_equal(r[0].err, PEBS_REC_OK);
	assert_int_equal(r[1].err, PEBS_REC_TRUNCATED);
	assert_int_equal(r[1].offset, 200);
	blen = 0;
	assert_int_equal(walk(3, 0, r, 4), 0);
}

/* Adaptive record at off with groups grp; returns its size. lat = meminfo latency word. */
static uint32_t adaptive(size_t off, uint32_t grp, uint64_t lat, uint32_t size_override)
{
	uint32_t size = 32;

	put64(off + 8, 0xEEE0 + off);		/* basic: eventing IP */
	put64(off + 16, 0x100000001ull);	/* applicable counters: GP0 + fixed 0 */
	put64(off + 24, 0x7500 + off);		/* TSC */
	if (grp & 1) {				/* meminfo */
		put64(off + size, 0xDA7A + off);
		put64(off + size + 8, 0x21);
		put64(off + size + 16, lat);
		put64(off + size + 24, 0x7);
		size += 32;
	}
	if (grp & 2) {				/* GPR: flags, ip, ... */
		put64(off + size + 8, 0x1B00 + off);
		size += 144;
	}
	if (grp & 4)
		size += 256;			/* XMM */
	if (grp & 8)
		size += 24 * ((grp >> 24) + 1);	/* LBR entries */
	if (grp & 0x30) {			/* counters: GP 0,2 + fixed 1, metrics */
		put32(off + size, 0x5);
		put32(off + size + 4, 0x2);
		put32(off + size + 8, 3);
		size += 16 + 3 * 8 + 16;
	}
	uint32_t written = size_override ? size_override : size;

	put64(off, (uint64_t)written << 48 | (0x1234ull << 32) | grp);
	return size;
}

static void test_adaptive_groups(void **state)
{
	static const struct {
		unsigned fmt;
		uint32_t grp, size;
	} cases[] = {
		{ 4, 0x0, 32 }, { 4, 0x1, 64 }, { 4, 0x3, 208 }, { 5, 0x7, 464 },
		{ 4, 0x0f, 488 }, { 5, 0x1f000009, 32 + 32 + 32 * 24 },
		{ 6, 0x10, 32 + 16 + 24 + 16 }, { 6, 0x3f, 488 + 56 }, { 6, 0x20, 32 + 56 },
	};
	struct pebs_record r[4];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(buf, 0, sizeof(buf));
		uint32_t s = adaptive(0, cases[i].grp, 0, 0);

		assert_int_equal(s, cases[i].size);
		adaptive(s, cases[i].grp, 0, 0);
		blen = 2 * s;
		assert_int_equal(walk(cases[i].fmt, 0, r, 4), 2);
		for (unsigned k = 0; k < 2; k++) {
			size_t off = k * s;

			assert_int_equal(r[k].err, PEBS_REC_OK);
			assert_int_equal(r[k].size, s);
			assert_int_equal(r[k].offset, off);
			assert_int_equal(r[k].format_group, cases[i].grp);
			assert_int_equal(r[k].eventing_ip, 0xEEE0 + off);
			assert_int_equal(r[k].applicable_counters, 0x100000001ull);
			assert_int_equal(r[k].tsc, 0x7500 + off);
			assert_int_equal(!!(r[k].valid & PEBS_F_AUX), cases[i].grp & 1);
			assert_int_equal(!!(r[k].valid & PEBS_F_IP), !!(cases[i].grp & 2));
			if (cases[i].grp & 1) {
				assert_int_equal(r[k].addr, 0xDA7A + off);
				assert_int_equal(r[k].aux, 0x21);
				assert_int_equal(r[k].tsx_tuning, 0x7);
			}
			if (cases[i].grp & 2)
				assert_int_equal(r[k].ip, 0x1B00 + off);
			assert_false(r[k].valid & PEBS_F_RETIRE_LATENCY);
		}
	}
}

static void test_latency_words(void **state)
{
	struct pebs_record r[2];
	uint64_t lat = 0x0000BEEF0000CAFEull | (0xAAull << 48) | (0x5ull << 16);

	(void)state;
	blen = adaptive(0, 1, lat, 0);
	/* ADL+: 47:32 load-to-use, 15:0 instruction latency (§4.3) */
	assert_int_equal(walk(5, PEBS_WALK_SPLIT_LATENCY, r, 2), 1);
	assert_int_equal(r[0].latency, 0xBEEF);
	assert_int_equal(r[0].instr_latency, 0xCAFE);
	assert_true(r[0].valid & PEBS_F_INSTR_LATENCY);
	/* ICL and earlier: 31:0 */
	assert_int_equal(walk(4, 0, r, 2), 1);
	assert_int_equal(r[0].latency, 0x0005CAFE);
	assert_false(r[0].valid & PEBS_F_INSTR_LATENCY);
	/* retire latency 47:32 of the basic group with timing info (PERF_CAP[17]) */
	assert_int_equal(walk(6, PEBS_WALK_TIMING_INFO, r, 2), 1);
	assert_true(r[0].valid & PEBS_F_RETIRE_LATENCY);
	assert_int_equal(r[0].retire_latency, 0x1234);
}

static void test_adaptive_malformed(void **state)
{
	struct pebs_record r[8];
	uint32_t s;

	(void)state;
	/* zero size: one error, walk stops (no loop) */
	memset(buf, 0, sizeof(buf));
	blen = 256;
	assert_int_equal(walk(4, 0, r, 8), 1);
	assert_int_equal(r[0].err, PEBS_REC_ZERO_SIZE);

	/* size mismatch: error, walk continues at the written size */
	s = adaptive(0, 1, 0, 96);
	assert_int_equal(s, 64);
	adaptive(96, 1, 0, 0);
	blen = 96 + 64;
	assert_int_equal(walk(4, 0, r, 8), 2);
	assert_int_equal(r[0].err, PEBS_REC_SIZE_MISMATCH);
	assert_false(r[0].valid & PEBS_F_AUX);
	assert_int_equal(r[1].err, PEBS_REC_OK);
	assert_int_equal(r[1].offset, 96);

	/* size smaller than the basic group: no record is, the framing is lost, the walk stops
	 * (a walk that went on in strides of the written size took 2-byte steps: decode_fuzz) */
	adaptive(0, 0, 0, 8);
	adaptive(8, 0, 0, 0);
	blen = 40;
	assert_int_equal(walk(4, 0, r, 8), 1);
	assert_int_equal(r[0].err, PEBS_REC_SIZE_MISMATCH);

	/* record runs past the end of the buffer */
	adaptive(0, 1, 0, 0);
	blen = 63;
	assert_int_equal(walk(4, 0, r, 8), 1);
	assert_int_equal(r[0].err, PEBS_REC_TRUNCATED);
	blen = 20;	/* not even a basic group */
	assert_int_equal(walk(4, 0, r, 8), 1);
	assert_int_equal(r[0].err, PEBS_REC_TRUNCATED);

	/* counter group on format 4/5 and undefined bits: the size cannot be computed */
	adaptive(0, 0x10, 0, 0);
	blen = 88;
	assert_int_equal(walk(5, 0, r, 8), 1);
	assert_int_equal(r[0].err, PEBS_REC_BAD_GROUPS);
	put64(0, (64ull << 48) | 0x401);
	blen = 64;
	assert_int_equal(walk(6, 0, r, 8), 1);
	assert_int_equal(r[0].err, PEBS_REC_BAD_GROUPS);

	/* counter header lies outside the written size */
	adaptive(0, 0x10, 0, 40);
	blen = 40;
	assert_int_equal(walk(6, 0, r, 8), 1);
	assert_int_equal(r[0].err, PEBS_REC_SIZE_MISMATCH);

	/* LBR count field alone (no LBR bit) does not change the size */
	adaptive(0, 0x05000001, 0, 0);
	blen = 64;
	assert_int_equal(walk(4, 0, r, 8), 1);
	assert_int_equal(r[0].err, PEBS_REC_OK);
}

static void test_bad_format(void **state)
{
	struct pebs_record r[4];
	struct pebs_walker w;

	(void)state;
	legacy(0, 0, 200);
	blen = 400;
	for (unsigned fmt = 7; fmt <= 16; fmt++) {
		if (fmt == PEBS_FMT_ARCH)
			continue;	/* walked by arch_record.c (arch_record_test.c) */
		assert_int_equal(walk(fmt, 0, r, 4), 1);
		assert_int_equal(r[0].err, PEBS_REC_BAD_FORMAT);
	}
	assert_true(pebs_format_supported(PEBS_FMT_ARCH));
	assert_false(pebs_format_supported(0xE));
	assert_int_equal(pebs_legacy_size(4), 0);
	pebs_walk_init(&w, NULL, 100, 3, 0);
	assert_false(pebs_walk_next(&w, r));
	assert_string_equal(pebs_rec_strerror(PEBS_REC_ZERO_SIZE), "record size field is zero");
	assert_string_equal(pebs_rec_strerror(99), "unknown error");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_legacy_formats),	 cmocka_unit_test(test_legacy_truncated),
		cmocka_unit_test(test_adaptive_groups),	 cmocka_unit_test(test_latency_words),
		cmocka_unit_test(test_adaptive_malformed), cmocka_unit_test(test_bad_format),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
