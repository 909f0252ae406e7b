/*
 * chain_keep.h: which load-kernel chains outlive their test, and which later test may walk
 * one instead of building it again (pure C; loads/kload_keep.c holds them in kernel/mm.h
 * mm_keep_buffer memory). The test runner (ktests/run.c) releases all of a test's memory
 * after it, so a chain that a later test walks again would be built twice: load_lfb/ref walks
 * the chain load_dram built, load_store/ref load_l2's (same working set, stride, line, pages
 * and seed). Rules:
 *   - only what is cheap to keep: chains on 2 MiB pages in pooled memory (not a NUMA node's
 *     range), at most KEEP_MAX_BYTES in all and at most 1/KEEP_FREE_SHARE of the memory free
 *     without them: a DRAM-sized chain on real hardware (1 GiB and more) is never pinned;
 *   - a chain that does not fit beside the kept ones replaces all of them (their memory is
 *     returned at once), unless the running test uses one of them;
 *   - a kept chain is found only by its full key (struct chain_params); a kernel that stores
 *     into the working set (any kind but the load-only ones) spoils the chain it ran over;
 *   - whoever takes a kept chain re-verifies it first (loads/chain.h chain_verify).
 */
#ifndef LOADS_CHAIN_KEEP_H
#define LOADS_CHAIN_KEEP_H

#include <stdbool.h>
#include <stdint.h>

#include "loads/chain.h"
#include "loads/chase.h"

#define KEEP_SLOTS 4
#define KEEP_MAX_BYTES (8ull << 20)	/* all kept chains together */
#define KEEP_FREE_SHARE 16u		/* kept <= 1/16 of the memory free without them */

struct keep_entry {
	bool used;
	bool spoiled;			/* a storing kernel ran over it */
	struct chain_params p;		/* the key */
	struct chain chain;
	uintptr_t base;			/* its buffer */
	uint64_t bytes;			/* memory it holds (the buffer, rounded to its pages) */
	const char *by;			/* the run that built it, e.g. "load_dram" */
};

struct keep_set {
	struct keep_entry e[KEEP_SLOTS];
	uint64_t bytes;			/* memory all kept chains hold */
};

enum keep_act {
	KEEP_NO,			/* build it in the test's own memory */
	KEEP_ADD,			/* keep it beside the others */
	KEEP_REPLACE,			/* drop all kept chains, then keep it */
};

/* Whether a new chain holding `bytes` is kept. keepable: 2 MiB pages, pooled memory;
 * free_bytes: free memory now (kept chains not counted free); in_use: the running test
 * walks a kept chain. */
enum keep_act keep_decide(const struct keep_set *s, uint64_t bytes, bool keepable,
			  uint64_t free_bytes, bool in_use);
/* The unspoiled kept chain built with exactly `p`, or -1. */
int keep_find(const struct keep_set *s, const struct chain_params *p);
/* Record a kept chain (after keep_decide said ADD, or REPLACE and keep_clear). */
void keep_add(struct keep_set *s, const struct chain_params *p, const struct chain *c,
	      uintptr_t base, uint64_t bytes, const char *by);
/* Forget them all (their memory was returned). */
void keep_clear(struct keep_set *s);
/* Whether a kernel of this kind stores into the working set (then it spoils the chain). */
bool keep_kind_writes(enum chase_kind k);
/* A storing kernel runs over the buffer at `base`: the kept chain there is never reused. */
void keep_spoil(struct keep_set *s, uintptr_t base);

#endif
