/*
 * mm_probe.h: where the `paging` test looks (pure C): probe addresses chosen from the
 * multiboot2 memory map and the kernel's own device mappings, and a walk over every usable
 * RAM range, each judged against the identity map's rule (kernel/mm_expect.h).
 */
#ifndef KERNEL_MM_PROBE_H
#define KERNEL_MM_PROBE_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/mb2.h"
#include "kernel/mm_expect.h"
#include "kernel/pgtable.h"

/* Which check a probe belongs to (ktests/paging.c: one subtest each). */
enum mm_probe_kind {
	PROBE_LARGE,		/* aligned interior of RAM / of the large-page span */
	PROBE_EDGE,		/* an edge: the small/large boundary, the ends of RAM ranges */
	PROBE_IO,		/* first and last page of a device range */
	PROBE_IO_AROUND,	/* the pages and 2 MiB frames beside a device range */
};

struct mm_probe {
	uint64_t pa;
	enum mm_probe_kind kind;
	bool ram;		/* inside usable RAM: safe to read */
	const char *what;
	struct mm_expect want;
};

#define MM_PROBES_MAX 64

/*
 * Choose probe addresses from the memory map `map` (n entries) and the layout: the largest
 * usable range's first wholly usable frame of the largest page size (and its last page),
 * the first frame of the largest page size anywhere in the large span, the 4 KiB/large
 * boundary, the first and last page of the largest and of the highest usable range, and
 * for each device range its first and last page, the pages just outside it and the 2 MiB
 * frames beside it. Duplicates and addresses inside the kernel image are left out.
 * Returns the number written to `out` (at most `max`); *truncated says some did not fit.
 */
unsigned mm_plan_probes(const struct mm_layout *l, const struct mb2_mmap_entry *map,
			unsigned n, struct mm_probe *out, unsigned max, bool *truncated);

/* The walk over all usable RAM: each range's first and last page and every 2 MiB boundary
 * inside it (the kernel image left out: its pages have their own permissions). */
struct mm_sweep {
	unsigned ranges;	/* usable ranges walked */
	uint64_t judged;	/* addresses judged */
	uint64_t wrong;		/* of them, not as the rule says */
	uint64_t first_pa;	/* the first wrong one */
	char first[96];		/* its judgement (mm_judge) */
};
void mm_sweep_ram(const struct mm_layout *l, const struct mb2_mmap_entry *map, unsigned n,
		  const struct pgt *t, uint64_t pat, struct mm_sweep *out);

#endif
