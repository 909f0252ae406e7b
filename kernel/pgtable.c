/*
 * pgtable.c: the page-table builder/walker (SDM Vol. 3A 4.5). Levels: PML4 (bits 47:39),
 * PDPT (38:30), PD (29:21), PT (20:12). A 1 GiB leaf sits in the PDPT, a 2 MiB leaf in the
 * PD (PS=1). Upper-level entries are created present+writable+executable; permissions are
 * enforced at the leaf (SDM 4.6: the effective right is the AND over all levels).
 */
#include "kernel/pgtable.h"
#include "kernel/page.h"

#include <stddef.h>

static const uint64_t level_size[4] = { 0, PAGE_4K, PAGE_2M, PAGE_1G }; /* by level 1..3 */

static unsigned idx(uint64_t va, int level)
{
	return (unsigned)(va >> (12 + 9 * (level - 1))) & 511;
}

static uint64_t *table(const struct pgt *t, uint64_t pa)
{
	return t->phys_to_virt(t->ctx, pa & PTE_ADDR_MASK);
}

static uint64_t leaf_bits(const struct pgt *t, unsigned attrs, int level)
{
	uint64_t e = PTE_P;

	if (attrs & MAP_W)
		e |= PTE_W;
	if (!(attrs & MAP_X) && t->nx)
		e |= PTE_NX;
	if (attrs & MAP_UC)
		e |= PTE_PCD | PTE_PWT;
	else if (attrs & MAP_WC)
		e |= PTE_PWT;	/* PAT bit (7 or 12) and PCD clear: entry 1 */
	if (level > 1)
		e |= PTE_PS;
	return e;
}

/* Replace a large leaf at `*e` (level `level` > 1) by a table of next-level leaves. */
static int split(struct pgt *t, uint64_t *e, int level)
{
	uint64_t old = *e, pa = t->alloc_page(t->ctx), *tab;
	uint64_t child = level_size[level - 1];
	uint64_t flags = old & ~PTE_ADDR_MASK & ~(1ull << 12); /* bit 12 is PAT in large leaves */

	if (!pa)
		return -1;
	tab = table(t, pa);
	if (level - 1 == 1)
		flags &= ~PTE_PS;
	for (unsigned i = 0; i < 512; i++)
		tab[i] = ((old & PTE_ADDR_MASK & ~(level_size[level] - 1)) + i * child) | flags;
	*e = pa | PTE_P | PTE_W;
	return 0;
}

/* Walk to the entry for `va` at `level`, creating/splitting tables on the way. */
static uint64_t *entry_at(struct pgt *t, uint64_t va, int level)
{
	uint64_t *tab = table(t, t->root);

	for (int l = 4; l > level; l--) {
		uint64_t *e = &tab[idx(va, l)];

		if (!(*e & PTE_P)) {
			uint64_t pa = t->alloc_page(t->ctx);

			if (!pa)
				return NULL;
			*e = pa | PTE_P | PTE_W;
		} else if (l < 4 && (*e & PTE_PS)) {
			if (split(t, e, l))
				return NULL;
		}
		tab = table(t, *e);
	}
	return &tab[idx(va, level)];
}

static int choose_level(const struct pgt *t, uint64_t va, uint64_t pa, uint64_t left,
			enum pgt_max max)
{
	if (max >= PGT_MAX_1G && t->page1g && !((va | pa) & (PAGE_1G - 1)) && left >= PAGE_1G)
		return 3;
	if (max >= PGT_MAX_2M && !((va | pa) & (PAGE_2M - 1)) && left >= PAGE_2M)
		return 2;
	return 1;
}

int pgt_map(struct pgt *t, uint64_t va, uint64_t pa, uint64_t size, unsigned attrs,
	    enum pgt_max max)
{
	if ((va | pa | size) & (PAGE_4K - 1))
		return -1;
	while (size) {
		int level = choose_level(t, va, pa, size, max);
		uint64_t *e = entry_at(t, va, level);

		if (!e)
			return -1;
		/* a table below a slot we now fill with a leaf is dropped (its page leaks:
		 * acceptable for a test kernel; remapping the same range is rare) */
		*e = pa | leaf_bits(t, attrs, level);
		va += level_size[level];
		pa += level_size[level];
		size -= level_size[level];
	}
	return 0;
}

int pgt_unmap(struct pgt *t, uint64_t va, uint64_t size)
{
	if ((va | size) & (PAGE_4K - 1))
		return -1;
	while (size) {
		int level = choose_level(t, va, 0, size, PGT_MAX_1G);
		uint64_t *e = entry_at(t, va, level);

		if (!e)
			return -1;
		*e = 0;
		va += level_size[level];
		size -= level_size[level];
	}
	return 0;
}

struct pgt_walk pgt_walk(const struct pgt *t, uint64_t va)
{
	struct pgt_walk w = { 0 };
	uint64_t *tab = table(t, t->root);

	for (int l = 4; l >= 1; l--) {
		uint64_t e = tab[idx(va, l)];

		if (!(e & PTE_P))
			return w;
		if (l == 1 || (l <= 3 && (e & PTE_PS))) {
			uint64_t sz = level_size[l];

			w.present = true;
			w.page_size = sz;
			w.entry = e;
			w.pa = ((e & PTE_ADDR_MASK) & ~(sz - 1)) | (va & (sz - 1));
			w.writable = e & PTE_W;
			w.nx = e & PTE_NX;
			w.uc = e & PTE_PCD;
			return w;
		}
		tab = table(t, e);
	}
	return w;
}
