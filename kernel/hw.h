/*
 * hw.h: the one seam to hardware. Raw accessors only: MSRs, RDPMC, CPUID, the TSC, port and
 * MMIO I/O.
 * The kernel implements them in kernel/hw.c (inline asm); host tests link a model in their
 * place (tests/model/), so every file above this seam compiles unchanged on both sides.
 * The _safe variants return 0, or the exception vector (13 for #GP) the access raised,
 * through the exception-fixup table (SDM Vol. 3A 6.15 for the vectors).
 */
#ifndef KERNEL_HW_H
#define KERNEL_HW_H

#include <stdint.h>

struct cpuid_regs {
	uint32_t eax, ebx, ecx, edx;
};

uint64_t rdmsr(uint32_t msr);
void wrmsr(uint32_t msr, uint64_t val);
int rdmsr_safe(uint32_t msr, uint64_t *val);
int wrmsr_safe(uint32_t msr, uint64_t val);
int rdpmc_safe(uint32_t counter, uint64_t *val);
/*
 * MFENCE; LFENCE before a WRMSR that is not serializing: the x2APIC MSRs (the ICR above all)
 * and IA32_TSC_DEADLINE. SDM Vol. 3A 11.12.3 "MSR Access in x2APIC Mode" and 11.5.4.1: such a
 * WRMSR may pass earlier stores, so an IPI could overtake the data it announces (Linux
 * arch/x86/include/asm/barrier.h weak_wrmsr_fence(), called by x2apic_send_IPI and
 * lapic_next_deadline). A model records that it ran before the next WRMSR.
 */
void hw_wrmsr_fence(void);

/* CPUID leaf/subleaf. */
void cpuid_count(uint32_t leaf, uint32_t subleaf, struct cpuid_regs *r);

/*
 * Time-stamp counter (SDM Vol. 3B 18.17): RDTSC, and an ordered read with LFENCE before and
 * after (earlier instructions have finished, later ones have not started). Functions, not
 * inline asm, even in the kernel's timed loops (loads/chase.c, apic/apic_timer.c), so that
 * every host build of that code reads a model's virtual clock (tests/model/vclock.c) and
 * never the host's TSC. The cost is a CALL and a RET inside each bracketed interval: a few
 * cycles, the same every time, against intervals of 10^4 ticks and more (a chase repetition,
 * a 10 ms calibration window), so well below the spread of what those loops measure.
 * Host tools that measure real time on purpose (tools/loadbench) implement these with the
 * compiler's intrinsics.
 */
uint64_t rdtsc(void);
uint64_t rdtsc_ordered(void);

/*
 * The interrupt flag (RFLAGS.IF, SDM Vol. 1 3.4.3.3; STI/CLI, Vol. 2B): hw_irq_on enables
 * maskable interrupts and returns the flags to give hw_irq_restore, which disables them again
 * unless they were on before. For code that must take interrupts (a PEBS threshold PMI) while
 * it runs and compiles on the host too (loads/kpebs.c); a model keeps the flag.
 */
uint64_t hw_irq_on(void);
void hw_irq_restore(uint64_t flags);

uint8_t inb(uint16_t port);
void outb(uint16_t port, uint8_t val);
/* 16-bit port I/O: ACPI PM1 control blocks are word registers (ACPI 6.5 §4.8.3.2). */
uint16_t inw(uint16_t port);
void outw(uint16_t port, uint16_t val);
uint32_t mmio_read32(uintptr_t addr);
void mmio_write32(uintptr_t addr, uint32_t val);
uint8_t mmio_read8(uintptr_t addr);
void mmio_write8(uintptr_t addr, uint8_t val);

#endif
