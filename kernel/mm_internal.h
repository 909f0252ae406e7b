/*
 * mm_internal.h: the parts of kernel/mm.c that only boot code, the runner and the kernel's
 * own tests use (initialisation, MMIO mappings, mark/release around tests).
 */
#ifndef KERNEL_MM_INTERNAL_H
#define KERNEL_MM_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/mb2.h"
#include "kernel/pgtable.h"
#include "kernel/pmm.h"

/* Build the allocator and the final page tables; false with the reason in `why`. */
bool mm_init(const struct mb2_info *mb, uint64_t info_addr, char *why, size_t whylen);

struct mm_mark {
	struct pmm_mark pmm;
	uint64_t window_next;
};
void mm_mark(struct mm_mark *m);
void mm_release(const struct mm_mark *m);

const struct pgt *mm_kernel_pgt(void);

#endif
