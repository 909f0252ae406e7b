/*
 * hw.c: the kernel's implementation of the hardware seam (kernel/hw.h), plus the exception
 * fixup table that makes the _safe accessors return the fault vector (kernel/extable.h).
 * Each _safe access records (faulting instruction, continuation) in section .extable; the
 * trap handler finds the RIP there, stores the vector in extable_vector and resumes.
 */
#include "kernel/hw.h"
#include "kernel/extable.h"
#include "kernel/idt.h"

volatile int extable_vector;

/* "1:" is the instruction that may fault, "2:" where execution resumes. */
#define EXTABLE_ENTRY ".pushsection .extable,\"a\"\n\t.quad 1b, 2b\n\t.popsection\n\t"

uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo, hi;

	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((uint64_t)hi << 32) | lo;
}

void wrmsr(uint32_t msr, uint64_t val)
{
	__asm__ volatile("wrmsr" :: "c"(msr), "a"((uint32_t)val), "d"((uint32_t)(val >> 32))
			 : "memory");
}

void hw_wrmsr_fence(void)
{
	__asm__ volatile("mfence; lfence" ::: "memory");
}

int rdmsr_safe(uint32_t msr, uint64_t *val)
{
	uint32_t lo = 0, hi = 0;

	extable_vector = 0;
	__asm__ volatile("1: rdmsr\n2:\n\t" EXTABLE_ENTRY
			 : "+a"(lo), "+d"(hi) : "c"(msr) : "memory");
	*val = ((uint64_t)hi << 32) | lo;
	return extable_vector;
}

int wrmsr_safe(uint32_t msr, uint64_t val)
{
	extable_vector = 0;
	__asm__ volatile("1: wrmsr\n2:\n\t" EXTABLE_ENTRY
			 :: "c"(msr), "a"((uint32_t)val), "d"((uint32_t)(val >> 32)) : "memory");
	return extable_vector;
}

int rdpmc_safe(uint32_t counter, uint64_t *val)
{
	uint32_t lo = 0, hi = 0;

	extable_vector = 0;
	__asm__ volatile("1: rdpmc\n2:\n\t" EXTABLE_ENTRY
			 : "+a"(lo), "+d"(hi) : "c"(counter) : "memory");
	*val = ((uint64_t)hi << 32) | lo;
	return extable_vector;
}

void cpuid_count(uint32_t leaf, uint32_t subleaf, struct cpuid_regs *r)
{
	__asm__ volatile("cpuid"
			 : "=a"(r->eax), "=b"(r->ebx), "=c"(r->ecx), "=d"(r->edx)
			 : "a"(leaf), "c"(subleaf));
}

uint64_t hw_irq_on(void)
{
	uint64_t fl = irq_save();

	irq_enable();
	return fl;
}

void hw_irq_restore(uint64_t flags)
{
	if (flags & (1u << 9))	/* RFLAGS.IF */
		irq_enable();
	else
		irq_disable();
}

uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

uint64_t rdtsc_ordered(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi) :: "memory");
	return ((uint64_t)hi << 32) | lo;
}

uint8_t inb(uint16_t port)
{
	uint8_t v;

	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

void outb(uint16_t port, uint8_t val)
{
	__asm__ volatile("outb %0, %1" :: "a"(val), "Nd"(port));
}

uint16_t inw(uint16_t port)
{
	uint16_t v;

	__asm__ volatile("inw %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

void outw(uint16_t port, uint16_t val)
{
	__asm__ volatile("outw %0, %1" :: "a"(val), "Nd"(port));
}

uint32_t mmio_read32(uintptr_t addr)
{
	return *(volatile uint32_t *)addr;
}

void mmio_write32(uintptr_t addr, uint32_t val)
{
	*(volatile uint32_t *)addr = val;
}

uint8_t mmio_read8(uintptr_t addr)
{
	return *(volatile uint8_t *)addr;
}

void mmio_write8(uintptr_t addr, uint8_t val)
{
	*(volatile uint8_t *)addr = val;
}

int read64_safe(uint64_t addr, uint64_t *val)
{
	uint64_t v = 0;

	extable_vector = 0;
	__asm__ volatile("1: movq (%1), %0\n2:\n\t" EXTABLE_ENTRY
			 : "+r"(v) : "r"(addr) : "memory");
	*val = v;
	return extable_vector;
}

int write64_safe(uint64_t addr, uint64_t val)
{
	extable_vector = 0;
	__asm__ volatile("1: movq %1, (%0)\n2:\n\t" EXTABLE_ENTRY
			 :: "r"(addr), "r"(val) : "memory");
	return extable_vector;
}

int ud2_safe(void)
{
	extable_vector = 0;
	__asm__ volatile("1: ud2\n2:\n\t" EXTABLE_ENTRY ::: "memory");
	return extable_vector;
}

int div0_safe(void)
{
	uint32_t a = 1, d = 0, zero = 0;

	extable_vector = 0;
	__asm__ volatile("1: divl %2\n2:\n\t" EXTABLE_ENTRY
			 : "+a"(a), "+d"(d) : "r"(zero) : "memory");
	return extable_vector;
}

uint64_t extable_call_target;

int call_safe(uint64_t addr)
{
	extable_vector = 0;
	extable_call_target = addr;	/* a fault fetching it returns to "2:" (traps.c) */
	__asm__ volatile("1: call *%0\n2:\n\t" EXTABLE_ENTRY
			 :: "r"(addr) : "memory", "rax", "rcx", "rdx", "rsi", "rdi",
			    "r8", "r9", "r10", "r11");
	extable_call_target = 0;
	return extable_vector;
}

uint64_t read_cr0(void) { uint64_t v; __asm__ volatile("mov %%cr0, %0" : "=r"(v)); return v; }
uint64_t read_cr2(void) { uint64_t v; __asm__ volatile("mov %%cr2, %0" : "=r"(v)); return v; }
uint64_t read_cr3(void) { uint64_t v; __asm__ volatile("mov %%cr3, %0" : "=r"(v)); return v; }
uint64_t read_cr4(void) { uint64_t v; __asm__ volatile("mov %%cr4, %0" : "=r"(v)); return v; }

void write_cr3(uint64_t v)
{
	__asm__ volatile("mov %0, %%cr3" :: "r"(v) : "memory");
}

void write_cr0(uint64_t v)
{
	__asm__ volatile("mov %0, %%cr0" :: "r"(v) : "memory");
}

void write_cr4(uint64_t v)
{
	__asm__ volatile("mov %0, %%cr4" :: "r"(v) : "memory");
}

void cpu_wait_irq(void)
{
	__asm__ volatile("sti; hlt; cli" ::: "memory");
}

void cpu_halt_forever(void)
{
	for (;;)
		__asm__ volatile("cli; hlt");
}
