/*
 * mm_expect.c: the identity map's rule and the judging of a walked leaf against it
 * (kernel/mm_expect.h). SDM Vol. 3A 4.5 (4-level paging; the PS and PAT bits of the
 * paging-structure entry formats "PDPTE that maps a 1-GByte page", "PDE that maps a 2-MByte
 * page", "PTE that maps a 4-KByte page") and section "Page Attribute Table (PAT)".
 */
#include "kernel/mm_expect.h"
#include "kernel/fmt.h"
#include "kernel/page.h"

#define PAT_4K   (1ull << 7)	/* PAT bit of a 4 KiB PTE */
#define PAT_BIG  (1ull << 12)	/* PAT bit of a 2 MiB PDE / 1 GiB PDPTE */

static bool overlaps(uint64_t a0, uint64_t a1, uint64_t b0, uint64_t b1)
{
	return a0 < b1 && b0 < a1;
}

bool mm_io_overlap(const struct mm_layout *l, uint64_t a, uint64_t b)
{
	for (unsigned i = 0; i < l->nio; i++)
		if (overlaps(a, b, l->io[i].start, l->io[i].end))
			return true;
	return false;
}

static bool guard_overlap(const struct mm_layout *l, uint64_t a, uint64_t b)
{
	for (unsigned i = 0; i < l->nguards; i++)
		if (overlaps(a, b, l->guards[i], l->guards[i] + PAGE_4K))
			return true;
	return false;
}

struct mm_expect mm_expect_at(const struct mm_layout *l, uint64_t pa)
{
	struct mm_expect e = { .mapped = false, .page = PAGE_4K, .cache = MM_WB, .io = -1 };

	pa &= ~(PAGE_4K - 1);
	if (guard_overlap(l, pa, pa + PAGE_4K))
		return e;
	for (unsigned i = l->nio; i-- > 0;) {
		if (pa >= l->io[i].start && pa < l->io[i].end) {
			e.mapped = true;
			e.cache = l->io[i].cache;
			e.io = (int)i;
			return e;
		}
	}
	if (pa >= l->large_start && pa < l->large_end) {
		static const uint64_t sizes[] = { PAGE_1G, PAGE_2M };

		e.mapped = true;
		for (unsigned i = 0; i < 2; i++) {
			uint64_t s = sizes[i], f = pa & ~(s - 1);

			if (s == PAGE_1G && !l->page1g)
				continue;
			if (f >= l->large_start && f + s <= l->large_end && !mm_io_overlap(l, f, f + s) &&
			    !guard_overlap(l, f, f + s)) {
				e.page = s;
				break;
			}
		}
	} else if (pa >= l->small_start && pa < l->large_start) {
		e.mapped = true;
	}
	return e;
}

unsigned pat_index(uint64_t leaf, uint64_t page_size)
{
	bool pat = leaf & (page_size == PAGE_4K ? PAT_4K : PAT_BIG);

	return (pat ? 4u : 0u) | (leaf & PTE_PCD ? 2u : 0u) | (leaf & PTE_PWT ? 1u : 0u);
}

unsigned pat_type(uint64_t pat, unsigned idx)
{
	return (unsigned)(pat >> (8 * (idx & 7))) & 7;
}

int mm_cache_of_pat_type(unsigned type)
{
	switch (type) {
	case 0: return MM_UC;
	case 1: return MM_WC;
	case 6: return MM_WB;
	default: return -1;
	}
}

const char *mm_cache_name(enum mm_cache c)
{
	return c == MM_WB ? "WB" : c == MM_WC ? "WC" : "UC";
}

static const char *size_name(uint64_t s)
{
	return s == PAGE_1G ? "1G" : s == PAGE_2M ? "2M" : s == PAGE_4K ? "4K" : "?";
}

bool mm_judge(const struct mm_layout *l, uint64_t pa, const struct mm_expect *e,
	      const struct pgt_walk *w, uint64_t pat, char *buf, size_t len)
{
	static const char *const pat_names[8] = { "UC", "WC", "type2", "type3", "WT", "WP",
						  "WB", "UC-" };
	unsigned type;
	bool ok;

	if (!e->mapped) {
		fmt_snprintf(buf, len, "want unmapped, got %s",
			     w->present ? size_name(w->page_size) : "unmapped");
		return !w->present;
	}
	if (!w->present) {
		fmt_snprintf(buf, len, "want %s %s, got unmapped", size_name(e->page),
			     mm_cache_name(e->cache));
		return false;
	}
	type = pat_type(pat, pat_index(w->entry, w->page_size));
	ok = w->pa == pa && w->page_size == e->page &&
	     mm_cache_of_pat_type(type) == (int)e->cache && w->writable && w->nx == l->nx;
	fmt_snprintf(buf, len, "want %s %s, got %s %s%s%s%s", size_name(e->page),
		     mm_cache_name(e->cache), size_name(w->page_size), pat_names[type],
		     w->pa != pa ? " (not identity)" : "", w->writable ? "" : " read-only",
		     w->nx == l->nx ? "" : l->nx ? " executable" : " XD");
	return ok;
}
