/* kalloc_arena.c: the bump allocator of kalloc_arena.h. */
#include "tests/stubs/kalloc_arena.h"

#include <stddef.h>

struct kalloc_arena kalloc_arena = { .limit = UINT32_MAX };

void *kalloc(uint64_t bytes, uint64_t align)
{
	static _Alignas(4096) uint8_t arena[1 << 16];
	static uint64_t at;
	void *p;

	if (kalloc_arena.allocs >= kalloc_arena.limit)
		return NULL;
	at = (at + align - 1) & ~(align - 1);
	if (at + bytes > sizeof(arena)) {
		if (!kalloc_arena.wrap || bytes > sizeof(arena))
			return NULL;
		at = 0;
	}
	p = arena + at;
	at += bytes;
	kalloc_arena.allocs++;
	return p;
}
