/*
 * idt.h: the IDT, trap frames and interrupt handler registration (SDM Vol. 3A ch. 6).
 * Vectors 0-31 are exceptions (kernel/traps.c); 32-255 are free for devices: apic/ takes its
 * vectors from here. A handler runs with interrupts off on the interrupted stack (or its IST
 * stack for #DF, NMI, #MC) and returns normally; the entry code restores every register.
 */
#ifndef KERNEL_IDT_H
#define KERNEL_IDT_H

#include <stdbool.h>
#include <stdint.h>

/* Pushed by the assembly stubs (boot/isr.asm) in this order; the CPU frame follows. */
struct trap_frame {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
	uint64_t vector, error_code;
	uint64_t rip, cs, rflags, rsp, ss;	/* pushed by the CPU */
};

typedef void (*irq_handler_fn)(struct trap_frame *f);

/* Install a handler for vector 32..255 (replaces any earlier one). */
void idt_set_handler(uint8_t vector, irq_handler_fn fn);
/* Handler for vectors >= 32 that have none of their own (apic/ acknowledges them there, so a
 * stray in-service interrupt cannot block lower-priority ones); NULL: only counted. */
void idt_set_default_handler(irq_handler_fn fn);

/* Offer every NMI (vector 2) to fn first: it returns true when the NMI was its source's
 * (apic/: the PMU's, with pmi=nmi); an NMI it leaves is an unknown NMI (kernel/nmi.h).
 * NULL removes it. */
typedef bool (*nmi_handler_fn)(struct trap_frame *f);
void idt_set_nmi_hook(nmi_handler_fn fn);

void idt_init(void);
/* An AP's own IDT: copy the boot CPU's gates (IDT_BYTES, 16-byte aligned) to dst and load it. */
#define IDT_BYTES 4096
void idt_load_copy(void *dst);

static inline void irq_enable(void)  { __asm__ volatile("sti" ::: "memory"); }
static inline void irq_disable(void) { __asm__ volatile("cli" ::: "memory"); }
static inline uint64_t irq_save(void)
{
	uint64_t fl;

	__asm__ volatile("pushfq; popq %0; cli" : "=r"(fl) :: "memory");
	return fl;
}
static inline void irq_restore(uint64_t fl)
{
	if (fl & (1u << 9))
		irq_enable();
}

/* Exception vectors (SDM Vol. 3A 6.3.1, Table 6-1 "Protected-Mode Exceptions and Interrupts"). */
enum {
	VEC_DE = 0, VEC_DB = 1, VEC_NMI = 2, VEC_BP = 3, VEC_OF = 4, VEC_BR = 5, VEC_UD = 6,
	VEC_NM = 7, VEC_DF = 8, VEC_TS = 10, VEC_NP = 11, VEC_SS = 12, VEC_GP = 13,
	VEC_PF = 14, VEC_MF = 16, VEC_AC = 17, VEC_MC = 18, VEC_XM = 19, VEC_VE = 20,
	VEC_CP = 21,
};

#endif
