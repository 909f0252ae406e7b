/*
 * kalloc_arena.h: kalloc (kernel/mm.h) for host tests whose code allocates a few small blocks
 * that live until the test ends: a bump allocator over one 4096-aligned static arena, never
 * freed, as the kernel's is until a test's memory is released. Knobs: how many more
 * allocations succeed (an out-of-memory case), and whether a full arena starts again from
 * its beginning (tests whose blocks are short-lived) instead of failing.
 */
#ifndef STUBS_KALLOC_ARENA_H
#define STUBS_KALLOC_ARENA_H

#include <stdbool.h>
#include <stdint.h>

struct kalloc_arena {
	unsigned allocs;	/* succeeded so far */
	unsigned limit;		/* allocations that succeed in all (0: none; UINT32_MAX: any) */
	bool wrap;		/* a full arena starts again at its beginning */
};

extern struct kalloc_arena kalloc_arena;	/* limit UINT32_MAX, no wrap until set */

void *kalloc(uint64_t bytes, uint64_t align);

#endif
