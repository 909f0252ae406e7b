/*
 * pgtable_test.c: the page-table builder checked by walking the tables it built (the same
 * walk the MMU does, SDM Vol. 3A 4.5) and by decoding the raw entries: largest pages chosen
 * by alignment, 1 GiB only when the CPU has it, NX only with NX, read-only text, splits of
 * large pages keeping the untouched part, unmapping, and running out of table memory.
 * "Physical" addresses are offsets into a pool of pages allocated here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/mm.h"
#include "kernel/pgtable.h"

#define POOL_PAGES 64

struct pool {
	uint8_t *mem;		/* page-aligned */
	unsigned used, limit;
};

static uint64_t pool_alloc(void *ctx)
{
	struct pool *p = ctx;

	if (p->used == p->limit)
		return 0;
	memset(p->mem + p->used * 4096, 0, 4096);
	return (uint64_t)(++p->used) * 4096;	/* "physical" 0 is never handed out */
}

static void *pool_virt(void *ctx, uint64_t pa)
{
	struct pool *p = ctx;

	assert_true(pa >= 4096 && pa <= (uint64_t)p->used * 4096);
	return p->mem + pa - 4096;
}

static struct pool pool;

static struct pgt make(bool nx, bool page1g, unsigned limit)
{
	struct pgt t = { 0 };

	pool.used = 0;
	pool.limit = limit;
	t.nx = nx;
	t.page1g = page1g;
	t.alloc_page = pool_alloc;
	t.phys_to_virt = pool_virt;
	t.ctx = &pool;
	t.root = pool_alloc(&pool);
	return t;
}

static int setup(void **state)
{
	(void)state;
	pool.mem = aligned_alloc(4096, POOL_PAGES * 4096);
	return pool.mem ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	free(pool.mem);
	return 0;
}

static void expect(const struct pgt *t, uint64_t va, uint64_t pa, uint64_t size, bool w, bool nx)
{
	struct pgt_walk x = pgt_walk(t, va);

	assert_true(x.present);
	assert_int_equal(x.pa, pa);
	assert_int_equal(x.page_size, size);
	assert_int_equal(x.writable, w);
	assert_int_equal(x.nx, nx);
}

static void test_largest_pages(void **state)
{
	struct pgt t = make(true, true, POOL_PAGES);

	(void)state;
	/* 0..8 GiB: 1 GiB pages */
	assert_int_equal(pgt_map(&t, 0, 0, 8 * PAGE_1G, MAP_W, PGT_MAX_1G), 0);
	for (uint64_t a = 0; a < 8 * PAGE_1G; a += PAGE_1G / 3)
		expect(&t, a, a, PAGE_1G, true, true);
	assert_int_equal(pool.used, 2);		/* PML4 + one PDPT, nothing else */
	assert_false(pgt_walk(&t, 8 * PAGE_1G).present);

	/* misaligned start: 4K up to 2M, 2M up to 1G, then 1G */
	t = make(false, true, POOL_PAGES);
	assert_int_equal(pgt_map(&t, PAGE_1G - PAGE_2M - PAGE_4K, PAGE_1G - PAGE_2M - PAGE_4K,
				 PAGE_1G + PAGE_2M + PAGE_4K, MAP_W | MAP_X, PGT_MAX_1G), 0);
	expect(&t, PAGE_1G - PAGE_2M - PAGE_4K, PAGE_1G - PAGE_2M - PAGE_4K, PAGE_4K, true, false);
	expect(&t, PAGE_1G - PAGE_2M, PAGE_1G - PAGE_2M, PAGE_2M, true, false);
	expect(&t, PAGE_1G + 12345, PAGE_1G + 12345, PAGE_1G, true, false);
}

static void test_no_1g_no_nx(void **state)
{
	struct pgt t = make(false, false, POOL_PAGES);

	(void)state;
	assert_int_equal(pgt_map(&t, 0, 0, 2 * PAGE_1G, MAP_W, PGT_MAX_1G), 0);
	expect(&t, PAGE_1G + PAGE_2M + 5, PAGE_1G + PAGE_2M + 5, PAGE_2M, true, false);
	/* without NX the bit must never appear (it is reserved: #PF with RSVD) */
	expect(&t, 0, 0, PAGE_2M, true, false);
	assert_false(pgt_walk(&t, 0).entry & PTE_NX);
}

static void test_split_keeps_rest(void **state)
{
	struct pgt t = make(true, true, POOL_PAGES);

	(void)state;
	assert_int_equal(pgt_map(&t, 0, 0, PAGE_1G, MAP_W, PGT_MAX_1G), 0);
	/* make one 4K page in the middle read-only executable (kernel text) */
	assert_int_equal(pgt_map(&t, 0x123000, 0x123000, PAGE_4K, MAP_X, PGT_MAX_4K), 0);
	expect(&t, 0x123000, 0x123000, PAGE_4K, false, false);
	expect(&t, 0x122000, 0x122000, PAGE_4K, true, true);
	expect(&t, 0x124000, 0x124000, PAGE_4K, true, true);
	expect(&t, 0x200000, 0x200000, PAGE_2M, true, true);
	expect(&t, PAGE_1G - 1, PAGE_1G - 1, PAGE_2M, true, true);
	/* unmap a guard page: only that page goes */
	assert_int_equal(pgt_unmap(&t, 0x122000, PAGE_4K), 0);
	assert_false(pgt_walk(&t, 0x122000).present);
	expect(&t, 0x121fff, 0x121fff, PAGE_4K, true, true);
}

static void test_remap_offset_and_uc(void **state)
{
	struct pgt t = make(true, true, POOL_PAGES);
	uint64_t va = 0x0000400000000000ull;

	(void)state;
	assert_int_equal(pgt_map(&t, va, 3 * PAGE_1G, 4 * PAGE_2M, MAP_W, PGT_MAX_2M), 0);
	expect(&t, va + PAGE_2M + 7, 3 * PAGE_1G + PAGE_2M + 7, PAGE_2M, true, true);
	assert_int_equal(pgt_map(&t, 0xfee00000, 0xfee00000, PAGE_4K, MAP_W | MAP_UC,
				 PGT_MAX_4K), 0);
	assert_true(pgt_walk(&t, 0xfee00000).uc);
	assert_false(pgt_walk(&t, va).uc);
}

/* Write-combining (a framebuffer): PAT entry 1 = PWT alone, at 4 KiB and 2 MiB leaves. */
static void test_wc(void **state)
{
	struct pgt t = make(true, true, 8);
	uint64_t e;

	(void)state;
	assert_int_equal(pgt_map(&t, 0x4000000000ull, 0x4000000000ull, PAGE_2M + PAGE_4K,
				 MAP_W | MAP_WC, PGT_MAX_2M), 0);
	e = pgt_walk(&t, 0x4000000000ull).entry;
	assert_int_equal(e & (PTE_PWT | PTE_PCD | PTE_PS | (1ull << 12)), PTE_PWT | PTE_PS);
	e = pgt_walk(&t, 0x4000000000ull + PAGE_2M).entry;
	assert_int_equal(e & (PTE_PWT | PTE_PCD | (1ull << 7)), PTE_PWT);
	assert_false(pgt_walk(&t, 0x4000000000ull).uc);
}

static void test_errors(void **state)
{
	struct pgt t = make(true, true, 3);

	(void)state;
	assert_int_equal(pgt_map(&t, 0x1000, 0x2000, 0x800, MAP_W, PGT_MAX_4K), -1);
	assert_int_equal(pgt_map(&t, 0x1001, 0x2000, 0x1000, MAP_W, PGT_MAX_4K), -1);
	/* 3 pages: PML4 + PDPT + PD; a 4K mapping needs a PT: out of memory, reported */
	assert_int_equal(pgt_map(&t, 0x1000, 0x1000, 0x1000, MAP_W, PGT_MAX_4K), -1);
	assert_int_equal(pgt_map(&t, 0, 0, PAGE_2M, MAP_W, PGT_MAX_2M), 0);
	expect(&t, 0, 0, PAGE_2M, true, true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_largest_pages),
		cmocka_unit_test(test_no_1g_no_nx),
		cmocka_unit_test(test_split_keeps_rest),
		cmocka_unit_test(test_remap_offset_and_uc),
		cmocka_unit_test(test_wc),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests_name("pgtable", tests, setup, teardown);
}
