/*
 * mm_fixture.c: identity maps for tests/host/mm_expect_test.c: real tables built with
 * kernel/pgtable.c the way kernel/mm.c builds them (mm_init, then mm_map_mmio/mm_map_wc in
 * order), over a pool of host pages, and the layouts and memory maps of the machines the
 * `paging` test has to hold on.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "host/mm_fixture.h"

#define POOL_PAGES 512

static uint8_t *pool_mem;
static unsigned pool_used;

static uint64_t pool_alloc(void *ctx)
{
	(void)ctx;
	if (pool_used == POOL_PAGES)
		return 0;
	memset(pool_mem + pool_used * 4096, 0, 4096);
	return (uint64_t)(++pool_used) * 4096;	/* table "physical" addresses: pool offsets */
}

static void *pool_virt(void *ctx, uint64_t pa)
{
	(void)ctx;
	assert_true(pa >= 4096 && pa <= (uint64_t)pool_used * 4096);
	return pool_mem + pa - 4096;
}

int mm_fixture_setup(void **state)
{
	(void)state;
	pool_mem = aligned_alloc(4096, POOL_PAGES * 4096);
	return pool_mem ? 0 : -1;
}

int mm_fixture_teardown(void **state)
{
	(void)state;
	free(pool_mem);
	return 0;
}

/* The identity map as kernel/mm.c builds it: small span, large span, then device ranges
 * in the order they were mapped. */
struct pgt mm_fixture_build(const struct mm_layout *l)
{
	struct pgt t = { .nx = l->nx, .page1g = l->page1g, .alloc_page = pool_alloc,
			 .phys_to_virt = pool_virt };

	pool_used = 0;
	t.root = pool_alloc(NULL);
	assert_int_equal(pgt_map(&t, l->small_start, l->small_start,
				 l->large_start - l->small_start, MAP_W, PGT_MAX_4K), 0);
	assert_int_equal(pgt_map(&t, l->large_start, l->large_start,
				 l->large_end - l->large_start, MAP_W, PGT_MAX_1G), 0);
	for (unsigned i = 0; i < l->nio; i++)
		assert_int_equal(pgt_map(&t, l->io[i].start, l->io[i].start,
					 l->io[i].end - l->io[i].start,
					 MAP_W | (l->io[i].cache == MM_WC ? MAP_WC : MAP_UC),
					 PGT_MAX_4K), 0);
	return t;
}

/* The multiboot2 map OVMF (OVMF_CODE.fd as -bios) gives on `pc`, -m 512M (boot log). */
const struct mb2_mmap_entry ovmf_pc_map[] = {
	{ 0x0, 0xa0000, 1 }, { 0x100000, 0x700000, 1 }, { 0x800000, 0x8000, 4 },
	{ 0x808000, 0x3000, 1 }, { 0x80b000, 0x1000, 4 }, { 0x80c000, 0x4000, 1 },
	{ 0x810000, 0xf0000, 4 }, { 0x900000, 0x1e5bb000, 1 }, { 0x1eebb000, 0xc1000, 2 },
	{ 0x1ef7c000, 0x971000, 1 }, { 0x1f8ed000, 0x100000, 2 }, { 0x1f9ed000, 0x100000, 6 },
	{ 0x1faed000, 0x80000, 2 }, { 0x1fb6d000, 0x12000, 3 }, { 0x1fb7f000, 0x80000, 4 },
	{ 0x1fbff000, 0x359000, 1 }, { 0x1ff58000, 0x20000, 2 }, { 0x1ff78000, 0x88000, 4 },
};
const struct mm_io_range ovmf_pc_io[] = {
	{ 0x80000000, 0x80160000, MM_WC },	/* 800x600x24 framebuffer */
	{ 0xfee00000, 0xfee01000, MM_UC },	/* xAPIC page */
};
const struct mm_layout ovmf_pc = {
	.small_start = 0x1000, .large_start = 0x200000, .large_end = 0x100000000,
	.image_start = 0x100000, .image_end = 0x1c0000, .page1g = false, .nx = true,
	.pat_wc = true, .io = ovmf_pc_io, .nio = 2,
};

/* q35 + SeaBIOS, -m 4G: 2 GiB low, 2 GiB above 4 GiB; an MMIO UART mapped twice over the
 * framebuffer's neighbourhood with different types (the later mapping wins). */
const struct mb2_mmap_entry seabios_4g_map[] = {
	{ 0x0, 0x9fc00, 1 }, { 0x9fc00, 0x400, 2 }, { 0xf0000, 0x10000, 2 },
	{ 0x100000, 0x7fee0000, 1 }, { 0x7ffe0000, 0x20000, 2 }, { 0xb0000000, 0x10000000, 2 },
	{ 0xfffc0000, 0x40000, 2 }, { 0x100000000, 0x80000000, 1 },
};
const struct mm_io_range seabios_4g_io[] = {
	{ 0xfd000000, 0xfd3e8000, MM_WC },	/* 1280x800x32 framebuffer: two 2 MiB frames */
	{ 0xfee00000, 0xfee01000, MM_UC },
	{ 0xfd3e7000, 0xfd3e9000, MM_UC },	/* overlaps the framebuffer's last page */
};
const struct mm_layout seabios_4g = {
	.small_start = 0x1000, .large_start = 0x200000, .large_end = 0x180000000,
	.image_start = 0x100000, .image_end = 0x1c0000, .page1g = true, .nx = true,
	.pat_wc = true, .io = seabios_4g_io, .nio = 3,
};

/* A framebuffer above the identity span (a 64-bit BAR), no NX, no PAT (UC). */
const struct mm_io_range high_fb_io[] = { { 0x800000000, 0x800400000, MM_UC } };
const struct mm_layout high_fb = {
	.small_start = 0x1000, .large_start = 0x400000, .large_end = 0x100000000,
	.image_start = 0x100000, .image_end = 0x3a0000, .page1g = true, .nx = false,
	.pat_wc = false, .io = high_fb_io, .nio = 1,
};
