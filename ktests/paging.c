/*
 * paging.c: test `paging`: the final page tables map what they should (SDM Vol. 3A 4.5):
 * RAM identity-mapped with the largest pages, kernel text read-only and executable, data
 * NX, page 0 unmapped (a touch faults with #PF and is caught), and measurement buffers get
 * exactly the page size asked for (1 GiB / 2 MiB / 4 KiB), readable and writable.
 */
#include "ktests/tests.h"
#include "kernel/cpu.h"
#include "kernel/extable.h"
#include "kernel/gdt.h"
#include "kernel/mm.h"
#include "kernel/mm_internal.h"
#include "kernel/pgtable.h"
#include "kernel/traps.h"

extern char _text_start[], _data_start[];
static uint64_t some_data = 0x1234;

static void check_buffer(struct ktest *t, enum page_size ps, uint64_t bytes, const char *name)
{
	uint64_t *p;
	uint64_t v = 0;

	if (ps == PS_1G && !cpu.page1g) {
		kt_skip_sub(t, name, "CPUID.80000001H:EDX[26] = 0: no 1 GiB pages");
		return;
	}
	if (pmm_free_bytes() < bytes * 2) {
		kt_skip_sub(t, name, "only %llu MiB free", (unsigned long long)(pmm_free_bytes() >> 20));
		return;
	}
	p = mm_map_buffer(bytes, ps);
	if (!p) {
		kt_check(t, false, "%s (mapping failed)", name);
		return;
	}
	p[0] = 0xfeedface;
	p[bytes / 8 - 1] = 0xcafe;
	kt_check(t, mm_page_size_of((uint64_t)(uintptr_t)p) == (int)ps &&
		     mm_page_size_of((uint64_t)(uintptr_t)p + bytes - 8) == (int)ps &&
		     read64_safe((uint64_t)(uintptr_t)p, &v) == 0 && v == 0xfeedface &&
		     p[bytes / 8 - 1] == 0xcafe, "%s", name);
}

enum kt_result test_paging(struct ktest *t)
{
	const struct pgt *k = mm_kernel_pgt();
	struct pgt_walk w;
	uint64_t v;
	int vec;

	w = pgt_walk(k, (uint64_t)(uintptr_t)_text_start);
	kt_check(t, w.present && !w.writable && !w.nx && w.pa == (uint64_t)(uintptr_t)_text_start,
		 "kernel_text_ro_exec");
	w = pgt_walk(k, (uint64_t)(uintptr_t)&some_data);
	kt_check(t, w.present && w.writable && (w.nx || !cpu.nx), "kernel_data_rw_nx");
	if (!cpu.nx)
		kt_skip_sub(t, "nx_enforced", "CPUID.80000001H:EDX.NX[20] = 0");
	/* 2 GiB: the 3-4 GiB gigabyte holds the xAPIC page, which apic_init remaps uncached
	 * with 4 KiB pages (mm_map_mmio splits that 1 GiB page) */
	w = pgt_walk(k, 2ull << 30);
	kt_check(t, w.present && w.pa == (2ull << 30) &&
		     w.page_size == (cpu.page1g ? PAGE_1G : PAGE_2M),
		 "identity_map_large_pages (%llu KiB at 2 GiB)", (unsigned long long)(w.page_size >> 10));

	vec = read64_safe(0, &v);
	kt_check(t, vec == VEC_PF, "page0_unmapped_faults (vector %d)", vec);
	vec = read64_safe((uint64_t)(uintptr_t)kstacks[KSTACK_BOOT].guard, &v);
	kt_check(t, vec == VEC_PF, "stack_guard_page_faults (vector %d)", vec);
	vec = write64_safe((uint64_t)(uintptr_t)_text_start, 0);
	kt_check(t, vec == VEC_PF, "write_to_text_faults (vector %d)", vec);
	vec = read64_safe(0x00007f0000000000ull, &v);
	kt_check(t, vec == VEC_PF, "unmapped_high_address_faults (vector %d)", vec);
	if (cpu.nx) {
		/* jumping into a data page must fault with #PF (instruction fetch, NX) */
		static const uint8_t ret_insn[16] __attribute__((aligned(16))) = { 0xc3 };

		vec = call_safe((uint64_t)(uintptr_t)ret_insn);
		kt_check(t, vec == VEC_PF, "nx_enforced (vector %d)", vec);
	}

	check_buffer(t, PS_4K, 64 * PAGE_4K, "buffer_4k_pages");
	check_buffer(t, PS_2M, 2 * PAGE_2M, "buffer_2m_pages");
	check_buffer(t, PS_1G, PAGE_1G, "buffer_1g_pages");
	return kt_verdict(t);
}
