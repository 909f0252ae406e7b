/*
 * memtype_test.c: the memory type of a buffer (kernel/memtype.c, kernel/memtype_read.c; SDM
 * Vol. 3A ch. 12) and the cause named when cache levels time alike (loads/alike.c,
 * loads/kalike.c), over the platform model's MTRRs, PAT and CR0 (tests/model/
 * platform_model.h) and real page tables (kernel/pgtable.c) in host memory: MTRRs disabled,
 * default type, variable ranges and their overlaps (12.11.4.1), fixed ranges, the PAT index of
 * 4 KiB and 2 MiB entries (bit 7 is PS in a 2 MiB entry, PAT is bit 12), Table 12-7, CR0.CD;
 * then which cause a step verdict names and whether it SKIPs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/cpu.h"
#include "kernel/memtype.h"
#include "kernel/mm_internal.h"
#include "kernel/msr_platform.h"
#include "kernel/pgtable.h"
#include "kernel/trust.h"
#include "loads/alike.h"
#include "tests/model/platform_model.h"

#define POOL_PAGES 32
static uint8_t *pool_mem;
static unsigned pool_used;
static struct pgt kpgt;

static uint64_t pool_alloc(void *ctx)
{
	(void)ctx;
	if (pool_used == POOL_PAGES)
		return 0;
	memset(pool_mem + pool_used * 4096, 0, 4096);
	return (uint64_t)(++pool_used) * 4096;
}

static void *pool_virt(void *ctx, uint64_t pa)
{
	(void)ctx;
	return pool_mem + pa - 4096;
}

const struct pgt *mm_kernel_pgt(void)
{
	return &kpgt;
}

#define VA_WB	0x40000000ull	/* 2 MiB page -> 1 GiB (MTRR 0: WB below 2 GiB) */
#define VA_HI	0x80000000ull	/* 2 MiB page -> 3 GiB (no range: the default type, UC) */
#define VA_UC	0xc0000000ull	/* 2 MiB page -> 1 GiB + 2 MiB with PCD|PWT (PAT 3) */

static int setup(void **state)
{
	struct msr_platform p = { .mode = MSRP_FAULTS };

	(void)state;
	if (!pool_mem)
		pool_mem = aligned_alloc(4096, POOL_PAGES * 4096);
	pool_used = 0;
	kpgt = (struct pgt){ .alloc_page = pool_alloc, .phys_to_virt = pool_virt };
	kpgt.root = pool_alloc(NULL);
	assert_int_equal(pgt_map(&kpgt, VA_WB, 1ull << 30, 2u << 20, MAP_W, PGT_MAX_2M), 0);
	assert_int_equal(pgt_map(&kpgt, VA_HI, 3ull << 30, 2u << 20, MAP_W, PGT_MAX_2M), 0);
	assert_int_equal(pgt_map(&kpgt, VA_UC, (1ull << 30) + (2u << 20), 2u << 20,
				 MAP_W | MAP_UC, PGT_MAX_2M), 0);
	pm_reset();
	cpu_probe(&cpu);
	msr_platform_set(&p);
	trust_init(1000000);
	return 0;
}

static uint8_t type_at(uint64_t pa, char *src)
{
	struct memtype_regs r;

	memtype_read_regs(&r);
	assert_int_equal(r.fault, 0);
	return mtrr_type_of(&r, pa, src, 48);
}

static void test_mtrr_lookup(void **state)
{
	char src[48];

	(void)state;
	assert_int_equal(type_at(1ull << 30, src), MT_WB);
	assert_string_equal(src, "variable range 0");
	assert_int_equal(type_at(3ull << 30, src), MT_UC);
	assert_string_equal(src, "default type");
	pm.mtrr_def &= ~MTRR_DEF_E;		/* 12.11.2.1: E clear, all of memory UC */
	assert_int_equal(type_at(1ull << 30, src), MT_UC);
	assert_string_equal(src, "MTRRs disabled (IA32_MTRR_DEF_TYPE.E=0)");
	pm.mtrr_def |= MTRR_DEF_E;
	pm.mtrr_fixed[2] = 0x0101010101010100ull;	/* A0000: UC, then WC */
	assert_int_equal(type_at(0xa0000, src), MT_UC);
	assert_int_equal(type_at(0xa4000, src), MT_WC);
	assert_string_equal(src, "fixed range 0xa0000");
	pm.mtrr_def &= ~MTRR_DEF_FE;		/* fixed ranges off: the variable range rules */
	assert_int_equal(type_at(0xa4000, src), MT_WB);
}

static void test_mtrr_overlap(void **state)
{
	char src[48];

	(void)state;
	pm.mtrr_mask[1] = pm.mtrr_mask[0];	/* a second range over the same 2 GiB */
	pm.mtrr_base[1] = MT_WB;
	assert_int_equal(type_at(1ull << 30, src), MT_WB);
	assert_string_equal(src, "2 variable ranges overlap");
	pm.mtrr_base[1] = MT_UC;		/* 12.11.4.1: UC wins */
	assert_int_equal(type_at(1ull << 30, src), MT_UC);
	pm.mtrr_base[1] = MT_WT;		/* WT and WB: WT */
	assert_int_equal(type_at(1ull << 30, src), MT_WT);
	pm.mtrr_base[1] = MT_WC;		/* anything else: undefined */
	assert_int_equal(type_at(1ull << 30, src), MT_UNDEF);
}

static void test_pat_and_table(void **state)
{
	(void)state;
	assert_int_equal(pat_index_of((1ull << 7) | (1ull << 4), 4096), 6);
	assert_int_equal(pat_index_of((1ull << 12) | (1ull << 3), 2u << 20), 5);
	assert_int_equal(pat_index_of(PTE_PS, 2u << 20), 0);	/* bit 7 is PS there */
	assert_int_equal(mem_type_effective(MT_UC, MT_WB), MT_UC);
	assert_int_equal(mem_type_effective(MT_WB, MT_WB), MT_WB);
	assert_int_equal(mem_type_effective(MT_WB, MT_UCM), MT_UC);
	assert_int_equal(mem_type_effective(MT_WC, MT_UCM), MT_WC);
	assert_int_equal(mem_type_effective(MT_WT, MT_WB), MT_WT);
	assert_int_equal(mem_type_effective(MT_WP, MT_WB), MT_WP);
	assert_int_equal(mem_type_effective(MT_WB, MT_WC), MT_WC);
	assert_int_equal(mem_type_effective(MT_UC, MT_WC), MT_WC);
	assert_int_equal(mem_type_effective(MT_WB, 2), MT_UNDEF);	/* reserved PAT value */
}

static void test_buffer_type(void **state)
{
	struct memtype_regs r;
	struct memtype_of o;
	uint64_t pa;
	char b[120];

	(void)state;
	memtype_read_regs(&r);
	assert_true(memtype_of_va(&r, (void *)(uintptr_t)(VA_WB + 4096), &o, &pa));
	assert_int_equal(pa, (1ull << 30) + 4096);
	memtype_describe(&o, b, sizeof(b));
	assert_string_equal(b, "WB (MTRR WB variable range 0, PAT 0 WB)");
	assert_true(memtype_of_va(&r, (void *)(uintptr_t)VA_HI, &o, &pa));
	memtype_describe(&o, b, sizeof(b));
	assert_string_equal(b, "UC (MTRR UC default type, PAT 0 WB)");
	assert_true(memtype_of_va(&r, (void *)(uintptr_t)VA_UC, &o, &pa));
	memtype_describe(&o, b, sizeof(b));
	assert_string_equal(b, "UC (MTRR WB variable range 0, PAT 3 UC)");
	assert_false(memtype_of_va(&r, (void *)(uintptr_t)0x1000, &o, &pa));
	pm.cr0 |= CR0_CD;
	memtype_read_regs(&r);
	assert_true(memtype_of_va(&r, (void *)(uintptr_t)VA_WB, &o, &pa));
	assert_int_equal(o.eff, MT_UC);
	memtype_describe(&o, b, sizeof(b));
	assert_string_equal(b, "UC: CR0.CD=1 (caches off, SDM Table 12-5)");
}

static void test_alike(void **state)
{
	(void)state;
	assert_true(levels_alike(590, 590));
	assert_true(levels_alike(590, 620));	/* 4.8% */
	assert_false(levels_alike(590, 640));	/* 7.8% */
	assert_false(levels_alike(0, 0));
}

static void test_cause(void **state)
{
	struct msr_platform swallow = { .mode = MSRP_SWALLOWS };
	char b[240];

	(void)state;
	/* bare metal, WB, caches on: nothing explains it, a FAIL that says so */
	assert_false(kload_alike_cause((void *)(uintptr_t)VA_WB, b, sizeof(b)));
	assert_non_null(strstr(b, "buffer WB (MTRR WB variable range 0, PAT 0 WB), caches on, no "
				  "hypervisor bit: no cause the kernel can read"));
	/* firmware left the MTRRs off: UC, a FAIL naming it */
	pm.mtrr_def = 0;
	assert_false(kload_alike_cause((void *)(uintptr_t)VA_WB, b, sizeof(b)));
	assert_string_equal(b, "buffer at 0x40000000 uncached: UC (MTRR UC MTRRs disabled "
			    "(IA32_MTRR_DEF_TYPE.E=0), PAT 0 WB)");
	/* the same on a platform that swallows MSRs: SKIP, both named */
	msr_platform_set(&swallow);
	assert_true(kload_alike_cause((void *)(uintptr_t)VA_WB, b, sizeof(b)));
	assert_non_null(strstr(b, "uncached: UC"));
	assert_non_null(strstr(b, "; platform: unknown MSRs do not #GP"));
	/* WB memory on that platform (Bochs, corei7_skylake_x): emulation, SKIP */
	pm_reset();
	pm.ignore_msrs = true;
	assert_true(kload_alike_cause((void *)(uintptr_t)VA_WB, b, sizeof(b)));
	assert_non_null(strstr(b, "yet no cache effect: emulation likely"));
	/* caches off: named first, whatever the MTRRs say */
	pm.cr0 |= CR0_CD;
	assert_true(kload_alike_cause((void *)(uintptr_t)VA_WB, b, sizeof(b)));
	assert_non_null(strstr(b, "CR0.CD=1"));
}

/* Bochs with ignore_bad_msrs=0: MSRs #GP as they should, but MPERF, which CPUID.06H:ECX[0]
 * advertises, never counts (or an advertised MSR #GPs): emulation, SKIP, named. */
static void test_cause_emulation_hint(void **state)
{
	char b[240];

	(void)state;
	pm.mperf_still = true;
	trust_init(1000000);
	assert_true(kload_alike_cause((void *)(uintptr_t)VA_WB, b, sizeof(b)));
	assert_string_equal(b, "buffer WB (MTRR WB variable range 0, PAT 0 WB), yet no cache "
			    "effect: emulation likely (IA32_MPERF does not count though "
			    "CPUID.06H:ECX[0]=1)");
	pm.mperf_still = false;
	pm.has_therm = false;	/* CPUID.01H:EDX[22] stays set: the MSR #GPs */
	trust_init(1000000);
	assert_true(kload_alike_cause((void *)(uintptr_t)VA_WB, b, sizeof(b)));
	assert_non_null(strstr(b, "(IA32_THERM_STATUS #GPs though CPUID.01H:EDX[22]=1)"));
	pm.has_therm = true;
	trust_init(1000000);
	assert_false(kload_alike_cause((void *)(uintptr_t)VA_WB, b, sizeof(b)));
}

static void test_cause_hypervisor(void **state)
{
	struct alike_facts f = { .have_mt = true, .hv = "KVM" };
	char b[240];

	(void)state;
	f.mt.mtrr = f.mt.pat = f.mt.eff = MT_WB;
	assert_true(alike_cause(&f, b, sizeof(b)));
	assert_non_null(strstr(b, "under hypervisor KVM"));
	f.have_mt = false;
	f.mt_fault = 13;
	f.hv = "";
	assert_false(alike_cause(&f, b, sizeof(b)));
	assert_non_null(strstr(b, "memory type not read (MTRR/PAT rdmsr vector 13)"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_mtrr_lookup, setup),
		cmocka_unit_test_setup(test_mtrr_overlap, setup),
		cmocka_unit_test_setup(test_pat_and_table, setup),
		cmocka_unit_test_setup(test_buffer_type, setup),
		cmocka_unit_test_setup(test_alike, setup),
		cmocka_unit_test_setup(test_cause, setup),
		cmocka_unit_test_setup(test_cause_emulation_hint, setup),
		cmocka_unit_test_setup(test_cause_hypervisor, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
