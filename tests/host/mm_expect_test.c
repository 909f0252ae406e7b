/*
 * mm_expect_test.c: the `paging` test's rule and probe choice (kernel/mm_expect.c) checked
 * against real tables: kernel/pgtable.c builds the identity map the way mm_init and
 * mm_map_mmio/mm_map_wc do, and the rule's answer must equal the walk (SDM Vol. 3A 4.5) at
 * every probe and over sweeps around every device range. Layouts (tests/host/mm_fixture.c):
 * OVMF as -bios on QEMU's `pc` machine (the framebuffer at 2 GiB that broke the old fixed
 * probe), RAM above 4 GiB with 1 GiB pages, a framebuffer above the identity span,
 * overlapping device mappings; the walk over all usable RAM.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/mm.h"
#include "kernel/mm_expect.h"
#include "kernel/mm_probe.h"
#include "kernel/pgtable.h"
#include "host/mm_fixture.h"

static void expect_matches_walk(const struct mm_layout *l, const struct pgt *t, uint64_t pa)
{
	struct mm_expect e = mm_expect_at(l, pa);
	struct pgt_walk w = pgt_walk(t, pa);

	if (e.mapped != w.present)
		fail_msg("0x%llx: rule says %s, tables say %s", (unsigned long long)pa,
			 e.mapped ? "mapped" : "unmapped", w.present ? "mapped" : "unmapped");
	if (!e.mapped)
		return;
	if (e.page != w.page_size)
		fail_msg("0x%llx: rule page 0x%llx, tables 0x%llx", (unsigned long long)pa,
			 (unsigned long long)e.page, (unsigned long long)w.page_size);
	assert_int_equal(mm_cache_of_pat_type(pat_type(PAT_KERNEL, pat_index(w.entry, w.page_size))),
			 e.cache);
	assert_int_equal(w.pa, pa);
}

/* Every 2 MiB frame of the span and beyond it, every 4 KiB page within 4 MiB of a device
 * range and of the small/large boundary: the rule equals the builder. */
static void sweep(const struct mm_layout *l)
{
	struct pgt t = mm_fixture_build(l);

	for (uint64_t pa = 0; pa < l->large_end + PAGE_1G; pa += PAGE_2M)
		expect_matches_walk(l, &t, pa);
	for (unsigned i = 0; i <= l->nio; i++) {
		uint64_t c = i < l->nio ? l->io[i].start : l->large_start;
		uint64_t lo = c > 4 * PAGE_2M ? c - 2 * PAGE_2M : 0;

		for (uint64_t pa = lo; pa < c + 4 * PAGE_2M; pa += PAGE_4K)
			expect_matches_walk(l, &t, pa);
	}
}

static void test_rule_equals_builder(void **state)
{
	(void)state;
	sweep(&ovmf_pc);
	sweep(&seabios_4g);
	sweep(&high_fb);
}

/* Plan, then judge every probe against the built tables: all must hold. */
static unsigned plan_and_judge(const struct mm_layout *l, const struct mb2_mmap_entry *map,
			       unsigned n, struct mm_probe *p)
{
	struct pgt t = mm_fixture_build(l);
	bool truncated = true;
	unsigned np = mm_plan_probes(l, map, n, p, MM_PROBES_MAX, &truncated);
	char buf[96];

	assert_false(truncated);
	for (unsigned i = 0; i < np; i++) {
		struct pgt_walk w = pgt_walk(&t, p[i].pa);

		if (!mm_judge(l, p[i].pa, &p[i].want, &w, PAT_KERNEL, buf, sizeof(buf)))
			fail_msg("probe 0x%llx %s: %s", (unsigned long long)p[i].pa, p[i].what, buf);
		assert_false(p[i].pa >= l->image_start && p[i].pa < l->image_end);
		for (unsigned j = 0; j < i; j++)
			assert_true(p[j].pa != p[i].pa);
	}
	return np;
}

static unsigned count_kind(const struct mm_probe *p, unsigned n, enum mm_probe_kind k)
{
	unsigned c = 0;

	for (unsigned i = 0; i < n; i++)
		c += p[i].kind == k;
	return c;
}

static void test_ovmf_pc_framebuffer_at_2g(void **state)
{
	struct mm_probe p[MM_PROBES_MAX];
	unsigned n = plan_and_judge(&ovmf_pc, ovmf_pc_map, 18, p);
	bool ram_large = false, fb_first = false, fb_last = false;

	(void)state;
	/* what the old fixed probe at 2 GiB met: the framebuffer's first page, 4 KiB WC */
	assert_int_equal(mm_expect_at(&ovmf_pc, 0x80000000).page, PAGE_4K);
	assert_int_equal(mm_expect_at(&ovmf_pc, 0x80000000).cache, MM_WC);
	for (unsigned i = 0; i < n; i++) {
		if (p[i].kind == PROBE_LARGE) {
			/* never inside a device range's split frame */
			assert_false(p[i].pa >= 0x80000000 && p[i].pa < 0x80200000);
			if (p[i].ram && p[i].want.page == PAGE_2M)
				ram_large = true;
		}
		fb_first |= p[i].pa == 0x80000000 && p[i].kind == PROBE_IO &&
			    p[i].want.cache == MM_WC && p[i].want.io == 0;
		fb_last |= p[i].pa == 0x8015f000 && p[i].kind == PROBE_IO;
	}
	assert_true(ram_large);
	assert_true(fb_first && fb_last);
	/* the largest range is 0x900000-0x1eebb000: its first whole 2 MiB frame */
	assert_int_equal(p[0].pa, 0xa00000);
	assert_true(p[0].ram);
	/* an edge where a smaller page is expected: the last page below the large span */
	for (unsigned i = 0; i < n; i++)
		if (p[i].pa == 0x1ff000)
			assert_int_equal(p[i].want.page, PAGE_4K);
	assert_true(count_kind(p, n, PROBE_EDGE) >= 4);
	assert_true(count_kind(p, n, PROBE_IO_AROUND) >= 6);
}

static void test_ram_above_4g_gets_1g_pages(void **state)
{
	struct mm_probe p[MM_PROBES_MAX];
	unsigned n = plan_and_judge(&seabios_4g, seabios_4g_map, 8, p);
	bool high_end = false;

	(void)state;
	/* largest range 0x100000000-0x180000000 (2 GiB above 4 GiB): its first 1 GiB frame */
	assert_int_equal(p[0].pa, 0x100000000);
	assert_int_equal(p[0].want.page, PAGE_1G);
	assert_true(p[0].ram);
	for (unsigned i = 0; i < n; i++)
		if (p[i].pa == 0x17ffff000 && p[i].want.page == PAGE_1G && p[i].ram)
			high_end = true;
	assert_true(high_end);
	/* the later UC mapping wins over the framebuffer's last page */
	assert_int_equal(mm_expect_at(&seabios_4g, 0xfd3e7000).cache, MM_UC);
	assert_int_equal(mm_expect_at(&seabios_4g, 0xfd3e6000).cache, MM_WC);
	/* the 1 GiB frame around the framebuffer is split to 2 MiB, the frame below kept */
	assert_int_equal(mm_expect_at(&seabios_4g, 0xc0000000).page, PAGE_2M);
	assert_int_equal(mm_expect_at(&seabios_4g, 0x80000000).page, PAGE_1G);
}

/* A guard page (an AP's stack, mm_guard_page) inside the large span: unmapped itself, the
 * 2 MiB frame around it in 4 KiB pages, the 1 GiB frame around that in 2 MiB pages. */
static void test_guard_page(void **state)
{
	static const uint64_t g[] = { 0x40203000 };
	struct mm_layout l = seabios_4g;

	(void)state;
	l.guards = g;
	l.nguards = 1;
	assert_false(mm_expect_at(&l, 0x40203000).mapped);
	assert_int_equal(mm_expect_at(&l, 0x40203fff).mapped, false);
	assert_true(mm_expect_at(&l, 0x40202000).mapped);
	assert_int_equal(mm_expect_at(&l, 0x40202000).page, PAGE_4K);
	assert_int_equal(mm_expect_at(&l, 0x40204000).page, PAGE_4K);
	assert_int_equal(mm_expect_at(&l, 0x40400000).page, PAGE_2M);
	assert_int_equal(mm_expect_at(&l, 0x80000000).page, PAGE_1G);
	assert_int_equal(mm_expect_at(&seabios_4g, 0x40203000).page, PAGE_1G);
}

static void test_framebuffer_above_span(void **state)
{
	struct mm_probe p[MM_PROBES_MAX];
	unsigned n = plan_and_judge(&high_fb, seabios_4g_map, 4, p);
	unsigned unmapped = 0;

	(void)state;
	for (unsigned i = 0; i < n; i++)
		unmapped += !p[i].want.mapped;
	/* the pages and frames beside it are not mapped at all (it ends 2 MiB aligned: the
	 * page above it is the frame above it) */
	assert_int_equal(unmapped, 3);
	assert_int_equal(mm_expect_at(&high_fb, 0x800000000).cache, MM_UC);
}

static void test_plan_odd_input(void **state)
{
	static const struct mb2_mmap_entry odd[] = {
		{ 0x100000, 0, 1 },			/* empty */
		{ 0xfffffffffffff000, 0x2000, 1 },	/* wraps */
		{ 0x100000, 0x80000, 1 },		/* inside the kernel image only */
		{ 0x300000, 0x1000, 1 },		/* one page */
	};
	struct mm_probe p[MM_PROBES_MAX];
	bool truncated = false;
	unsigned n;

	(void)state;
	/* no map at all: only the span's own probes and the device ranges' */
	n = mm_plan_probes(&ovmf_pc, NULL, 0, p, MM_PROBES_MAX, &truncated);
	assert_true(n > 0);
	assert_false(truncated);
	for (unsigned i = 0; i < n; i++)
		assert_false(p[i].ram);
	n = mm_plan_probes(&ovmf_pc, odd, 4, p, MM_PROBES_MAX, &truncated);
	for (unsigned i = 0; i < n; i++) {
		assert_false(p[i].pa >= ovmf_pc.image_start && p[i].pa < ovmf_pc.image_end);
		assert_true(p[i].pa < 0xfffffffffffff000ull);
	}
	/* a full list says so */
	n = mm_plan_probes(&ovmf_pc, ovmf_pc_map, 18, p, 3, &truncated);
	assert_int_equal(n, 3);
	assert_true(truncated);
	/* page 0 and beyond the span: unmapped */
	assert_false(mm_expect_at(&ovmf_pc, 0).mapped);
	assert_false(mm_expect_at(&ovmf_pc, 0x100000000).mapped);
	assert_int_equal(mm_expect_at(&ovmf_pc, 0xfff).mapped, false);
	assert_int_equal(mm_expect_at(&ovmf_pc, 0x1000).page, PAGE_4K);
}

/* The walk over all usable RAM: clean on right tables; on tables built with 2 MiB pages
 * where the rule says 1 GiB, it names the first wrong address. */
static void test_sweep_all_ram(void **state)
{
	struct mm_layout no1g = seabios_4g;
	struct mm_sweep sw;
	struct pgt t;

	(void)state;
	t = mm_fixture_build(&ovmf_pc);
	mm_sweep_ram(&ovmf_pc, ovmf_pc_map, 18, &t, PAT_KERNEL, &sw);
	assert_int_equal(sw.ranges, 7);
	assert_true(sw.judged > 240);	/* 0x900000-0x1eebb000 alone has 242 boundaries */
	assert_int_equal(sw.wrong, 0);

	t = mm_fixture_build(&seabios_4g);
	mm_sweep_ram(&seabios_4g, seabios_4g_map, 8, &t, PAT_KERNEL, &sw);
	assert_int_equal(sw.ranges, 3);
	assert_int_equal(sw.wrong, 0);
	no1g.page1g = false;
	t = mm_fixture_build(&no1g);
	mm_sweep_ram(&seabios_4g, seabios_4g_map, 8, &t, PAT_KERNEL, &sw);
	/* every address judged in [1G, 2G) (512 boundaries + the range's last page) and in
	 * [4G, 6G) (first page, 1023 boundaries, last page) */
	assert_int_equal(sw.wrong, 513 + 1025);
	assert_int_equal(sw.first_pa, 0x40000000);
	assert_string_equal(sw.first, "want 1G WB, got 2M WB");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rule_equals_builder),
		cmocka_unit_test(test_ovmf_pc_framebuffer_at_2g),
		cmocka_unit_test(test_ram_above_4g_gets_1g_pages),
		cmocka_unit_test(test_guard_page),
		cmocka_unit_test(test_framebuffer_above_span),
		cmocka_unit_test(test_plan_odd_input),
		cmocka_unit_test(test_sweep_all_ram),
	};

	return cmocka_run_group_tests(tests, mm_fixture_setup, mm_fixture_teardown);
}
