/*
 * mm.c: the kernel's memory: physical allocator from the multiboot2 memory map, the final
 * page tables (SDM Vol. 3A 4.5), measurement-buffer mappings with a chosen page size, MMIO
 * mappings, and mark/release around each test. RAM is identity-mapped with the largest pages
 * that fit; page 0 and the stack guard pages are left unmapped; kernel text is read-only,
 * everything else NX when the CPU has NX.
 */
#include "kernel/mm.h"
#include "kernel/mm_expect.h"
#include "kernel/mm_internal.h"
#include "kernel/pgtable.h"
#include "kernel/pmm.h"
#include "kernel/console.h"
#include "kernel/cpu.h"
#include "kernel/extable.h"
#include "kernel/gdt.h"
#include "kernel/hw.h"

#include <string.h>

#define WINDOW_BASE   0x0000400000000000ull	/* PML4 slot 128: measurement buffers */
#define WINDOW_SLOT   128u
#define TABLE_POOL    (256 * PAGE_4K)		/* identity map and MMIO tables, kept */
#define WINDOW_POOL   (1024 * PAGE_4K)		/* buffer-window tables, reset on release */
#define WINDOW_SLOTS_END 256u		/* slots 128-255: the lower half's top, windows only */

extern char _kernel_start[], _text_end[], _rodata_start[], _rodata_end[], _kernel_end[];

static struct pmm pmm;
static struct pgt kpgt;
struct mm_pool { uint64_t base, next, end; };
static struct mm_pool fixed_pool, window_pool;
static uint64_t window_next = WINDOW_BASE;
static bool mm_ready;
static bool pat_wc;
static uint64_t large_start, large_end;	/* identity span mapped with the largest pages */
/* device ranges as mapped, for the `paging` test's expectations (kernel/mm_expect.h) */
static struct mm_io_range io_ranges[MM_IO_MAX];
static uint64_t guards0[MM_GUARD_MAX], *guards = guards0;
static unsigned nguards, guards_cap = MM_GUARD_MAX;
static unsigned nio, io_unrecorded;

static uint64_t pool_page(struct mm_pool *pool)
{
	uint64_t pa;

	if (pool->next < pool->end) {
		pa = pool->next;
		pool->next += PAGE_4K;
	} else {
		pa = pmm_take(&pmm, PAGE_4K, PAGE_4K);	/* pool exhausted: never released */
	}
	if (pa)
		memset((void *)(uintptr_t)pa, 0, PAGE_4K);
	return pa;
}

static uint64_t alloc_table(void *ctx)
{
	return pool_page(ctx);
}

static void *phys_to_virt(void *ctx, uint64_t pa)
{
	(void)ctx;
	return (void *)(uintptr_t)pa;
}

static bool pool_init(struct mm_pool *pool, uint64_t bytes)
{
	pool->base = pool->next = pmm_take(&pmm, bytes, PAGE_4K);
	pool->end = pool->base + bytes;
	return pool->base != 0 && pool->end <= 4 * PAGE_1G; /* reachable through early tables */
}

static void flush_tlb(void)
{
	write_cr3(read_cr3());
}

bool mm_init(const struct mb2_info *mb, uint64_t info_addr, char *why, size_t whylen)
{
	uint64_t k0 = (uint64_t)(uintptr_t)_kernel_start, k1 = (uint64_t)(uintptr_t)_kernel_end;
	uint64_t top, low_end;

	pmm_init(&pmm);
	for (unsigned i = 0; i < mb->nmmap; i++)
		if (mb->mmap[i].type == MB2_MEM_AVAILABLE)
			pmm_add(&pmm, mb->mmap[i].base, mb->mmap[i].len);
	if (!mb->nmmap && mb->mem_upper_kb)
		pmm_add(&pmm, 1ull << 20, (uint64_t)mb->mem_upper_kb << 10);
	pmm_exclude(&pmm, 0, 1ull << 20);
	pmm_exclude(&pmm, k0, k1 - k0);
	pmm_exclude(&pmm, info_addr, mb->total_size);
	if (pmm.overflow)
		kprintf("# warning: mm: more than %d usable ranges: some RAM left unused\n",
			PMM_MAX_RANGES);
	if (!pmm.n) {
		memcpy(why, "no usable RAM in the memory map", 32 < whylen ? 32 : whylen);
		return false;
	}
	if (!pool_init(&fixed_pool, TABLE_POOL) || !pool_init(&window_pool, WINDOW_POOL)) {
		memcpy(why, "not enough RAM below 4 GiB for page tables", 44 < whylen ? 44 : whylen);
		return false;
	}

	pat_wc = !wrmsr_safe(MSR_IA32_PAT, PAT_KERNEL);
	kpgt.nx = cpu.nx;
	kpgt.page1g = cpu.page1g;
	kpgt.alloc_page = alloc_table;
	kpgt.phys_to_virt = phys_to_virt;
	kpgt.ctx = &fixed_pool;
	kpgt.root = pool_page(&fixed_pool);

	/* low memory (BDA, EBDA, BIOS tables), page 0 left out to catch NULL */
	low_end = (k1 + PAGE_2M - 1) & ~(PAGE_2M - 1);
	pgt_map(&kpgt, PAGE_4K, PAGE_4K, k0 - PAGE_4K, MAP_W, PGT_MAX_4K);
	pgt_map(&kpgt, k0, k0, (uint64_t)(uintptr_t)_text_end - k0, MAP_X, PGT_MAX_4K);
	pgt_map(&kpgt, (uint64_t)(uintptr_t)_rodata_start, (uint64_t)(uintptr_t)_rodata_start,
		(uint64_t)(uintptr_t)_rodata_end - (uint64_t)(uintptr_t)_rodata_start, 0,
		PGT_MAX_4K);
	pgt_map(&kpgt, (uint64_t)(uintptr_t)_rodata_end, (uint64_t)(uintptr_t)_rodata_end,
		low_end - (uint64_t)(uintptr_t)_rodata_end, MAP_W, PGT_MAX_4K);
	for (unsigned i = 0; i < KSTACK_COUNT; i++)
		pgt_unmap(&kpgt, (uint64_t)(uintptr_t)kstacks[i].guard, PAGE_4K);

	/* the rest: all of the low 4 GiB (RAM and MMIO holes, whose MTRR type is UC) and RAM
	 * above, rounded up to 1 GiB */
	top = pmm_top(&pmm);
	if (top < 4 * PAGE_1G)
		top = 4 * PAGE_1G;
	top = (top + PAGE_1G - 1) & ~(PAGE_1G - 1);
	if (pgt_map(&kpgt, low_end, low_end, top - low_end, MAP_W, PGT_MAX_1G)) {
		memcpy(why, "out of memory for page tables", 30 < whylen ? 30 : whylen);
		return false;
	}
	large_start = low_end;
	large_end = top;
	write_cr3(kpgt.root);
	mm_ready = true;
	return true;
}

uint64_t pmm_alloc(uint64_t bytes, uint64_t align)
{
	uint64_t pa = pmm_take(&pmm, bytes, align < PAGE_4K ? PAGE_4K : align);

	if (pa)
		memset((void *)(uintptr_t)pa, 0, (bytes + PAGE_4K - 1) & ~(PAGE_4K - 1));
	return pa;
}

void *kalloc(uint64_t bytes, uint64_t align)
{
	return (void *)(uintptr_t)pmm_alloc(bytes, align);
}

uint64_t pmm_free_bytes(void) { return pmm_free(&pmm); }
uint64_t pmm_total_bytes(void) { return pmm_total(&pmm); }

void *mm_map_buffer(uint64_t bytes, enum page_size ps)
{
	return mm_map_buffer_in(bytes, ps, 0, ~0ull);
}

void *mm_map_buffer_in(uint64_t bytes, enum page_size ps, uint64_t lo, uint64_t hi)
{
	static const uint64_t sizes[] = { PAGE_4K, PAGE_2M, PAGE_1G };
	static const enum pgt_max maxes[] = { PGT_MAX_4K, PGT_MAX_2M, PGT_MAX_1G };
	uint64_t sz = sizes[ps], pa, va;
	struct pgt wt = kpgt;

	if (ps == PS_1G && !cpu.page1g) {
		kprintf("# mm: 1 GiB pages requested but CPUID.80000001H:EDX[26] = 0\n");
		return NULL;
	}
	bytes = (bytes + sz - 1) & ~(sz - 1);
	pa = pmm_take_in(&pmm, bytes, sz, lo, hi);
	if (!pa) {
		kprintf("# mm: no %llu MiB of contiguous RAM aligned to %llu KiB in [0x%llx, "
			"0x%llx) (free %llu MiB)\n", (unsigned long long)(bytes >> 20),
			(unsigned long long)(sz >> 10), (unsigned long long)lo,
			(unsigned long long)hi, (unsigned long long)(pmm_free(&pmm) >> 20));
		return NULL;
	}
	va = (window_next + sz - 1) & ~(sz - 1);
	wt.ctx = &window_pool;
	if (pgt_map(&wt, va, pa, bytes, MAP_W, maxes[ps])) {
		kprintf("# mm: out of page-table memory mapping a %llu MiB buffer\n",
			(unsigned long long)(bytes >> 20));
		return NULL;
	}
	window_next = va + bytes;
	flush_tlb();
	return (void *)(uintptr_t)va;
}

int mm_guard_page(void *va)
{
	uint64_t a = (uint64_t)(uintptr_t)va;

	if (mm_ready && nguards == guards_cap) {	/* a longer list (mm_internal.h) */
		uint64_t *g = (uint64_t *)(uintptr_t)pmm_alloc(2ull * guards_cap * sizeof(*g),
							     PAGE_4K);

		if (g) {
			memcpy(g, guards, nguards * sizeof(*g));
			guards = g;
			guards_cap *= 2;
		}
	}
	if (!mm_ready || (a & (PAGE_4K - 1)) || nguards == guards_cap ||
	    pgt_unmap(&kpgt, a, PAGE_4K))
		return -1;
	guards[nguards++] = a;	/* the paging test's rule expects it unmapped */
	flush_tlb();
	return 0;
}

int mm_page_size_of(uint64_t va)
{
	struct pgt_walk w = pgt_walk(&kpgt, va);

	if (!w.present)
		return -1;
	return w.page_size == PAGE_1G ? PS_1G : w.page_size == PAGE_2M ? PS_2M : PS_4K;
}

uint64_t mm_phys_of(uint64_t va)
{
	struct pgt_walk w = pgt_walk(&kpgt, va);

	return w.present ? w.pa : ~0ull;
}

static void record_io(uint64_t start, uint64_t end, enum mm_cache cache)
{
	for (unsigned i = 0; i < nio; i++)
		if (io_ranges[i].start == start && io_ranges[i].end == end &&
		    io_ranges[i].cache == cache)
			return;
	if (nio < MM_IO_MAX)
		io_ranges[nio++] = (struct mm_io_range){ start, end, cache };
	else
		io_unrecorded++;
}

static void *map_io(uint64_t pa, uint64_t bytes, unsigned type)
{
	uint64_t start = pa & ~(PAGE_4K - 1);
	uint64_t end = (pa + bytes + PAGE_4K - 1) & ~(PAGE_4K - 1);

	if (!mm_ready || pgt_map(&kpgt, start, start, end - start, MAP_W | type, PGT_MAX_4K))
		return NULL;
	record_io(start, end, type == MAP_WC ? MM_WC : MM_UC);
	flush_tlb();
	return (void *)(uintptr_t)pa;
}

void *mm_map_mmio(uint64_t pa, uint64_t bytes)
{
	return map_io(pa, bytes, MAP_UC);
}

void *mm_map_wc(uint64_t pa, uint64_t bytes)
{
	return map_io(pa, bytes, pat_wc ? MAP_WC : MAP_UC);
}

void mm_mark(struct mm_mark *m)
{
	pmm_mark(&pmm, &m->pmm);
	m->window_next = window_next;
}

static uint64_t generation;

uint64_t mm_generation(void)
{
	return generation;
}

void mm_release(const struct mm_mark *m)
{
	uint64_t *pml4 = (uint64_t *)(uintptr_t)kpgt.root;

	pmm_release(&pmm, &m->pmm);
	generation++;
	if (m->window_next != window_next) {
		/* drop every window mapping and the tables under them */
		for (unsigned i = WINDOW_SLOT; i < WINDOW_SLOTS_END; i++)
			pml4[i] = 0;
		window_pool.next = window_pool.base;
		window_next = WINDOW_BASE;
		flush_tlb();
	}
}

const struct pgt *mm_kernel_pgt(void)
{
	return &kpgt;
}

unsigned mm_get_layout(struct mm_layout *l)
{
	*l = (struct mm_layout){
		.small_start = PAGE_4K,
		.large_start = large_start, .large_end = large_end,
		.image_start = (uint64_t)(uintptr_t)_kernel_start,
		.image_end = (uint64_t)(uintptr_t)_kernel_end,
		.page1g = kpgt.page1g, .nx = kpgt.nx, .pat_wc = pat_wc,
		.io = io_ranges, .nio = nio, .guards = guards, .nguards = nguards,
	};
	return io_unrecorded;
}
