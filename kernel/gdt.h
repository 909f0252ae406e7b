/*
 * gdt.h: the kernel GDT with a 64-bit TSS, and the kernel stacks: the boot stack and the IST
 * stacks for #DF, NMI and #MC (SDM Vol. 3A 8.7 "Task Management in 64-bit Mode", 6.14.5
 * "Interrupt Stack Table"). Every stack has an unmapped guard page below it, so an overflow
 * faults instead of corrupting memory; #DF runs on its own stack and can report it.
 */
#ifndef KERNEL_GDT_H
#define KERNEL_GDT_H

#include <stdint.h>

#define GDT_KCODE 0x08		/* must match boot/defs.inc */
#define GDT_KDATA 0x10
#define GDT_TSS   0x18
#define KSTACK_SIZE 0x8000	/* BOOT_STACK_SIZE in boot/defs.inc */

enum kstack_id { KSTACK_BOOT, KSTACK_DF, KSTACK_NMI, KSTACK_MC, KSTACK_COUNT };
/* IST slot (1-based, as in the IDT gate) for each exception that gets its own stack */
enum { IST_DF = 1, IST_NMI = 2, IST_MC = 3 };

struct kstack {
	uint8_t guard[4096];
	uint8_t mem[KSTACK_SIZE];
} __attribute__((aligned(4096)));

extern struct kstack kstacks[KSTACK_COUNT];

/* One CPU's descriptor tables: GDT (null, code, data, 16-byte TSS descriptor) and 64-bit TSS
 * (SDM Figure 8-11). The boot CPU's is static; each AP gets its own (smp/). */
struct tss64 {
	uint32_t reserved0;
	uint64_t rsp[3];
	uint64_t reserved1;
	uint64_t ist[7];
	uint64_t reserved2;
	uint16_t reserved3;
	uint16_t iomap_base;
} __attribute__((packed));

struct gdt_cpu {
	uint64_t gdt[5] __attribute__((aligned(16)));
	struct tss64 tss;
};

/* Fill g (IST stack tops for #DF, NMI, #MC: ist_top[IST_x - 1]), load it, load TR. */
void gdt_load_cpu(struct gdt_cpu *g, const uint64_t ist_top[3]);
/* The boot CPU: gdt_load_cpu with the static tables and kstacks[]. */
void gdt_init(void);

#endif
