/*
 * ksyms.h: the kernel's own symbol table, so an exception dump names the function its RIP is
 * in (`# RIP in trap_demo+0x1c`) instead of a bare address. The table is generated at build
 * time from the linked image (Makefile: a first link, `nm -n` of its text symbols, a second
 * link with the table; the two links' text is checked to be identical, and it is, because
 * the table lives in .rodata, after .text: linker.ld). Pure lookup.
 */
#ifndef KERNEL_KSYMS_H
#define KERNEL_KSYMS_H

#include <stdint.h>

struct ksym {
	uint64_t addr;
	const char *name;
};

/* The image's table, sorted by address (empty in the first link). */
extern const struct ksym ksym_table[];
extern const unsigned ksym_count;

/* The symbol of table t (n rows, sorted) that addr falls in: the last one at or below addr,
 * with addr below `end` (the end of text); *off = addr - its address. NULL when addr lies
 * outside [t[0].addr, end). */
const char *ksym_find(const struct ksym *t, unsigned n, uint64_t end, uint64_t addr,
		      uint64_t *off);
/* The same over the kernel's own table and text. */
const char *ksym_lookup(uint64_t addr, uint64_t *off);

#endif
