/*
 * chain.c: the chain builder (see chain.h). The visit order is a Fisher-Yates shuffle of the
 * node indices; linking order[i] -> order[i+1] and order[n-1] -> order[0] makes one cycle
 * through every node (the same distribution of cycles as Sattolo's algorithm on a successor
 * array). A repair pass then swaps nodes until no consecutive pair breaks the placement
 * rules; swapping two entries of the visit order keeps it a single cycle by construction.
 */
#include "loads/chain.h"

#include <string.h>

#define REPAIR_PASSES 8
#define REPAIR_TRIES 64

uint64_t chain_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint64_t chain_rand_below(uint64_t *state, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)chain_rand(state) * n) >> 64);
}

static bool pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

uint64_t chain_node_offset(const struct chain_params *p, uint64_t i)
{
	uint64_t h = p->seed ^ (i * 0xd6e8feb86659fd93ull);
	uint64_t off = i * p->stride;

	h = chain_rand(&h);
	if (p->vary_line && p->stride > p->line)
		off += (h >> 32) % (p->stride / p->line) * p->line;
	if (p->vary_slot)
		off += (h & 0xffffffffu) % (p->line / 8) * 8;
	return off;
}

struct rules {
	uint64_t nodes_per_page;	/* 0: same-page rule off */
};

static bool near(uint32_t a, uint32_t b)
{
	return (a > b ? a - b : b - a) < 2;
}

static bool same_page(const struct rules *r, uint32_t a, uint32_t b)
{
	return r->nodes_per_page && a / r->nodes_per_page == b / r->nodes_per_page;
}

static bool bad(const struct rules *r, uint32_t a, uint32_t b)
{
	return near(a, b) || same_page(r, a, b);
}

/* Both pairs around position k are clean. */
static bool clean_at(const struct rules *r, const uint32_t *ord, uint64_t n, uint64_t k)
{
	uint64_t prev = k ? k - 1 : n - 1, next = k + 1 == n ? 0 : k + 1;

	return !bad(r, ord[prev], ord[k]) && !bad(r, ord[k], ord[next]);
}

static void swap32(uint32_t *a, uint32_t *b)
{
	uint32_t t = *a;

	*a = *b;
	*b = t;
}

static void repair(const struct rules *r, uint32_t *ord, uint64_t n, uint64_t *rng)
{
	for (unsigned pass = 0; pass < REPAIR_PASSES; pass++) {
		bool dirty = false;

		for (uint64_t i = 0; i < n; i++) {
			uint64_t k = i + 1 == n ? 0 : i + 1;

			if (!bad(r, ord[i], ord[k]))
				continue;
			dirty = true;
			for (unsigned t = 0; t < REPAIR_TRIES; t++) {
				uint64_t j = chain_rand_below(rng, n);

				if (j == k)
					continue;
				swap32(&ord[k], &ord[j]);
				if (clean_at(r, ord, n, k) && clean_at(r, ord, n, j))
					break;
				swap32(&ord[k], &ord[j]);
			}
		}
		if (!dirty)
			return;
	}
}

int chain_build(struct chain *c, void *base, const struct chain_params *p, uint32_t *scratch)
{
	uint64_t n, rng = p->seed;
	struct rules r = { 0 };
	uint8_t *b = base;

	memset(c, 0, sizeof(*c));
	if (!pow2(p->stride) || !pow2(p->line) || !pow2(p->page) || p->line < 8 ||
	    p->line > p->stride)
		return -1;
	n = p->bytes / p->stride;
	if (n < CHAIN_MIN_NODES || n > 0xffffffffull)
		return -1;
	if (p->stride < p->page && p->bytes / p->page >= CHAIN_PAGE_RULE_MIN)
		r.nodes_per_page = p->page / p->stride;

	for (uint64_t i = 0; i < n; i++)
		scratch[i] = (uint32_t)i;
	for (uint64_t i = n - 1; i > 0; i--)
		swap32(&scratch[i], &scratch[chain_rand_below(&rng, i + 1)]);
	repair(&r, scratch, n, &rng);

	for (uint64_t i = 0; i < n; i++) {
		uint32_t a = scratch[i], z = scratch[i + 1 == n ? 0 : i + 1];
		uintptr_t next = (uintptr_t)(b + chain_node_offset(p, z));

		memcpy(b + chain_node_offset(p, a), &next, sizeof(next));
		if (near(a, z))
			c->near_left++;
		if (same_page(&r, a, z))
			c->page_left++;
	}
	c->head = (uintptr_t)(b + chain_node_offset(p, scratch[0]));
	c->nodes = n;
	c->bytes = n * p->stride;
	c->stride = p->stride;
	c->page_rule = r.nodes_per_page != 0;
	return 0;
}

uint64_t chain_walk_len(const struct chain *c)
{
	uintptr_t q = c->head;

	for (uint64_t k = 1; k <= c->nodes; k++) {
		memcpy(&q, (const void *)q, sizeof(q));
		if (q == c->head)
			return k;
	}
	return 0;
}
