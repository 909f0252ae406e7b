/*
 * mm_judge_test.c: judging a walked leaf against the identity map's rule (kernel/mm_expect.c):
 * a wrong page size, cache type (through IA32_PAT), translation or permission is caught and
 * said in words; the PAT index of 4 KiB and large leaves and the IA32_PAT memory types (SDM
 * Vol. 3A, "Page Attribute Table (PAT)").
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

static void test_judge_catches_wrong_tables(void **state)
{
	struct mm_io_range none[1];
	struct mm_layout missing = ovmf_pc, uc = ovmf_pc;
	struct mm_io_range as_uc[2] = { { 0x80000000, 0x80160000, MM_UC }, ovmf_pc_io[1] };
	struct mm_probe p = { .pa = 0x80000000, .kind = PROBE_IO, .what = "fb" };
	struct pgt t;
	struct pgt_walk w;
	char buf[96];

	(void)state;
	p.want = mm_expect_at(&ovmf_pc, p.pa);
	/* the framebuffer never remapped: a 2 MiB WB page where 4 KiB WC was meant */
	missing.nio = 0;
	missing.io = none;
	t = mm_fixture_build(&missing);
	w = pgt_walk(&t, p.pa);
	assert_false(mm_judge(&ovmf_pc, p.pa, &p.want, &w, PAT_KERNEL, buf, sizeof(buf)));
	assert_string_equal(buf, "want 4K WC, got 2M WB");
	/* remapped uncached */
	uc.io = as_uc;
	t = mm_fixture_build(&uc);
	w = pgt_walk(&t, p.pa);
	assert_false(mm_judge(&ovmf_pc, p.pa, &p.want, &w, PAT_KERNEL, buf, sizeof(buf)));
	assert_string_equal(buf, "want 4K WC, got 4K UC");
	/* the right bits, but IA32_PAT left at its power-up value: entry 1 is WT */
	t = mm_fixture_build(&ovmf_pc);
	w = pgt_walk(&t, p.pa);
	assert_true(mm_judge(&ovmf_pc, p.pa, &p.want, &w, PAT_KERNEL, buf, sizeof(buf)));
	assert_false(mm_judge(&ovmf_pc, p.pa, &p.want, &w, PAT_POWER_UP, buf, sizeof(buf)));
	assert_string_equal(buf, "want 4K WC, got 4K WT");
	/* translated elsewhere, read-only, executable */
	w.pa += PAGE_4K;
	w.writable = false;
	w.nx = false;
	assert_false(mm_judge(&ovmf_pc, p.pa, &p.want, &w, PAT_KERNEL, buf, sizeof(buf)));
	assert_string_equal(buf, "want 4K WC, got 4K WC (not identity) read-only executable");
	/* not present where a mapping is wanted, and the reverse */
	w.present = false;
	assert_false(mm_judge(&ovmf_pc, p.pa, &p.want, &w, PAT_KERNEL, buf, sizeof(buf)));
	assert_string_equal(buf, "want 4K WC, got unmapped");
	p.want.mapped = false;
	assert_true(mm_judge(&ovmf_pc, p.pa, &p.want, &w, PAT_KERNEL, buf, sizeof(buf)));
	w.present = true;
	assert_false(mm_judge(&ovmf_pc, p.pa, &p.want, &w, PAT_KERNEL, buf, sizeof(buf)));
	assert_string_equal(buf, "want unmapped, got 4K");
}

static void test_pat_decoding(void **state)
{
	(void)state;
	/* 4 KiB: PAT is bit 7; 2 MiB / 1 GiB: bit 12 (bit 7 is PS there) */
	assert_int_equal(pat_index(PTE_P | PTE_PWT | (1ull << 7), PAGE_4K), 5);
	assert_int_equal(pat_index(PTE_P | PTE_PS | PTE_PCD, PAGE_2M), 2);
	assert_int_equal(pat_index(PTE_P | PTE_PS | (1ull << 12) | PTE_PCD | PTE_PWT, PAGE_1G), 7);
	assert_int_equal(pat_index(PTE_P | PTE_PS, PAGE_2M), 0);
	/* power-up IA32_PAT: WB WT UC- UC WB WT UC- UC */
	assert_int_equal(pat_type(PAT_POWER_UP, 0), 6);
	assert_int_equal(pat_type(PAT_POWER_UP, 1), 4);
	assert_int_equal(pat_type(PAT_POWER_UP, 2), 7);
	assert_int_equal(pat_type(PAT_POWER_UP, 3), 0);
	assert_int_equal(pat_type(PAT_KERNEL, 1), 1);
	assert_int_equal(mm_cache_of_pat_type(0), MM_UC);
	assert_int_equal(mm_cache_of_pat_type(1), MM_WC);
	assert_int_equal(mm_cache_of_pat_type(6), MM_WB);
	assert_int_equal(mm_cache_of_pat_type(4), -1);
	assert_int_equal(mm_cache_of_pat_type(7), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_judge_catches_wrong_tables),
		cmocka_unit_test(test_pat_decoding),
	};

	return cmocka_run_group_tests(tests, mm_fixture_setup, mm_fixture_teardown);
}
