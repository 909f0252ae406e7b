/*
 * pmm.h: physical page allocator over the boot memory map (pure C). Usable ranges are the
 * memory map's "available" entries minus every excluded range (the kernel image, the boot
 * information, the first MiB); allocation is a bump pointer per range with alignment.
 * A mark/release pair returns everything allocated since the mark (the test runner uses it
 * so that one test's buffers never starve the next).
 */
#ifndef KERNEL_PMM_H
#define KERNEL_PMM_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/mb2.h"

/* every usable entry of a full multiboot2 map, plus the splits of mm_init's exclusions */
#define PMM_MAX_RANGES (MB2_MAX_MMAP + 8)

struct pmm_range {
	uint64_t start, end;	/* [start, end), 4 KiB aligned */
	uint64_t next;		/* first free byte */
};

struct pmm {
	struct pmm_range r[PMM_MAX_RANGES];
	unsigned n;
	bool overflow;		/* more ranges than fit: some RAM unused */
};

struct pmm_mark {
	uint64_t next[PMM_MAX_RANGES];	/* pmm_release returns to these */
};

void pmm_init(struct pmm *p);
/* Add usable RAM [base, base+len) (trimmed to 4 KiB pages, split around exclusions later). */
void pmm_add(struct pmm *p, uint64_t base, uint64_t len);
/* Remove [base, base+len) from every range (rounded outward to pages). */
void pmm_exclude(struct pmm *p, uint64_t base, uint64_t len);

/* Lowest-address fit; 0 when nothing fits. `align` a power of two >= 4096. Not zeroed. */
uint64_t pmm_take(struct pmm *p, uint64_t bytes, uint64_t align);
/* The same, the whole block inside [lo, hi) (a NUMA node's range: platform/numa.h). */
uint64_t pmm_take_in(struct pmm *p, uint64_t bytes, uint64_t align, uint64_t lo, uint64_t hi);

uint64_t pmm_free(const struct pmm *p);
uint64_t pmm_total(const struct pmm *p);
uint64_t pmm_top(const struct pmm *p);	/* end of the highest range */

void pmm_mark(const struct pmm *p, struct pmm_mark *m);
void pmm_release(struct pmm *p, const struct pmm_mark *m);

#endif
