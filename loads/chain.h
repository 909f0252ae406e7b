/*
 * chain.h: pointer-chase chains (pure C). A chain is one random cyclic permutation of the
 * nodes of a working set: every node is visited exactly once per lap, there are no short
 * cycles, and each node holds, at an 8-byte slot, the address of the next node's slot, so the
 * kernel is `p = *p` (mov rax,[rax]: simple addressing, the 4-cycle L1 case). Basis:
 * docs/latency-method.md §2.1-2.3 and §9 (Sattolo/random cyclic order over
 * every 64 B line, no fixed strides, pages by size), SDM Vol. 3B / Optimization Manual on the
 * L1 next-line, L2 adjacent-line and streamer prefetchers (next/adjacent lines, 4 KiB pages).
 *
 * Nodes are `stride` bytes apart (the line size for cache kernels; 4096 for the STLB kernel,
 * where each node gets its own page and a pseudo-random line inside it so page-aligned nodes do
 * not all fall into one cache set). Placement rules, enforced by a repair pass after the
 * shuffle and counted afterwards:
 *   - consecutive nodes are never the same or neighbouring strides (|a - b| >= 2): no
 *     next-line / adjacent-line (buddy) prefetch hit, no next-page hit for the STLB kernel;
 *   - when the working set spans >= CHAIN_PAGE_RULE_MIN pages of `page` bytes and nodes are
 *     smaller than a page, consecutive nodes are never in the same page (no streamer
 *     training inside a page, no TLB reuse between two consecutive loads).
 * The order is seeded (splitmix64) and reproducible: same parameters, same chain.
 */
#ifndef LOADS_CHAIN_H
#define LOADS_CHAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CHAIN_PAGE_RULE_MIN 4u	/* fewer pages: the same-page rule cannot hold for all nodes */
#define CHAIN_MIN_NODES 5u	/* the smallest cycle with no neighbouring consecutive nodes */

struct chain_params {
	uint64_t bytes;		/* working set; nodes = bytes / stride */
	uint32_t stride;	/* bytes between nodes (power of 2, >= 8): 64 or 4096 */
	uint32_t line;		/* cache line (power of 2, 8 <= line <= stride) */
	uint32_t page;		/* page for the same-page rule (power of 2), usually 4096 */
	uint64_t seed;
	bool vary_slot;		/* pointer at a pseudo-random 8-byte slot of its line, else 0 */
	bool vary_line;		/* stride > line: pseudo-random line inside the node, else 0 */
};

struct chain {
	uintptr_t head;		/* address of the first node's pointer */
	uint64_t nodes;
	uint64_t bytes;
	uint32_t stride;
	bool page_rule;		/* whether the same-page rule applied */
	uint64_t near_left;	/* consecutive pairs still breaking the neighbour rule */
	uint64_t page_left;	/* ... the same-page rule (when it applied) */
};

/* Deterministic PRNG (splitmix64, Steele et al. 2014): also used by the tests. */
uint64_t chain_rand(uint64_t *state);
/* Uniform in [0, n) (Lemire's multiply-shift; n > 0). */
uint64_t chain_rand_below(uint64_t *state, uint64_t n);

/* Scratch the builder needs: two uint32_t per node (the visit order, then each node's
 * in-stride offset; the successor array). 1/8 of the working set at stride 64. */
static inline uint64_t chain_scratch_bytes(const struct chain_params *p)
{
	return p->bytes / p->stride * 2 * sizeof(uint32_t);
}

/*
 * Build the chain in `base` (at least p->bytes, zeroed or not; only the pointer slots are
 * written). `scratch` holds chain_scratch_bytes(p). Returns 0, or -1 for bad parameters
 * (fewer than CHAIN_MIN_NODES nodes, more than 2^32, bad powers of two).
 */
int chain_build(struct chain *c, void *base, const struct chain_params *p, uint32_t *scratch);

/* The visit order order[0..n) (a permutation of 0..n-1) as a successor array: succ[order[i]]
 * = order[i + 1], succ[order[n - 1]] = order[0]. The builder's conversion, exported for its
 * test. */
void chain_successors(const uint32_t *order, uint64_t n, uint32_t *succ);

/* Offset of node i's pointer inside the working set (the builder's placement). */
uint64_t chain_node_offset(const struct chain_params *p, uint64_t i);

/* Follow the chain from c->head until it returns; the number of loads, or 0 if it did not
 * return within c->nodes loads (broken chain, short cycle). Touches every node. */
uint64_t chain_walk_len(const struct chain *c);

#endif
