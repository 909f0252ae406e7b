/*
 * mm_expect.c: the identity map's rule, the `paging` test's probe addresses and the judging
 * of a walked leaf against the rule (kernel/mm_expect.h). SDM Vol. 3A 4.5 (4-level paging,
 * Tables 4-17..4-19 for the PS and PAT bits of 1 GiB, 2 MiB and 4 KiB leaves) and section
 * "Page Attribute Table (PAT)".
 */
#include "kernel/mm_expect.h"
#include "kernel/fmt.h"
#include "kernel/mm.h"

#define PAT_4K   (1ull << 7)	/* PAT bit of a 4 KiB PTE */
#define PAT_BIG  (1ull << 12)	/* PAT bit of a 2 MiB PDE / 1 GiB PDPTE */

static bool overlaps(uint64_t a0, uint64_t a1, uint64_t b0, uint64_t b1)
{
	return a0 < b1 && b0 < a1;
}

static bool io_overlap(const struct mm_layout *l, uint64_t a, uint64_t b)
{
	for (unsigned i = 0; i < l->nio; i++)
		if (overlaps(a, b, l->io[i].start, l->io[i].end))
			return true;
	return false;
}

struct mm_expect mm_expect_at(const struct mm_layout *l, uint64_t pa)
{
	struct mm_expect e = { .mapped = false, .page = PAGE_4K, .cache = MM_WB, .io = -1 };

	pa &= ~(PAGE_4K - 1);
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
			if (f >= l->large_start && f + s <= l->large_end && !io_overlap(l, f, f + s)) {
				e.page = s;
				break;
			}
		}
	} else if (pa >= l->small_start && pa < l->large_start) {
		e.mapped = true;
	}
	return e;
}

struct plan {
	const struct mm_layout *l;
	const struct mb2_mmap_entry *map;
	unsigned nmap, n, max;
	struct mm_probe *out;
	bool truncated;
};

static bool usable(const struct plan *p, uint64_t pa)
{
	for (unsigned i = 0; i < p->nmap; i++) {
		const struct mb2_mmap_entry *e = &p->map[i];

		if (e->type == MB2_MEM_AVAILABLE && pa >= e->base && pa + PAGE_4K <= e->base + e->len)
			return true;
	}
	return false;
}

static void add(struct plan *p, uint64_t pa, enum mm_probe_kind kind, const char *what)
{
	pa &= ~(PAGE_4K - 1);
	if (pa >= p->l->image_start && pa < p->l->image_end)
		return;
	for (unsigned i = 0; i < p->n; i++)
		if (p->out[i].pa == pa)
			return;
	if (p->n == p->max) {
		p->truncated = true;
		return;
	}
	p->out[p->n++] = (struct mm_probe){
		.pa = pa, .kind = kind, .ram = usable(p, pa), .what = what,
		.want = mm_expect_at(p->l, pa),
	};
}

/* First `size`-aligned frame inside [lo, hi) that no device range touches. */
static bool find_frame(const struct mm_layout *l, uint64_t lo, uint64_t hi, uint64_t size,
		       uint64_t *frame)
{
	for (uint64_t f = (lo + size - 1) & ~(size - 1); f >= lo && f + size <= hi; f += size) {
		if (!io_overlap(l, f, f + size)) {
			*frame = f;
			return true;
		}
	}
	return false;
}

static void plan_ram(struct plan *p)
{
	const struct mm_layout *l = p->l;
	const struct mb2_mmap_entry *big = NULL, *high = NULL;
	uint64_t lo, hi, f, first;

	for (unsigned i = 0; i < p->nmap; i++) {
		const struct mb2_mmap_entry *e = &p->map[i];

		if (e->type != MB2_MEM_AVAILABLE || e->len < PAGE_4K || e->base + e->len < e->base)
			continue;
		if (!big || e->len > big->len)
			big = e;
		if (!high || e->base + e->len > high->base + high->len)
			high = e;
	}
	if (big) {
		/* the largest page the range's own alignment allows, where no device sits */
		lo = big->base > l->large_start ? big->base : l->large_start;
		hi = big->base + big->len < l->large_end ? big->base + big->len : l->large_end;
		if ((l->page1g && find_frame(l, lo, hi, PAGE_1G, &f)) ||
		    find_frame(l, lo, hi, PAGE_2M, &f)) {
			add(p, f, PROBE_LARGE, "largest RAM range, first whole large frame");
			uint64_t page = mm_expect_at(l, f).page;

			add(p, (f & ~(page - 1)) + page - PAGE_4K, PROBE_LARGE,
			    "largest RAM range, last page of that large page");
		}
	}
	if (find_frame(l, l->large_start, l->large_end, l->page1g ? PAGE_1G : PAGE_2M, &f))
		add(p, f, PROBE_LARGE, "large-page span, first frame of the largest size");

	if (l->large_start >= l->small_start + PAGE_4K && l->large_start < l->large_end) {
		add(p, l->large_start - PAGE_4K, PROBE_EDGE, "last page below the large-page span");
		add(p, l->large_start, PROBE_EDGE, "first page of the large-page span");
	}
	if (big) {
		first = (big->base + PAGE_4K - 1) & ~(PAGE_4K - 1);
		if (first >= l->image_start && first < l->image_end)
			first = (l->image_end + PAGE_4K - 1) & ~(PAGE_4K - 1);
		if (first < big->base + big->len)
			add(p, first, PROBE_EDGE, "largest RAM range, first page");
		add(p, big->base + big->len - PAGE_4K, PROBE_EDGE, "largest RAM range, last page");
	}
	if (high && high != big)
		add(p, high->base + high->len - PAGE_4K, PROBE_EDGE, "highest RAM range, last page");
}

static void plan_io(struct plan *p, const struct mm_io_range *r)
{
	uint64_t below = r->start & ~(PAGE_2M - 1), above = (r->end + PAGE_2M - 1) & ~(PAGE_2M - 1);

	add(p, r->start, PROBE_IO, "device range, first page");
	add(p, r->end - PAGE_4K, PROBE_IO, "device range, last page");
	if (r->start >= p->l->small_start + PAGE_4K)
		add(p, r->start - PAGE_4K, PROBE_IO_AROUND, "page below a device range");
	add(p, r->end, PROBE_IO_AROUND, "page above a device range");
	if (below >= PAGE_2M)
		add(p, below - PAGE_2M, PROBE_IO_AROUND, "2 MiB frame below a device range");
	add(p, above, PROBE_IO_AROUND, "2 MiB frame above a device range");
}

unsigned mm_plan_probes(const struct mm_layout *l, const struct mb2_mmap_entry *map,
			unsigned n, struct mm_probe *out, unsigned max, bool *truncated)
{
	struct plan p = { .l = l, .map = map, .nmap = n, .out = out, .max = max };

	plan_ram(&p);
	for (unsigned i = 0; i < l->nio; i++)
		if (l->io[i].end > l->io[i].start)
			plan_io(&p, &l->io[i]);
	if (truncated)
		*truncated = p.truncated;
	return p.n;
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

bool mm_probe_judge(const struct mm_layout *l, const struct mm_probe *p,
		    const struct pgt_walk *w, uint64_t pat, char *buf, size_t len)
{
	static const char *const pat_names[8] = { "UC", "WC", "type2", "type3", "WT", "WP",
						  "WB", "UC-" };
	const struct mm_expect *e = &p->want;
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
	ok = w->pa == p->pa && w->page_size == e->page &&
	     mm_cache_of_pat_type(type) == (int)e->cache && w->writable && w->nx == l->nx;
	fmt_snprintf(buf, len, "want %s %s, got %s %s%s%s%s", size_name(e->page),
		     mm_cache_name(e->cache), size_name(w->page_size), pat_names[type],
		     w->pa != p->pa ? " (not identity)" : "", w->writable ? "" : " read-only",
		     w->nx == l->nx ? "" : l->nx ? " executable" : " XD");
	return ok;
}
