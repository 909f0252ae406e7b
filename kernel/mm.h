/*
 * mm.h: physical memory and mappings. All usable RAM is identity-mapped (virtual == physical)
 * with the largest pages that fit; buffers for measurements can be mapped with a chosen page
 * size in a separate window. SDM Vol. 3A ch. 4 (4-level paging).
 */
#ifndef KERNEL_MM_H
#define KERNEL_MM_H

#include <stddef.h>
#include <stdint.h>

#include "kernel/page.h"

/* Physical pages from the memory map: `bytes` rounded up to 4 KiB, aligned to `align`
 * (a power of two >= 4 KiB). Returns the (identity-mapped) address, or 0 when out of memory.
 * Zeroed. Never hands out the kernel image, the boot info or reserved ranges. */
uint64_t pmm_alloc(uint64_t bytes, uint64_t align);
uint64_t pmm_free_bytes(void);
uint64_t pmm_total_bytes(void);

/* Identity-mapped, zeroed kernel memory (wrapper over pmm_alloc). NULL when out of memory. */
void *kalloc(uint64_t bytes, uint64_t align);
/* Moves each time the test runner's per-test release (ktests/run.c) gives memory back: a
 * kalloc block taken under another generation may be gone, one taken under this one is not.
 * A caller that keeps a block across calls (pebs/program.c) compares generations. */
uint64_t mm_generation(void);

/*
 * A measurement buffer of `bytes` (rounded up to the page size), backed by fresh physical
 * memory and mapped read/write, NX, write-back, with pages of exactly `ps` in the buffer
 * window above all RAM. Returns NULL (and says why on the console) when it cannot.
 * Page sizes the CPU lacks (1 GiB without CPUID.80000001H:EDX[26]) fail.
 */
void *mm_map_buffer(uint64_t bytes, enum page_size ps);
/* The same, backed by physical memory inside [lo, hi) (a NUMA node's range). */
void *mm_map_buffer_in(uint64_t bytes, enum page_size ps, uint64_t lo, uint64_t hi);
/* Map device memory [pa, pa+bytes) uncached (PCD|PWT), 4 KiB pages, at its identity
 * address (also above RAM, e.g. a framebuffer). Returns the pointer, NULL on failure. */
void *mm_map_mmio(uint64_t pa, uint64_t bytes);
/* The same, write-combining (a framebuffer); uncached where the PAT could not be set. */
void *mm_map_wc(uint64_t pa, uint64_t bytes);

/* Unmap the 4 KiB page at `va` (4 KiB aligned, identity-mapped kernel memory from kalloc)
 * as a guard: an access faults (#PF, SDM Vol. 3A 6.15 interrupt 14). 0, or -1. */
int mm_guard_page(void *va);

/* Page size actually used for the mapping of `va` (walks the live tables); -1 if unmapped. */
int mm_page_size_of(uint64_t va);
/* Physical address `va` translates to (walks the live tables); ~0 if unmapped. */
uint64_t mm_phys_of(uint64_t va);

#endif
