/*
 * arch_record_test.c: the architectural-PEBS walker (pebs/arch_record.c) on fragments written
 * by the independent encoder tests/model/arch_rec_build.c (docs/arch-pebs.md "Records"):
 * every combination of the basic, AUX, GPR, XMM, LBR (8/16/depth) and counter groups; records
 * split into fragments and joined; null fragments; truncation inside a fragment and a chain
 * running past the end; garbage (zero size, short size, reserved bits, vector groups, sizes
 * that do not match the groups). Buffers are exact-size heap copies so ASan sees any overread.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pebs/record.h"
#include "tests/model/arch_rec_build.h"

static uint8_t buf[16384];
static size_t blen;
static const uint64_t vals[] = { 111, 222, 333, 444, 555, 666 };

static struct arch_rec_spec spec(unsigned i)
{
	return (struct arch_rec_spec){
		.ip = 0x401000 + i, .applicable = 1u << 2, .tsc = 1000 + i, .retire = 9,
		.retire_valid = true, .addr = 0x7f0000001000 + 64 * i, .aux = 0x104,
		.instr_lat = 3, .cache_lat = 40 + i, .gpr_ip = 0x401004 + i, .lbr_depth = 5,
		.cntr_gp = 0x5, .cntr_fixed = 0x2, .cntr_vals = vals,
	};
}

static void add(const struct arch_rec_spec *s, uint64_t groups, bool cont)
{
	size_t n = arch_frag_write(buf + blen, sizeof(buf) - blen, s, groups, cont);

	assert_true(n >= 16);
	blen += n;
}

static void put64(size_t off, uint64_t v)
{
	memcpy(buf + off, &v, 8);
}

/* Walk buf[0, blen) as format 0xF; returns the number of records. cntr pointers are cleared
 * (they point into the freed copy). */
static unsigned walk(struct pebs_record *out, unsigned max)
{
	uint8_t *copy = malloc(blen ? blen : 1);
	struct pebs_walker w;
	struct pebs_record r;
	unsigned n = 0;

	memcpy(copy, buf, blen);
	pebs_walk_init(&w, copy, blen, PEBS_FMT_ARCH, 0);
	while (pebs_walk_next(&w, &r)) {
		assert_true(n < max);
		if (r.valid & PEBS_F_COUNTERS) {
			uint64_t v0, v2;

			memcpy(&v0, r.cntr, 8);
			memcpy(&v2, r.cntr + 16, 8);
			assert_int_equal(v0, 111);	/* GP0 */
			assert_int_equal(v2, 333);	/* fixed 1 after GP0, GP2 */
		}
		r.cntr = NULL;
		out[n++] = r;
	}
	assert_false(pebs_walk_next(&w, &r));
	free(copy);
	return n;
}

static void test_every_group_combination(void **state)
{
	static const uint64_t opt[] = { AR_AUX, AR_GPR, AR_XMM, AR_CNTR };
	struct pebs_record r[4];

	(void)state;
	for (unsigned m = 0; m < 16; m++) {
		for (unsigned lbr = 0; lbr < 4; lbr++) {
			uint64_t g = AR_BASIC | AR_LBR(lbr);
			struct arch_rec_spec s0 = spec(0), s1 = spec(1);

			for (unsigned k = 0; k < 4; k++)
				if (m & (1u << k))
					g |= opt[k];
			blen = 0;
			add(&s0, g, false);
			add(&s1, g, false);
			assert_int_equal(walk(r, 4), 2);
			for (unsigned i = 0; i < 2; i++) {
				assert_int_equal(r[i].err, PEBS_REC_OK);
				assert_int_equal(r[i].fragments, 1);
				assert_int_equal(r[i].size, arch_frag_size(&s0, g));
				assert_int_equal(r[i].eventing_ip, 0x401000 + i);
				assert_int_equal(r[i].tsc, 1000 + i);
				assert_int_equal(r[i].retire_latency, 9);
				assert_int_equal(!!(r[i].valid & PEBS_F_AUX), !!(g & AR_AUX));
				assert_int_equal(!!(r[i].valid & PEBS_F_IP), !!(g & AR_GPR));
				assert_int_equal(!!(r[i].valid & PEBS_F_COUNTERS), !!(g & AR_CNTR));
				if (g & AR_AUX) {
					assert_int_equal(r[i].latency, 40 + i);
					assert_int_equal(r[i].instr_latency, 3);
					assert_int_equal(r[i].aux, 0x104);
					assert_int_equal(r[i].addr, 0x7f0000001000 + 64 * i);
				}
				if (g & AR_GPR)
					assert_int_equal(r[i].ip, 0x401004 + i);
				if (g & AR_CNTR) {
					assert_int_equal(r[i].cntr_gp, 0x5);
					assert_int_equal(r[i].cntr_fixed, 0x2);
				}
			}
			assert_int_equal(r[1].offset, r[0].size);
		}
	}
}

static void test_fragments_joined(void **state)
{
	struct arch_rec_spec s = spec(0), t = spec(1);
	struct pebs_record r[4];

	(void)state;
	blen = 0;
	add(&s, AR_BASIC, true);	/* basic | AUX | GPR in three fragments */
	add(&s, AR_AUX, true);
	add(&s, AR_GPR, false);
	add(&t, AR_BASIC | AR_AUX, false);
	assert_int_equal(walk(r, 4), 2);
	assert_int_equal(r[0].err, PEBS_REC_OK);
	assert_int_equal(r[0].fragments, 3);
	assert_int_equal(r[0].size, 16 + 48 + 16 + 64 + 16 + 160);
	assert_int_equal(r[0].latency, 40);
	assert_int_equal(r[0].ip, 0x401004);
	assert_int_equal(r[1].offset, r[0].size);
	assert_int_equal(r[1].fragments, 1);
	assert_int_equal(r[1].latency, 41);

	/* a null fragment (bits 63:16 zero) continues the record as CONT does */
	blen = 0;
	add(&s, AR_BASIC, false);	/* a whole record, then a null fragment */
	put64(blen, 16);
	put64(blen + 8, 0);
	blen += 16;
	add(&t, AR_BASIC | AR_AUX, false);
	assert_int_equal(walk(r, 4), 2);
	assert_int_equal(r[1].fragments, 2);	/* null + basic/AUX joined */
	assert_int_equal(r[1].err, PEBS_REC_OK);
	assert_int_equal(r[1].latency, 41);
}

static void test_truncated(void **state)
{
	struct arch_rec_spec s = spec(0);
	struct pebs_record r[4];

	(void)state;
	/* the chain says "more follows" but the written bytes end: incomplete record */
	blen = 0;
	add(&s, AR_BASIC | AR_AUX, false);
	add(&s, AR_BASIC | AR_AUX, true);
	assert_int_equal(walk(r, 4), 2);
	assert_int_equal(r[1].err, PEBS_REC_TRUNCATED);
	assert_int_equal(r[1].latency, 40);	/* what was there is still decoded */
	assert_int_equal(r[1].offset, 16 + 48 + 64);

	/* cut inside a fragment, and a tail shorter than a header */
	for (size_t cut = 1; cut < 16 + 48 + 64; cut++) {
		blen = 0;
		add(&s, AR_BASIC | AR_AUX, false);
		add(&s, AR_BASIC | AR_AUX, false);
		blen -= cut;
		assert_int_equal(walk(r, 4), 2);
		assert_int_equal(r[0].err, PEBS_REC_OK);
		assert_int_equal(r[1].err, PEBS_REC_TRUNCATED);
	}
}

static void test_garbage(void **state)
{
	struct arch_rec_spec s = spec(0);
	struct pebs_record r[4];

	(void)state;
	blen = 0;
	add(&s, AR_BASIC | AR_AUX, false);
	memset(buf + blen, 0, 64);	/* size 0: stop, offset named */
	blen += 64;
	assert_int_equal(walk(r, 4), 2);
	assert_int_equal(r[1].err, PEBS_REC_ZERO_SIZE);
	assert_int_equal(r[1].offset, 128);

	blen = 0;
	put64(0, 8 | AR_BASIC);		/* size below the header: framing lost, stop */
	blen = 64;
	assert_int_equal(walk(r, 4), 1);
	assert_int_equal(r[0].err, PEBS_REC_SIZE_MISMATCH);

	/* sizes that do not match the groups, reserved bits, vector groups, absurd LBR depth:
	 * an error on that record, the walk goes on */
	static const uint64_t bad[] = { 1ull << 20, 1ull << 50, 1ull << 53, 1ull << 34 };

	for (unsigned k = 0; k < 5; k++) {
		blen = 0;
		add(&s, AR_BASIC | AR_AUX, false);
		if (k < 4)
			put64(0, (16 + 48 + 64) | AR_BASIC | AR_AUX | bad[k]);
		else
			put64(0, (16 + 48 + 32) | AR_BASIC | AR_AUX);	/* 32 B short */
		add(&s, AR_BASIC, false);
		unsigned n = walk(r, 4);

		/* k == 4: the 32 B left of the AUX group frame a header of size 0: stop */
		assert_int_equal(n, 2);
		if (k == 4)
			assert_int_equal(r[1].err, PEBS_REC_ZERO_SIZE);
		else
			assert_int_equal(r[1].err, PEBS_REC_OK);
		assert_int_equal(r[0].err, k < 4 ? PEBS_REC_BAD_GROUPS : PEBS_REC_SIZE_MISMATCH);
		assert_false(r[0].valid & PEBS_F_AUX);	/* nothing decoded from a bad fragment */
	}
	blen = 0;
	s.lbr_depth = 1u << 20;
	add(&s, AR_BASIC, false);
	put64(0, (16 + 48 + 48) | AR_BASIC | AR_LBR(3));
	put64(16 + 48 + 16, s.lbr_depth);
	blen = 16 + 48 + 48;
	assert_int_equal(walk(r, 4), 1);
	assert_int_equal(r[0].err, PEBS_REC_SIZE_MISMATCH);

	/* a record whose first fragment has groups but no basic group */
	blen = 0;
	s = spec(0);
	add(&s, AR_AUX, false);
	assert_int_equal(walk(r, 4), 1);
	assert_int_equal(r[0].err, PEBS_REC_NO_BASIC);
	assert_string_equal(pebs_rec_strerror(PEBS_REC_NO_BASIC),
			    "record starts without the basic group");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_group_combination),
		cmocka_unit_test(test_fragments_joined),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_garbage),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
