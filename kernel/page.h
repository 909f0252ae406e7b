/*
 * page.h: the three page sizes of 4-level paging (SDM Vol. 3A 4.5: a 4 KiB page through a
 * PTE, a 2 MiB page through a PDE with PS = 1, a 1 GiB page through a PDPTE with PS = 1,
 * the last only where CPUID.80000001H:EDX[26] says so). The allocator (pmm), the table
 * builder (pgtable), the identity map's rule (mm_expect) and mm.c all speak in these.
 */
#ifndef KERNEL_PAGE_H
#define KERNEL_PAGE_H

#define PAGE_4K  0x1000ull
#define PAGE_2M  0x200000ull
#define PAGE_1G  0x40000000ull

enum page_size { PS_4K, PS_2M, PS_1G };

#endif
