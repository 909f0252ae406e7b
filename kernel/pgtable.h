/*
 * pgtable.h: 4-level page-table builder and walker (SDM Vol. 3A 4.5, Tables 4-14..4-20).
 * Pure C: table pages come from a caller-supplied allocator and physical addresses are turned
 * into pointers by a caller-supplied function, so the host tests build and walk real tables.
 */
#ifndef KERNEL_PGTABLE_H
#define KERNEL_PGTABLE_H

#include <stdbool.h>
#include <stdint.h>

/* Entry bits (SDM Table 4-19/4-20). */
#define PTE_P    (1ull << 0)
#define PTE_W    (1ull << 1)
#define PTE_U    (1ull << 2)
#define PTE_PWT  (1ull << 3)
#define PTE_PCD  (1ull << 4)
#define PTE_PS   (1ull << 7)	/* in PDPTE (1 GiB) and PDE (2 MiB) */
#define PTE_G    (1ull << 8)
#define PTE_NX   (1ull << 63)
#define PTE_ADDR_MASK 0x000ffffffffff000ull

/* Mapping attributes the builder understands (combined into entries). */
enum {
	MAP_W = 1 << 0,		/* writable */
	MAP_X = 1 << 1,		/* executable (else NX when the CPU has NX) */
	MAP_UC = 1 << 2,	/* uncached: PCD|PWT */
	MAP_WC = 1 << 3,	/* PWT alone: PAT entry 1, which kernel/mm.c programs as WC */
};

struct pgt {
	uint64_t root;				/* physical address of the PML4 */
	bool nx;				/* CPU has NX: set PTE_NX on non-X mappings */
	bool page1g;				/* CPU has 1 GiB pages */
	/* Returns the physical address of a zeroed 4 KiB page, 0 when out of memory. */
	uint64_t (*alloc_page)(void *ctx);
	void *(*phys_to_virt)(void *ctx, uint64_t pa);
	void *ctx;
};

/* Largest page size the mapping may use. */
enum pgt_max { PGT_MAX_4K, PGT_MAX_2M, PGT_MAX_1G };

/*
 * Map [va, va+size) to [pa, pa+size) with attributes `attrs`, using the largest pages up to
 * `max` that alignment and the CPU allow. Existing mappings in the range are replaced; a
 * large page that must be split is split. All three must be 4 KiB aligned.
 * Returns 0, or -1 when out of table memory or arguments are misaligned.
 */
int pgt_map(struct pgt *t, uint64_t va, uint64_t pa, uint64_t size, unsigned attrs,
	    enum pgt_max max);

/* Remove the mapping of [va, va+size) (4 KiB aligned; splits large pages as needed). */
int pgt_unmap(struct pgt *t, uint64_t va, uint64_t size);

struct pgt_walk {
	bool present;
	uint64_t pa;		/* translated physical address */
	uint64_t page_size;	/* 4K, 2M or 1G */
	uint64_t entry;		/* the leaf entry */
	bool writable, nx, uc;
};

/* Translate `va` by walking the tables (what the MMU would do). */
struct pgt_walk pgt_walk(const struct pgt *t, uint64_t va);

#endif
