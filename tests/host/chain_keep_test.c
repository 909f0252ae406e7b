/*
 * chain_keep_test.c: the keep/reuse rules of loads/chain_keep.h: what is kept (size caps, free
 * memory share, page kind, slots, replacement unless in use), what is found (the full key
 * only, never a spoiled chain), which kernels spoil.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "loads/chain_keep.h"

#define MIB (1ull << 20)
#define GIB (1ull << 30)

static struct chain_params key(uint64_t bytes, uint64_t seed)
{
	return (struct chain_params){ .bytes = bytes, .stride = 64, .line = 64, .page = 4096,
				      .seed = seed, .vary_slot = true };
}

static void add(struct keep_set *s, uint64_t bytes, uintptr_t base, const char *by)
{
	struct chain_params p = key(bytes, 1);
	struct chain c = { .head = base + 8, .nodes = bytes / 64 };

	keep_add(s, &p, &c, base, bytes, by);
}

static void test_decide(void **state)
{
	struct keep_set s;

	(void)state;
	keep_clear(&s);
	assert_int_equal(keep_decide(&s, 4 * MIB, true, 512 * MIB, false), KEEP_ADD);
	assert_int_equal(keep_decide(&s, 4 * MIB, false, 512 * MIB, false), KEEP_NO);	/* 4K/node */
	assert_int_equal(keep_decide(&s, 0, true, 512 * MIB, false), KEEP_NO);
	assert_int_equal(keep_decide(&s, KEEP_MAX_BYTES + 4096, true, 64 * GIB, false), KEEP_NO);
	assert_int_equal(keep_decide(&s, 1 * GIB, true, 64 * GIB, false), KEEP_NO);	/* DRAM */
	/* free-memory share: 4 MiB needs 64 MiB free */
	assert_int_equal(keep_decide(&s, 4 * MIB, true, 64 * MIB, false), KEEP_ADD);
	assert_int_equal(keep_decide(&s, 4 * MIB, true, 64 * MIB - 4096, false), KEEP_NO);

	add(&s, 4 * MIB, 0x10000000, "load_dram");
	assert_int_equal(s.bytes, 4 * MIB);
	assert_int_equal(keep_decide(&s, 4 * MIB, true, 512 * MIB, false), KEEP_ADD);	/* 8 MiB */
	assert_int_equal(keep_decide(&s, 4 * MIB + 4096, true, 512 * MIB, false), KEEP_REPLACE);
	assert_int_equal(keep_decide(&s, 4 * MIB + 4096, true, 512 * MIB, true), KEEP_NO);
	/* the kept chain's memory counts toward the share: 60 MiB free + 4 MiB kept = 64 */
	assert_int_equal(keep_decide(&s, 4 * MIB, true, 60 * MIB, false), KEEP_REPLACE);
	assert_int_equal(keep_decide(&s, 4 * MIB, true, 124 * MIB, false), KEEP_ADD);

	/* slots: four small ones, then a fifth replaces */
	keep_clear(&s);
	for (unsigned i = 0; i < KEEP_SLOTS; i++) {
		assert_int_equal(keep_decide(&s, 64 << 10, true, 512 * MIB, false), KEEP_ADD);
		add(&s, 64 << 10, 0x1000000 * (i + 1), "x");
	}
	assert_int_equal(keep_decide(&s, 64 << 10, true, 512 * MIB, false), KEEP_REPLACE);
	keep_clear(&s);
	assert_int_equal(s.bytes, 0);
	assert_int_equal(keep_find(&s, &(struct chain_params){ .bytes = 64 << 10, .stride = 64,
		.line = 64, .page = 4096, .seed = 1, .vary_slot = true }), -1);
}

static void test_find(void **state)
{
	struct keep_set s;
	struct chain_params p;

	(void)state;
	keep_clear(&s);
	add(&s, 128 << 10, 0x20000000, "load_l2");
	add(&s, 4 * MIB, 0x30000000, "load_dram");
	p = key(4 * MIB, 1);
	assert_int_equal(keep_find(&s, &p), 1);
	assert_string_equal(s.e[1].by, "load_dram");
	assert_true(s.e[1].chain.head == 0x30000008);
	p = key(128 << 10, 1);
	assert_int_equal(keep_find(&s, &p), 0);
	/* every field of the key counts */
	p.seed = 2;
	assert_int_equal(keep_find(&s, &p), -1);
	p = key(128 << 10, 1);
	p.stride = 4096;
	assert_int_equal(keep_find(&s, &p), -1);
	p = key(128 << 10, 1);
	p.line = 128;
	assert_int_equal(keep_find(&s, &p), -1);
	p = key(128 << 10, 1);
	p.vary_slot = false;
	assert_int_equal(keep_find(&s, &p), -1);
	p = key(128 << 10, 1);
	p.vary_line = true;
	assert_int_equal(keep_find(&s, &p), -1);
	p = key(256 << 10, 1);
	assert_int_equal(keep_find(&s, &p), -1);
}

static void test_spoil(void **state)
{
	struct keep_set s;
	struct chain_params p = key(128 << 10, 1);

	(void)state;
	assert_false(keep_kind_writes(CHASE_LOAD));
	assert_false(keep_kind_writes(CHASE_LFB));
	assert_true(keep_kind_writes(CHASE_STORE));
	keep_clear(&s);
	add(&s, 128 << 10, 0x20000000, "load_l2");
	keep_spoil(&s, 0x20000000 + (128 << 10));	/* just past it: another buffer */
	assert_int_equal(keep_find(&s, &p), 0);
	keep_spoil(&s, 0x1fff0000);			/* below it */
	assert_int_equal(keep_find(&s, &p), 0);
	keep_spoil(&s, 0x20000000);			/* a store kernel ran over it */
	assert_int_equal(keep_find(&s, &p), -1);
	assert_int_equal(s.bytes, 128 << 10);		/* still holds its memory */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decide),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_spoil),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
