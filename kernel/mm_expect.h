/*
 * mm_expect.h: what the kernel's identity map should hold at a physical address, and how a
 * walked entry is judged against that (pure C; kernel/mm_probe.h chooses where to look).
 * The rule is the one kernel/mm.c follows (SDM Vol. 3A 4.5, 4-level paging):
 *   - [small_start, large_start): 4 KiB pages, write-back (page 0 stays unmapped);
 *   - [large_start, large_end): the largest page (1 GiB when the CPU has it, 2 MiB, 4 KiB)
 *     whose aligned frame lies wholly inside that span and touches no device range;
 *   - device ranges (mm_map_mmio, mm_map_wc): 4 KiB pages with their own cache type, the
 *     latest mapping of a page winning; the large page around one is split, nothing more;
 *   - guard pages (mm_guard_page: the pages below the APs' stacks) unmapped, the large pages
 *     around one split the same way.
 * Cache types come from the leaf's PAT/PCD/PWT bits through IA32_PAT (SDM Vol. 3A, section
 * "Page Attribute Table (PAT)": tables "Memory Types That Can Be Encoded With PAT" and
 * "Selection of PAT Entries with PAT, PCD, and PWT Flags").
 */
#ifndef KERNEL_MM_EXPECT_H
#define KERNEL_MM_EXPECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/pgtable.h"

/* IA32_PAT (SDM Vol. 4 Table 2-2) and its power-up value: entries 0..7 WB, WT, UC-, UC,
 * WB, WT, UC-, UC (SDM Vol. 3A "Page Attribute Table (PAT)"); the type a CPU without
 * the PAT MSR gives the PCD/PWT bits (entries 0..3) */
#define MSR_IA32_PAT   0x277
#define PAT_POWER_UP   0x0007040600070406ull
/* what kernel/mm.c writes: the power-up value but entry 1 (PWT alone) WC instead of WT, as
 * Linux uses it (WB, WC, UC-, UC, WB, WT, UC-, UC); no mapping uses PWT alone before */
#define PAT_KERNEL     0x0007040600070106ull

enum mm_cache { MM_WB, MM_WC, MM_UC };

/* A device range as mapped: [start, end), 4 KiB aligned. */
struct mm_io_range {
	uint64_t start, end;
	enum mm_cache cache;
};

struct mm_layout {
	uint64_t small_start;			/* first mapped page */
	uint64_t large_start, large_end;	/* the span mapped with the largest pages */
	uint64_t image_start, image_end;	/* the kernel image: its own permissions */
	bool page1g;				/* CPU has 1 GiB pages */
	bool nx;				/* non-executable mappings carry XD */
	bool pat_wc;				/* IA32_PAT entry 1 was programmed WC */
	const struct mm_io_range *io;
	unsigned nio;
	const uint64_t *guards;			/* 4 KiB pages left unmapped (mm_guard_page) */
	unsigned nguards;
};

struct mm_expect {
	bool mapped;
	uint64_t page;		/* PAGE_4K, PAGE_2M or PAGE_1G */
	enum mm_cache cache;
	int io;			/* index of the device range holding the address, -1 if none */
};

struct mm_expect mm_expect_at(const struct mm_layout *l, uint64_t pa);
/* Does any device range touch [a, b)? */
bool mm_io_overlap(const struct mm_layout *l, uint64_t a, uint64_t b);

/* PAT index of a leaf: PAT*4 + PCD*2 + PWT; PAT is bit 7 of a 4 KiB PTE, bit 12 of a
 * 2 MiB / 1 GiB leaf. */
unsigned pat_index(uint64_t leaf, uint64_t page_size);
/* Memory type (byte `idx`, bits 2:0) of an IA32_PAT value. */
unsigned pat_type(uint64_t pat, unsigned idx);
/* The cache type a PAT memory type stands for here: 0 UC, 1 WC, 6 WB; -1 for any other
 * (WT 4, WP 5, UC- 7: the kernel intends none of them). */
int mm_cache_of_pat_type(unsigned type);
const char *mm_cache_name(enum mm_cache c);

/*
 * Judge a walk of the live tables at `pa` against `want`: present or not, identity
 * translation, page size, cache type through `pat` (the IA32_PAT value in force), writable,
 * XD when l->nx. Writes "want ..., got ..." (and what differs) to buf; returns true if it
 * matches.
 */
bool mm_judge(const struct mm_layout *l, uint64_t pa, const struct mm_expect *want,
	      const struct pgt_walk *w, uint64_t pat, char *buf, size_t len);

#endif
