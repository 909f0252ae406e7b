/*
 * mm_probe.c: where the `paging` test looks (kernel/mm_probe.h): probe addresses chosen
 * from the memory map and the kernel's device mappings, and a walk over all usable RAM,
 * each judged against the identity map's rule (kernel/mm_expect.c). SDM Vol. 3A 4.5.
 */
#include "kernel/mm_probe.h"
#include "kernel/mm.h"

#include <string.h>

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
		if (!mm_io_overlap(l, f, f + size)) {
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


static void sweep_one(const struct mm_layout *l, const struct pgt *t, uint64_t pat,
		      uint64_t pa, struct mm_sweep *s)
{
	struct mm_expect want = mm_expect_at(l, pa);
	struct pgt_walk w;
	char buf[sizeof(s->first)];

	if (pa >= l->image_start && pa < l->image_end)
		return;
	w = pgt_walk(t, pa);
	s->judged++;
	if (mm_judge(l, pa, &want, &w, pat, buf, sizeof(buf)))
		return;
	if (!s->wrong++) {
		s->first_pa = pa;
		memcpy(s->first, buf, sizeof(buf));
	}
}

void mm_sweep_ram(const struct mm_layout *l, const struct mb2_mmap_entry *map, unsigned n,
		  const struct pgt *t, uint64_t pat, struct mm_sweep *out)
{
	memset(out, 0, sizeof(*out));
	for (unsigned i = 0; i < n; i++) {
		uint64_t b = (map[i].base + PAGE_4K - 1) & ~(PAGE_4K - 1);
		uint64_t e = (map[i].base + map[i].len) & ~(PAGE_4K - 1);

		if (map[i].type != MB2_MEM_AVAILABLE || map[i].base + map[i].len < map[i].base ||
		    b < map[i].base || e <= b)
			continue;
		out->ranges++;
		sweep_one(l, t, pat, b, out);
		for (uint64_t f = (b + PAGE_2M) & ~(PAGE_2M - 1); f < e - PAGE_4K && f > b; f += PAGE_2M)
			sweep_one(l, t, pat, f, out);
		if (e - PAGE_4K > b)
			sweep_one(l, t, pat, e - PAGE_4K, out);
	}
}
