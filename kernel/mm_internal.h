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

/* The identity map as mm_init and the device mappings left it (kernel/mm_expect.h); the
 * device ranges are those mapped so far. Returns how many device mappings did not fit in
 * the record (MM_IO_MAX). */
#define MM_IO_MAX 16
/* Guard pages mm_guard_page records in its built-in list: 4 per AP (stack and 3 IST stacks,
 * smp/percpu.h) for 64 CPUs; past that the list moves to one twice as long from the memory
 * map (no CPU limit); where none can be had it refuses, so the recorded rule stays whole. */
#define MM_GUARD_MAX 256
struct mm_layout;
unsigned mm_get_layout(struct mm_layout *l);

#endif
