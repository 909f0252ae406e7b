/*
 * aggbuf_test.c: the one-pass buffer aggregation (pebs/aggbuf.c) must give exactly the same
 * struct pebs_agg as the per-record path (pebs_walk_next + pebs_dsrc_decode + pebs_agg_add)
 * for every model row, both events, every walkable format, on well-formed buffers and on
 * buffers with corrupted records (sizes, groups, truncation). Also checks the layout the
 * context learns by probing the decoder against docs/hardware.md §5.1.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pebs/aggbuf.h"
#include "tests/model/arch_rec_build.h"

static uint64_t rng = 0x853c49e6748fea9bull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static struct pebs_agg fast, slow;
static uint8_t buf[16384];

static void per_record(const struct pebs_model *m, enum pebs_event ev, unsigned fmt,
		       uint32_t flags, size_t len)
{
	struct pebs_walker w;
	struct pebs_record r;
	struct pebs_dsrc d;

	pebs_agg_init(&slow);
	pebs_walk_init(&w, buf, len, fmt, flags);
	while (pebs_walk_next(&w, &r)) {
		pebs_dsrc_decode((r.valid & PEBS_F_AUX) ? m : NULL, ev, r.aux, &d);
		pebs_agg_add(&slow, &r, &d);
	}
}

static void put64(size_t off, uint64_t v)
{
	memcpy(buf + off, &v, 8);
}

/* Architectural PEBS (0xF): random group sets, some records in two fragments, then corrupt
 * some headers (docs/arch-pebs.md "Records"). */
static size_t build_arch(unsigned corrupt)
{
	static const uint64_t shapes[] = { AR_BASIC | AR_AUX, AR_BASIC, AR_BASIC | AR_AUX | AR_GPR,
					   AR_BASIC | AR_AUX | AR_CNTR, AR_BASIC | AR_LBR(1) };
	static const uint64_t vals[4] = { 1, 2, 3, 4 };
	size_t off = 0, len = sizeof(buf) - (next() % 300);

	memset(buf, 0, sizeof(buf));
	while (off + 900 < len) {
		struct arch_rec_spec s = { .aux = next() & 0x7fff, .cache_lat = (uint16_t)next(),
					   .cntr_gp = 0x3, .cntr_fixed = 0x1, .cntr_vals = vals };
		uint64_t g = shapes[next() % 5];

		if (next() % 4 == 0 && (g & AR_AUX)) {	/* basic, then the rest */
			off += arch_frag_write(buf + off, len - off, &s, AR_BASIC, true);
			g &= ~AR_BASIC;
		}
		off += arch_frag_write(buf + off, len - off, &s, g, false);
	}
	for (unsigned k = 0; k < corrupt; k++) {
		size_t at = (next() % (off / 8)) * 8;

		put64(at, next() % 3 ? (next() & 0x3ff) | (next() & 0xffff000000000000ull) : 0);
	}
	return off + (corrupt ? next() % 64 : 0);
}

/* Fill with records of one or two shapes, then corrupt some. Returns the length used. */
static size_t build(unsigned fmt, unsigned corrupt)
{
	size_t off = 0, len = sizeof(buf) - (next() % 300);
	static const uint32_t shapes[] = { 0x1, 0x0, 0x3, 0x1, 0x0f, 0x01000009, 0x11 };
	uint32_t g1 = shapes[next() % 7], g2 = shapes[next() % 7];

	if (fmt == PEBS_FMT_ARCH)
		return build_arch(corrupt);

	for (size_t i = 0; i < sizeof(buf); i += 8)
		put64(i, next() % 4 ? (next() & 0x3fff) : next());	/* aux/latency-like */
	if (fmt < 4)
		return len;
	while (off + 600 < len) {
		uint32_t g = (next() % 4) ? g1 : g2;
		uint32_t size = 32 + ((g & 1) ? 32 : 0) + ((g & 2) ? 144 : 0) + ((g & 4) ? 256 : 0) +
				((g & 8) ? 24 * ((g >> 24) + 1) : 0);

		if (g & 0x10) {
			put64(off + size, 0x0000000100000005ull);	/* GP 0,2 + fixed 0 */
			put64(off + size + 8, 0);
			size += 16 + 24;
		}
		if (fmt < 6)
			g &= ~0x10u;
		if (g & 1)
			put64(off + 48, next());	/* latency word: every bit random */
		put64(off, (uint64_t)size << 48 | (next() & 0xffff) << 32 | g);
		off += size;
	}
	for (unsigned k = 0; k < corrupt; k++) {	/* flip a size/group field somewhere */
		size_t at = (next() % (off / 8)) * 8;

		put64(at, next() % 3 ? (next() & 0x3ff) << 48 | (next() & 0x3f) : 0);
	}
	return len;
}

static void test_equivalence(void **state)
{
	static struct pebs_aggbuf_ctx c;
	unsigned checked = 0;

	(void)state;
	for (unsigned i = 0; pebs_model_at(i); i++) {
		const struct pebs_model *m = pebs_model_at(i);

		for (unsigned ev = 0; ev < 2; ev++) {
			for (unsigned fi = 0; fi <= 8; fi++) {
				unsigned fmt = fi == 8 ? PEBS_FMT_ARCH : fi;
				uint32_t flags = m->split_latency ? PEBS_WALK_SPLIT_LATENCY : 0;

				assert_int_equal(pebs_aggbuf_init(&c, m, ev, fmt, flags), 0);
				for (unsigned corrupt = 0; corrupt < 4; corrupt++) {
					size_t len = build(fmt, corrupt);

					per_record(m, ev, fmt, flags, len);
					pebs_agg_init(&fast);
					assert_int_equal(pebs_aggbuf_add(&c, &fast, buf, len),
							 slow.records);
					if (memcmp(&fast, &slow, sizeof(fast)))
						fail_msg("%s ev %u fmt %u corrupt %u: aggregates differ "
							 "(records %llu/%llu errors %llu/%llu)",
							 m->name, ev, fmt, corrupt,
							 (unsigned long long)fast.records,
							 (unsigned long long)slow.records,
							 (unsigned long long)fast.errors,
							 (unsigned long long)slow.errors);
					checked++;
				}
			}
		}
	}
	assert_true(checked > 1000);
	/* a NULL model and a NULL buffer */
	assert_int_equal(pebs_aggbuf_init(&c, NULL, PEBS_EV_LOAD, 3, 0), 0);
	pebs_agg_init(&fast);
	assert_int_equal(pebs_aggbuf_add(&c, &fast, NULL, 100), 0);
}

static void test_learned_layouts(void **state)
{
	static struct pebs_aggbuf_ctx c;
	static const struct {
		unsigned fam, mod;
		enum pebs_core core;
		enum pebs_event ev;
		uint64_t code, stlb, lock;
	} want[] = {	/* §5.1 */
		{ 6, 0x1A, PEBS_CORE_ANY, PEBS_EV_LOAD, 0xf, 0, 0 },
		{ 6, 0x2A, PEBS_CORE_ANY, PEBS_EV_LOAD, 0xf, 1 << 4, 1 << 5 },
		{ 6, 0x2A, PEBS_CORE_ANY, PEBS_EV_STORE, 0x1, 1 << 4, 1 << 5 },
		{ 6, 0x3C, PEBS_CORE_ANY, PEBS_EV_STORE, 0x1, 0, 0 },
		{ 6, 0x97, PEBS_CORE_E, PEBS_EV_LOAD, 0xf, 1 << 5, 1 << 4 },
		{ 6, 0xAF, PEBS_CORE_ANY, PEBS_EV_LOAD, 0x1f, 1 << 6, 1 << 5 },
		{ 6, 0xBD, PEBS_CORE_P, PEBS_EV_LOAD, 0xff, 1 << 10, 1 << 11 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct pebs_model *m = pebs_model_lookup(want[i].fam, want[i].mod,
							       want[i].core);

		assert_non_null(m);
		assert_int_equal(pebs_aggbuf_init(&c, m, want[i].ev, m->format, 0), 0);
		assert_int_equal(c.code_mask, want[i].code);
		assert_int_equal(c.stlb_mask, want[i].stlb);
		assert_int_equal(c.lock_mask, want[i].lock);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_learned_layouts),
		cmocka_unit_test(test_equivalence),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
