/*
 * idt.c: the IDT (SDM Vol. 3A 6.10, 6.14.1 64-bit gate descriptors). Every vector points to
 * its entry point in boot/isr.asm; #DF, NMI and #MC run on their own IST stacks (kernel/gdt.h).
 * Device vectors (32..255) dispatch to handlers installed with idt_set_handler.
 */
#include "kernel/idt.h"
#include "kernel/gdt.h"

#include <string.h>

struct idt_gate {
	uint16_t off_lo, sel;
	uint8_t ist, type_attr;
	uint16_t off_mid;
	uint32_t off_hi, reserved;
} __attribute__((packed));
_Static_assert(sizeof(struct idt_gate) == 16, "64-bit IDT gate is 16 bytes (SDM Figure 6-8)");

extern const uint64_t isr_entry_table[256];
static struct idt_gate idt[256] __attribute__((aligned(16)));
irq_handler_fn irq_handlers[256];
nmi_handler_fn nmi_hook;
irq_handler_fn irq_default;

static void set_gate(unsigned v, uint64_t addr, uint8_t ist)
{
	idt[v].off_lo = addr & 0xffff;
	idt[v].sel = GDT_KCODE;
	idt[v].ist = ist;
	idt[v].type_attr = 0x8e;	/* present, DPL 0, 64-bit interrupt gate (IF cleared) */
	idt[v].off_mid = (addr >> 16) & 0xffff;
	idt[v].off_hi = (uint32_t)(addr >> 32);
	idt[v].reserved = 0;
}

void idt_init(void)
{
	struct {
		uint16_t limit;
		uint64_t base;
	} __attribute__((packed)) ptr = { sizeof(idt) - 1, (uint64_t)(uintptr_t)idt };

	for (unsigned v = 0; v < 256; v++)
		set_gate(v, isr_entry_table[v], 0);
	idt[VEC_DF].ist = IST_DF;
	idt[VEC_NMI].ist = IST_NMI;
	idt[VEC_MC].ist = IST_MC;
	__asm__ volatile("lidt %0" :: "m"(ptr) : "memory");
}

void idt_load_copy(void *dst)
{
	struct {
		uint16_t limit;
		uint64_t base;
	} __attribute__((packed)) ptr = { sizeof(idt) - 1, (uint64_t)(uintptr_t)dst };

	memcpy(dst, idt, sizeof(idt));
	__asm__ volatile("lidt %0" :: "m"(ptr) : "memory");
}

void idt_set_handler(uint8_t vector, irq_handler_fn fn)
{
	if (vector >= 32)
		irq_handlers[vector] = fn;
}

void idt_set_nmi_hook(nmi_handler_fn fn)
{
	nmi_hook = fn;
}

void idt_set_default_handler(irq_handler_fn fn)
{
	irq_default = fn;
}
