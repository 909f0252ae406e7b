/*
 * chain_test.c: the chain builder's promises (loads/chain.h), each checked by walking the
 * built buffer, not by trusting the builder's own counters: one cycle through every node,
 * pointer alignment and placement, reproducibility from the seed, no consecutive
 * neighbouring nodes, no consecutive nodes in one page where the rule applies; the visit
 * order's conversion to a successor array, and the chains themselves pinned to those of the
 * earlier builder (links written in visit order), so a broken conversion cannot hide.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "loads/chain.h"

struct built {
	struct chain_params p;
	struct chain c;
	uint8_t *buf;
	uint32_t *scratch;
};

static void build(struct built *b, uint64_t bytes, uint32_t stride, uint64_t seed)
{
	memset(b, 0, sizeof(*b));
	b->p.bytes = bytes;
	b->p.stride = stride;
	b->p.line = 64;
	b->p.page = 4096;
	b->p.seed = seed;
	b->p.vary_slot = true;
	b->p.vary_line = true;
	b->buf = aligned_alloc(4096, (bytes + 4095) & ~(uint64_t)4095);
	b->scratch = malloc(chain_scratch_bytes(&b->p));
	assert_non_null(b->buf);
	assert_non_null(b->scratch);
	memset(b->buf, 0, bytes);
	assert_int_equal(chain_build(&b->c, b->buf, &b->p, b->scratch), 0);
}

static void unbuild(struct built *b)
{
	free(b->buf);
	free(b->scratch);
}

/* Node index of a pointer (fails the test if it is outside the working set). */
static uint64_t node_of(const struct built *b, uintptr_t q)
{
	assert_true(q >= (uintptr_t)b->buf);
	assert_true(q + 8 <= (uintptr_t)b->buf + b->p.bytes);
	return (q - (uintptr_t)b->buf) / b->p.stride;
}

/* Walk n steps from head: each node once, back at head after exactly n. Returns the
 * visit order (caller frees). */
static uint64_t *walk(const struct built *b)
{
	uint64_t n = b->c.nodes, *order = malloc(n * sizeof(*order));
	uint8_t *seen = calloc(n, 1);
	uintptr_t q = b->c.head;

	assert_non_null(order);
	assert_non_null(seen);
	for (uint64_t k = 0; k < n; k++) {
		uint64_t i = node_of(b, q);

		assert_int_equal(seen[i], 0);
		seen[i] = 1;
		order[k] = i;
		memcpy(&q, (void *)q, sizeof(q));
	}
	assert_true(q == b->c.head);
	free(seen);
	return order;
}

static void test_single_cycle(void **state)
{
	static const uint64_t sizes[] = { 320, 1024, 4096, 16 << 10, 40960, 256 << 10, 1 << 20 };

	(void)state;
	for (unsigned s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		for (uint64_t seed = 1; seed <= 3; seed++) {
			struct built b;
			uint64_t *o;

			build(&b, sizes[s], 64, seed);
			assert_int_equal(b.c.nodes, sizes[s] / 64);
			o = walk(&b);
			assert_int_equal(chain_walk_len(&b.c), b.c.nodes);
			free(o);
			unbuild(&b);
		}
	}
}

static void test_broken_chain_detected(void **state)
{
	struct built b;
	uintptr_t q;

	(void)state;
	build(&b, 16 << 10, 64, 7);
	/* Point some node back at itself: a short cycle that never returns to head. */
	memcpy(&q, (void *)b.c.head, sizeof(q));
	memcpy((void *)q, &q, sizeof(q));
	assert_int_equal(chain_walk_len(&b.c), 0);
	unbuild(&b);
}

static void test_alignment_and_placement(void **state)
{
	struct built b;
	unsigned slots_used = 0, lines_used = 0;
	uint8_t slot_seen[8] = { 0 }, line_seen[64] = { 0 };

	(void)state;
	build(&b, 64 << 10, 64, 11);
	for (uint64_t i = 0; i < b.c.nodes; i++) {
		uint64_t off = chain_node_offset(&b.p, i);
		uintptr_t q;

		assert_int_equal(off % 8, 0);
		assert_int_equal(off / 64, i);		/* inside its own line */
		memcpy(&q, b.buf + off, sizeof(q));
		assert_int_equal(q % 8, 0);
		node_of(&b, q);
		assert_int_equal((q - (uintptr_t)b.buf) % 64 + 8 <= 64, 1);
		slot_seen[off % 64 / 8] = 1;
	}
	unbuild(&b);
	for (unsigned k = 0; k < 8; k++)
		slots_used += slot_seen[k];
	assert_int_equal(slots_used, 8);	/* vary_slot spreads the slot */

	/* STLB layout: one node per 4 KiB page, a pseudo-random line inside it. */
	build(&b, 4 << 20, 4096, 11);
	assert_int_equal(b.c.nodes, 1024);
	for (uint64_t i = 0; i < b.c.nodes; i++) {
		uint64_t off = chain_node_offset(&b.p, i);

		assert_int_equal(off / 4096, i);
		assert_int_equal(off % 8, 0);
		line_seen[off % 4096 / 64] = 1;
	}
	free(walk(&b));
	unbuild(&b);
	for (unsigned k = 0; k < 64; k++)
		lines_used += line_seen[k];
	assert_true(lines_used >= 60);		/* pages do not all start in one set */
}

static void test_reproducible(void **state)
{
	struct built a, b, c;

	(void)state;
	build(&a, 256 << 10, 64, 42);
	build(&b, 256 << 10, 64, 42);
	build(&c, 256 << 10, 64, 43);
	/* Same seed: same bytes at the same offsets (addresses differ only by the base). */
	for (uint64_t i = 0; i < a.c.nodes; i++) {
		uint64_t off = chain_node_offset(&a.p, i);
		uintptr_t qa, qb;

		memcpy(&qa, a.buf + off, 8);
		memcpy(&qb, b.buf + off, 8);
		assert_true(qa - (uintptr_t)a.buf == qb - (uintptr_t)b.buf);
	}
	assert_true(a.c.head - (uintptr_t)a.buf == b.c.head - (uintptr_t)b.buf);
	{
		uint64_t *oa = walk(&a), *oc = walk(&c);
		uint64_t same = 0;

		for (uint64_t k = 0; k < a.c.nodes; k++)
			same += oa[k] == oc[k];
		assert_true(same < a.c.nodes / 16);	/* another seed, another chain */
		free(oa);
		free(oc);
	}
	unbuild(&a);
	unbuild(&b);
	unbuild(&c);
}

static void check_rules(uint64_t bytes, uint32_t stride, uint64_t seed, bool page_rule)
{
	struct built b;
	uint64_t *o, n;

	build(&b, bytes, stride, seed);
	n = b.c.nodes;
	assert_int_equal(b.c.page_rule, page_rule);
	o = walk(&b);
	for (uint64_t k = 0; k < n; k++) {
		uint64_t a = o[k], z = o[(k + 1) % n];
		uint64_t d = a > z ? a - z : z - a;

		assert_true(d >= 2);	/* never the same or a neighbouring line/page */
		if (page_rule)
			assert_true(a * stride / 4096 != z * stride / 4096);
	}
	assert_int_equal(b.c.near_left, 0);
	assert_int_equal(b.c.page_left, 0);
	free(o);
	unbuild(&b);
}

static void test_no_neighbours(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed <= 20; seed++) {
		check_rules(1024, 64, seed, false);		/* 16 lines, one page */
		check_rules(8 << 10, 64, seed, false);		/* 2 pages: rule off */
		check_rules(16 << 10, 64, seed, true);		/* 4 pages: tightest case */
		check_rules(24 << 10, 64, seed, true);
		check_rules(256 << 10, 64, seed, true);
		check_rules(1 << 20, 4096, seed, false);	/* one node per page */
	}
	check_rules(16 << 20, 64, 5, true);
}

static void test_bad_params(void **state)
{
	struct chain_params p = { .bytes = 4096, .stride = 64, .line = 64, .page = 4096, .seed = 1 };
	uint8_t buf[4096];
	uint32_t scratch[2 * 64];
	struct chain c;

	(void)state;
	assert_int_equal(chain_build(&c, buf, &p, scratch), 0);
	p.stride = 48;
	assert_int_equal(chain_build(&c, buf, &p, scratch), -1);
	p.stride = 64;
	p.line = 128;					/* line > stride */
	assert_int_equal(chain_build(&c, buf, &p, scratch), -1);
	p.line = 64;
	p.bytes = 4 * 64;				/* below CHAIN_MIN_NODES */
	assert_int_equal(chain_build(&c, buf, &p, scratch), -1);
}

static void test_successors(void **state)
{
	static const uint32_t order[] = { 3, 0, 5, 1, 4, 2 };	/* visit order */
	static const uint32_t want[] = { 5, 4, 3, 0, 2, 1 };	/* node -> next node */
	uint32_t succ[6];

	(void)state;
	memset(succ, 0xff, sizeof(succ));
	chain_successors(order, 6, succ);
	assert_memory_equal(succ, want, sizeof(want));		/* the last wraps to the first */
}

/* FNV-1a over the byte offsets a walk from head visits, in order. */
static uint64_t walk_hash(const struct built *b)
{
	uint64_t h = 0xcbf29ce484222325ull;
	uintptr_t q = b->c.head;

	for (uint64_t k = 0; k < b->c.nodes; k++) {
		h = (h ^ (q - (uintptr_t)b->buf)) * 0x100000001b3ull;
		memcpy(&q, (void *)q, sizeof(q));
	}
	return h;
}

/* The same chains, node for node, as the builder that wrote links in visit order (hashes
 * taken from it): a successor array off by one, a wrong wrap or a node's offset mixed up
 * with its successor's changes them; the properties above might not notice. */
static void test_pinned_chains(void **state)
{
	static const struct { uint64_t bytes; uint32_t stride; uint64_t seed, hash; } pin[] = {
		{ 1024, 64, 1, 0xbd5994da37fcf025ull },
		{ 16 << 10, 64, 3, 0x8eeb4b4543b94535ull },
		{ 256 << 10, 64, 42, 0xc87beb3662402115ull },
		{ 4 << 20, 4096, 11, 0xc1ad042200c19b85ull },	/* vary_line: a line per page */
	};

	(void)state;
	for (unsigned i = 0; i < sizeof(pin) / sizeof(pin[0]); i++) {
		struct built b;

		build(&b, pin[i].bytes, pin[i].stride, pin[i].seed);
		assert_true(walk_hash(&b) == pin[i].hash);
		unbuild(&b);
	}
}

static void test_rand_below(void **state)
{
	uint64_t s = 3, hist[10] = { 0 };

	(void)state;
	for (unsigned i = 0; i < 100000; i++) {
		uint64_t v = chain_rand_below(&s, 10);

		assert_true(v < 10);
		hist[v]++;
	}
	for (unsigned i = 0; i < 10; i++)
		assert_true(hist[i] > 9000 && hist[i] < 11000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_single_cycle),
		cmocka_unit_test(test_broken_chain_detected),
		cmocka_unit_test(test_alignment_and_placement),
		cmocka_unit_test(test_reproducible),
		cmocka_unit_test(test_no_neighbours),
		cmocka_unit_test(test_bad_params),
		cmocka_unit_test(test_rand_below),
		cmocka_unit_test(test_successors),
		cmocka_unit_test(test_pinned_chains),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
