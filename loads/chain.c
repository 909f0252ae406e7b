/*
 * chain.c: the chain builder (see chain.h). The visit order is a Fisher-Yates shuffle of the
 * node indices; linking order[i] -> order[i+1] and order[n-1] -> order[0] makes one cycle
 * through every node (the same distribution of cycles as Sattolo's algorithm on a successor
 * array). A repair pass then swaps nodes until no consecutive pair breaks the placement
 * rules; swapping two entries of the visit order keeps it a single cycle by construction.
 * The links are then written in address order, not visit order: the visit order becomes a
 * successor array in the scratch (the one scattered pass, over 4 bytes a node instead of
 * over the working set), each node's in-stride offset is computed once into the scratch, and
 * one sequential pass over the buffer writes every node's link (a random read of its
 * successor's offset in the scratch, no random store into the buffer). Pointers are moved
 * with __builtin_memcpy: the kernel builds with -fno-builtin, where memcpy is a call to a
 * byte loop (kernel/string.c), eight loads and eight stores a node.
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

/* Node i's pointer offset inside its stride (< stride: fits 32 bits). Masks, not `%`: the
 * stride and line are powers of two (a division is a helper call under QEMU TCG). */
static uint32_t node_delta(const struct chain_params *p, uint64_t i)
{
	uint64_t h = p->seed ^ (i * 0xd6e8feb86659fd93ull);
	uint32_t off = 0;

	h = chain_rand(&h);
	if (p->vary_line && p->stride > p->line)
		off += (uint32_t)(((h >> 32) & (p->stride / p->line - 1)) * p->line);
	if (p->vary_slot)
		off += (uint32_t)((h & (p->line / 8 - 1)) * 8);
	return off;
}

uint64_t chain_node_offset(const struct chain_params *p, uint64_t i)
{
	return i * p->stride + node_delta(p, i);
}

void chain_successors(const uint32_t *order, uint64_t n, uint32_t *succ)
{
	for (uint64_t i = 0; i + 1 < n; i++)
		succ[order[i]] = order[i + 1];
	if (n)
		succ[order[n - 1]] = order[0];
}

struct rules {
	unsigned page_shift;	/* log2(nodes per page); 0: same-page rule off (pages of one
				 * node never share one) */
};

static bool near(uint32_t a, uint32_t b)
{
	return (a > b ? a - b : b - a) < 2;
}

static bool same_page(const struct rules *r, uint32_t a, uint32_t b)
{
	return r->page_shift && a >> r->page_shift == b >> r->page_shift;
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

/* True when its last pass found every consecutive pair clean (nothing left to count). */
static bool repair(const struct rules *r, uint32_t *ord, uint64_t n, uint64_t *rng)
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
			return true;
	}
	return false;
}

/* Consecutive pairs of the visit order still breaking the rules. */
static void count_left(const struct rules *r, const uint32_t *ord, uint64_t n, struct chain *c)
{
	for (uint64_t i = 0; i < n; i++) {
		uint32_t a = ord[i], z = ord[i + 1 == n ? 0 : i + 1];

		c->near_left += near(a, z);
		c->page_left += same_page(r, a, z);
	}
}

/* The node count for p, 0 for bad parameters; the rules that apply. */
static uint64_t setup(const struct chain_params *p, struct rules *r)
{
	uint64_t n;

	r->page_shift = 0;
	if (!pow2(p->stride) || !pow2(p->line) || !pow2(p->page) || p->line < 8 ||
	    p->line > p->stride)
		return 0;
	n = p->bytes / p->stride;
	if (n < CHAIN_MIN_NODES || n > 0xffffffffull)
		return 0;
	if (p->stride < p->page && p->bytes / p->page >= CHAIN_PAGE_RULE_MIN)
		while ((p->stride << r->page_shift) < p->page)
			r->page_shift++;
	return n;
}

int chain_build(struct chain *c, void *base, const struct chain_params *p, uint32_t *scratch)
{
	uint64_t n, rng = p->seed;
	struct rules r;
	uint8_t *b = base;
	uint32_t *ord = scratch, *succ, first;

	memset(c, 0, sizeof(*c));
	n = setup(p, &r);
	if (!n)
		return -1;
	succ = scratch + n;

	for (uint64_t i = 0; i < n; i++)
		ord[i] = (uint32_t)i;
	for (uint64_t i = n - 1; i > 0; i--)
		swap32(&ord[i], &ord[chain_rand_below(&rng, i + 1)]);
	if (!repair(&r, ord, n, &rng))
		count_left(&r, ord, n, c);
	first = ord[0];
	chain_successors(ord, n, succ);

	/* the visit order is no longer needed: its space holds each node's in-stride offset */
	for (uint64_t i = 0; i < n; i++)
		ord[i] = node_delta(p, i);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t z = succ[i];
		uintptr_t next = (uintptr_t)(b + z * p->stride + ord[z]);

		__builtin_memcpy(b + i * p->stride + ord[i], &next, sizeof(next));
	}
	c->head = (uintptr_t)(b + (uint64_t)first * p->stride + ord[first]);
	c->nodes = n;
	c->bytes = n * p->stride;
	c->stride = p->stride;
	c->page_rule = r.page_shift != 0;
	return 0;
}

uint64_t chain_walk_len(const struct chain *c)
{
	uintptr_t q = c->head;

	for (uint64_t k = 1; k <= c->nodes; k++) {
		__builtin_memcpy(&q, (const void *)q, sizeof(q));
		if (q == c->head)
			return k;
	}
	return 0;
}
