/*
 * ksyms.c: lookups in the kernel's symbol table (ksyms.h). The table itself is generated
 * into the second link (build/kernel/ksyms_gen.c); the weak empty one here is what the first
 * link, and any build without the table, sees.
 */
#include "kernel/ksyms.h"

#include <stddef.h>

__attribute__((weak)) const struct ksym ksym_table[1];
__attribute__((weak)) const unsigned ksym_count;

extern char _text_end[] __attribute__((weak));	/* linker.ld; absent in host tests: no symbol */

const char *ksym_find(const struct ksym *t, unsigned n, uint64_t end, uint64_t addr,
		      uint64_t *off)
{
	unsigned lo = 0, hi = n;

	if (!n || addr < t[0].addr || addr >= end)
		return NULL;
	while (hi - lo > 1) {	/* t[lo].addr <= addr < t[hi].addr (hi == n: no bound) */
		unsigned mid = lo + (hi - lo) / 2;

		if (t[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	*off = addr - t[lo].addr;
	return t[lo].name;
}

const char *ksym_lookup(uint64_t addr, uint64_t *off)
{
	return ksym_find(ksym_table, ksym_count, (uint64_t)(uintptr_t)_text_end, addr, off);
}
