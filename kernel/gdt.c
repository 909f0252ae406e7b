/*
 * gdt.c: GDT (null, 64-bit code, data, TSS) and the TSS with IST pointers (SDM Vol. 3A 3.4.5
 * segment descriptors, 8.2.3 / Figure 8-11 64-bit TSS, 6.14.5 IST).
 */
#include "kernel/gdt.h"

#include <stddef.h>

_Static_assert(sizeof(struct tss64) == 104, "64-bit TSS is 104 bytes (SDM Figure 8-11)");

struct kstack kstacks[KSTACK_COUNT] __attribute__((section(".bss.stacks")));
_Static_assert(KSTACK_SIZE == 0x8000, "KSTACK_SIZE must match BOOT_STACK_SIZE in defs.inc");
_Static_assert(offsetof(struct kstack, mem) == 4096, "the guard page comes first");

static struct gdt_cpu boot_gdt;

void gdt_init(void)
{
	const uint64_t ist[3] = {
		[IST_DF - 1] = (uint64_t)(uintptr_t)(kstacks[KSTACK_DF].mem + KSTACK_SIZE),
		[IST_NMI - 1] = (uint64_t)(uintptr_t)(kstacks[KSTACK_NMI].mem + KSTACK_SIZE),
		[IST_MC - 1] = (uint64_t)(uintptr_t)(kstacks[KSTACK_MC].mem + KSTACK_SIZE),
	};

	gdt_load_cpu(&boot_gdt, ist);
}

void gdt_load_cpu(struct gdt_cpu *g, const uint64_t ist_top[3])
{
	struct tss64 *tss = &g->tss;
	uint64_t *gdt = g->gdt;
	uint64_t base = (uint64_t)(uintptr_t)tss, limit = sizeof(*tss) - 1;
	struct {
		uint16_t limit;
		uint64_t base;
	} __attribute__((packed)) ptr = { sizeof(g->gdt) - 1, (uint64_t)(uintptr_t)gdt };

	for (unsigned i = 0; i < 3; i++)
		tss->ist[i] = ist_top[i];
	tss->iomap_base = sizeof(*tss);	/* no I/O permission bitmap */

	gdt[0] = 0;
	gdt[1] = 0x00af9a000000ffffull;	/* 0x08: code, L=1, DPL 0 */
	gdt[2] = 0x00cf92000000ffffull;	/* 0x10: data */
	/* 0x18: 16-byte TSS descriptor, type 9 (available 64-bit TSS), present */
	gdt[3] = (limit & 0xffff) | ((base & 0xffffff) << 16) | (0x89ull << 40) |
		 ((limit >> 16) & 0xf) << 48 | ((base >> 24) & 0xff) << 56;
	gdt[4] = base >> 32;

	__asm__ volatile("lgdt %0\n\t"
			 "pushq %1\n\t"
			 "leaq 1f(%%rip), %%rax\n\t"
			 "pushq %%rax\n\t"
			 "lretq\n"
			 "1:\n\t"
			 "movw %w2, %%ax\n\t"
			 "movw %%ax, %%ds\n\t"
			 "movw %%ax, %%es\n\t"
			 "movw %%ax, %%ss\n\t"
			 "ltr %w3"
			 :: "m"(ptr), "i"(GDT_KCODE), "r"(GDT_KDATA), "r"(GDT_TSS)
			 : "rax", "memory");
}
