/*
 * pmm_test.c: the physical allocator: ranges trimmed to pages, exclusions carved out (kernel,
 * boot info, low memory), overlapping firmware entries, alignment, exhaustion, mark/release,
 * and a randomized check that no allocation ever overlaps an exclusion or another allocation.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "kernel/mb2.h"
#include "kernel/mm.h"
#include "kernel/pmm.h"

static void test_exclusions(void **state)
{
	struct pmm p;

	(void)state;
	pmm_init(&p);
	pmm_add(&p, 0, 0x9fc00);		/* trimmed to 0x9f000 */
	pmm_add(&p, 0x100000, 0x7f00000);
	pmm_exclude(&p, 0, 1 << 20);
	pmm_exclude(&p, 0x100000, 0x40123);	/* kernel: rounded out to 0x141000 */
	pmm_exclude(&p, 0x200800, 0x100);	/* boot info inside a page */
	assert_int_equal(p.n, 2);
	assert_int_equal(p.r[0].start, 0x141000);
	assert_int_equal(p.r[0].end, 0x200000);
	assert_int_equal(p.r[1].start, 0x201000);
	assert_int_equal(pmm_total(&p), (0x200000 - 0x141000) + (0x8000000 - 0x201000));
	assert_int_equal(pmm_take(&p, 1, 4096), 0x141000);
	assert_int_equal(pmm_take(&p, 2 << 20, 2 << 20), 0x400000);
}

/* A full multiboot2 map (MB2_MAX_MMAP entries, all usable, as a big server's firmware map
 * can be) plus mm_init's three exclusions, each splitting a range: nothing may be lost. */
static void test_full_firmware_map(void **state)
{
	static struct pmm p;
	uint64_t want = 0;

	(void)state;
	pmm_init(&p);
	for (unsigned i = 0; i < MB2_MAX_MMAP; i++) {
		pmm_add(&p, (uint64_t)i << 30, 512ull << 20);	/* reserved gap above each */
		want += 512ull << 20;
	}
	pmm_exclude(&p, 0, 1 << 20);
	pmm_exclude(&p, 2ull << 30 | 0x100000, 0x200000);	/* a kernel, mid-range */
	pmm_exclude(&p, 5ull << 30 | 0x800000, 0x1000);	/* boot info, mid-range */
	want -= (1 << 20) + 0x200000 + 0x1000;
	assert_false(p.overflow);
	assert_int_equal(pmm_total(&p), want);
	assert_int_equal(pmm_top(&p), ((uint64_t)(MB2_MAX_MMAP - 1) << 30) + (512ull << 20));
}

static void test_overlapping_entries(void **state)
{
	struct pmm p;

	(void)state;
	pmm_init(&p);
	pmm_add(&p, 0x100000, 0x100000);
	pmm_add(&p, 0x180000, 0x100000);	/* overlaps: counted once */
	assert_int_equal(pmm_total(&p), 0x180000);
}

static void test_bad_args_and_exhaustion(void **state)
{
	struct pmm p;

	(void)state;
	pmm_init(&p);
	pmm_add(&p, 0x100000, 0x10000);
	assert_int_equal(pmm_take(&p, 0, 4096), 0);
	assert_int_equal(pmm_take(&p, 4096, 3000), 0);
	assert_int_equal(pmm_take(&p, 4096, 12288), 0);	/* not a power of two */
	assert_int_equal(pmm_take(&p, UINT64_MAX, 4096), 0);
	assert_int_equal(pmm_take(&p, 0x10000, 4096), 0x100000);
	assert_int_equal(pmm_take(&p, 4096, 4096), 0);
	pmm_add(&p, 0xfffffffffffff000ull, 0x10000);	/* wraps: clipped, no crash */
}

/* A block inside a node's range [lo, hi) (NUMA, platform/numa.h): never outside it, aligned,
 * the range's free space below the block skipped, not lost to a later release. */
static void test_take_in(void **state)
{
	struct pmm p;
	struct pmm_mark m;

	(void)state;
	pmm_init(&p);
	pmm_add(&p, 0x100000, 0x1ff00000);		/* [1M, 512M) */
	pmm_add(&p, 0x40000000, 0x10000000);		/* [1G, 1.25G) */
	pmm_mark(&p, &m);
	assert_int_equal(pmm_take_in(&p, 0x1000, 4096, 0, 0x100000), 0);	/* no RAM there */
	assert_int_equal(pmm_take_in(&p, 0x1000, 4096, 5, 5), 0);		/* empty range */
	assert_int_equal(pmm_take_in(&p, 0x1000, 4096, 9, 3), 0);		/* inverted */
	assert_int_equal(pmm_take_in(&p, 0x200000, 0x200000, 0x10000000, 0x20000000),
			 0x10000000);
	assert_int_equal(pmm_take_in(&p, 0x1000, 4096, 0x10000000, 0x20000000), 0x10200000);
	/* does not fit below hi: the next range is outside [lo, hi) too */
	assert_int_equal(pmm_take_in(&p, 0x10000000, 4096, 0x10000000, 0x20000000), 0);
	/* straddles two ranges' window: only the second range can hold it */
	assert_int_equal(pmm_take_in(&p, 0x1000000, 4096, 0x1f800000, 0x48000000), 0x40000000);
	/* an unconstrained take continues above the constrained ones */
	assert_int_equal(pmm_take(&p, 0x1000, 4096), 0x10201000);
	pmm_release(&p, &m);
	assert_int_equal(pmm_take(&p, 0x1000, 4096), 0x100000);
	assert_int_equal(pmm_take_in(&p, 0x1000, 4096, 0x40000000, ~0ull), 0x40000000);
}

static void test_mark_release(void **state)
{
	struct pmm p;
	struct pmm_mark m;

	(void)state;
	pmm_init(&p);
	pmm_add(&p, 0x100000, 0x100000);
	assert_int_equal(pmm_take(&p, 4096, 4096), 0x100000);
	pmm_mark(&p, &m);
	assert_int_equal(pmm_take(&p, 0x80000, 4096), 0x101000);
	assert_int_equal(pmm_free(&p), 0x100000 - 0x81000);
	pmm_release(&p, &m);
	assert_int_equal(pmm_free(&p), 0x100000 - 0x1000);
	assert_int_equal(pmm_take(&p, 4096, 4096), 0x101000);
}

static void test_random_never_overlaps(void **state)
{
	struct pmm p;
	uint64_t got[512][2];
	unsigned n = 0;

	(void)state;
	srand(1);
	pmm_init(&p);
	for (int i = 0; i < 20; i++)
		pmm_add(&p, (uint64_t)(rand() % 4096) << 20, (uint64_t)(rand() % 64 + 1) << 20);
	for (int i = 0; i < 30; i++)
		pmm_exclude(&p, (uint64_t)(rand() % 4096) << 20, (uint64_t)rand() % (8 << 20));
	for (unsigned i = 0; i + 1 < p.n; i++)
		assert_true(p.r[i].end <= p.r[i + 1].start);
	while (n < 512) {
		uint64_t align = 4096ull << (rand() % 10), sz = ((uint64_t)rand() % 64 + 1) << 12;
		uint64_t a = pmm_take(&p, sz, align);

		if (!a)
			break;
		assert_int_equal(a % align, 0);
		for (unsigned j = 0; j < n; j++)
			assert_true(a + sz <= got[j][0] || got[j][0] + got[j][1] <= a);
		got[n][0] = a;
		got[n][1] = sz;
		n++;
	}
	assert_true(n > 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exclusions),
		cmocka_unit_test(test_full_firmware_map),
		cmocka_unit_test(test_overlapping_entries),
		cmocka_unit_test(test_bad_args_and_exhaustion),
		cmocka_unit_test(test_take_in),
		cmocka_unit_test(test_mark_release),
		cmocka_unit_test(test_random_never_overlaps),
	};
	return cmocka_run_group_tests_name("pmm", tests, NULL, NULL);
}
