/*
 * pmm.c: physical page allocator (see pmm.h). Ranges are kept sorted and disjoint.
 */
#include "kernel/pmm.h"
#include "kernel/page.h"

#include <string.h>

void pmm_init(struct pmm *p)
{
	memset(p, 0, sizeof(*p));
}

static void insert(struct pmm *p, uint64_t start, uint64_t end)
{
	unsigned i;

	if (start >= end)
		return;
	if (p->n == PMM_MAX_RANGES) {
		p->overflow = true;
		return;
	}
	for (i = p->n; i > 0 && p->r[i - 1].start > start; i--)
		p->r[i] = p->r[i - 1];
	p->r[i].start = p->r[i].next = start;
	p->r[i].end = end;
	p->n++;
}

void pmm_add(struct pmm *p, uint64_t base, uint64_t len)
{
	uint64_t start = (base + PAGE_4K - 1) & ~(PAGE_4K - 1);
	uint64_t end = (base + len) & ~(PAGE_4K - 1);

	if (base + len < base)
		end = ~(PAGE_4K - 1);
	/* overlapping "available" entries (seen in broken firmware maps): keep the union once */
	pmm_exclude(p, start, end > start ? end - start : 0);
	insert(p, start, end);
}

void pmm_exclude(struct pmm *p, uint64_t base, uint64_t len)
{
	uint64_t xs = base & ~(PAGE_4K - 1);
	uint64_t xe = (base + len + PAGE_4K - 1) & ~(PAGE_4K - 1);

	if (!len)
		return;
	if (base + len < base || xe < xs)
		xe = ~0ull;
	for (unsigned i = 0; i < p->n; i++) {
		struct pmm_range *r = &p->r[i];
		uint64_t rs = r->start, re = r->end;

		if (xe <= rs || xs >= re)
			continue;
		/* remove range i, re-insert the parts outside the exclusion */
		memmove(&p->r[i], &p->r[i + 1], (p->n - i - 1) * sizeof(p->r[0]));
		p->n--;
		if (rs < xs)
			insert(p, rs, xs);
		if (xe < re)
			insert(p, xe, re);
		i = (unsigned)-1;	/* restart: the array changed */
	}
}

/* `bytes` rounded up to whole pages; 0 for a bad request (none, wrapping, bad alignment). */
static uint64_t request(uint64_t bytes, uint64_t align)
{
	if (!bytes || align < PAGE_4K || (align & (align - 1)))
		return 0;
	return (bytes + PAGE_4K - 1) & ~(PAGE_4K - 1);
}

uint64_t pmm_take_in(struct pmm *p, uint64_t bytes, uint64_t align, uint64_t lo, uint64_t hi)
{
	bytes = request(bytes, align);
	if (!bytes || lo >= hi)
		return 0;
	for (unsigned i = 0; i < p->n; i++) {
		struct pmm_range *r = &p->r[i];
		uint64_t from = r->next > lo ? r->next : lo, end = r->end < hi ? r->end : hi;
		uint64_t a = (from + align - 1) & ~(align - 1);

		if (a < from || a >= end || end - a < bytes)
			continue;
		/* the bytes between next and a stay unused until a release (bump allocator) */
		r->next = a + bytes;
		return a;
	}
	return 0;
}

uint64_t pmm_take(struct pmm *p, uint64_t bytes, uint64_t align)
{
	return pmm_take_in(p, bytes, align, 0, ~0ull);
}

uint64_t pmm_free(const struct pmm *p)
{
	uint64_t s = 0;

	for (unsigned i = 0; i < p->n; i++)
		s += p->r[i].end - p->r[i].next;
	return s;
}

uint64_t pmm_total(const struct pmm *p)
{
	uint64_t s = 0;

	for (unsigned i = 0; i < p->n; i++)
		s += p->r[i].end - p->r[i].start;
	return s;
}

uint64_t pmm_top(const struct pmm *p)
{
	return p->n ? p->r[p->n - 1].end : 0;
}

void pmm_mark(const struct pmm *p, struct pmm_mark *m)
{
	for (unsigned i = 0; i < p->n; i++) {
		m->next[i] = p->r[i].next;
	}
}

void pmm_release(struct pmm *p, const struct pmm_mark *m)
{
	for (unsigned i = 0; i < p->n; i++)
		p->r[i].next = m->next[i];
}
