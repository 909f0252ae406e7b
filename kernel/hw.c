/*
 * hw.c: the kernel's implementation of the hardware seam (kernel/hw.h), plus the exception
 * fixup table that makes the _safe accessors return the fault vector (kernel/extable.h).
 * Each _safe access records (faulting instruction, continuation) in section .extable and
 * holds its result in RBX, 0 before the instruction; the trap handler finds the RIP there and
 * resumes at the continuation with the vector in the saved RBX of the faulting context
 * (extable_fixup_frame). The result lives in that context's registers, so an interrupt or NMI
 * between the fault and the read, or another CPU's access, cannot touch it (Linux keeps the
 * fixup state in pt_regs the same way: arch/x86/mm/extable.c ex_handler_msr()).
 */
#include "kernel/hw.h"
#include "kernel/extable.h"
#include "kernel/idt.h"

/* "1:" is the instruction that may fault, "2:" where execution resumes. */
#define EXTABLE_ENTRY ".pushsection .extable,\"a\"\n\t.quad 1b, 2b, 0\n\t.popsection\n\t"
#define EXTABLE_CALL  ".pushsection .extable,\"a\"\n\t.quad 1b, 2b, 1\n\t.popsection\n\t"

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
	int vec = 0;

	__asm__ volatile("1: rdmsr\n2:\n\t" EXTABLE_ENTRY
			 : "+a"(lo), "+d"(hi), "+b"(vec) : "c"(msr) : "memory");
	*val = ((uint64_t)hi << 32) | lo;
	return vec;
}

int wrmsr_safe(uint32_t msr, uint64_t val)
{
	int vec = 0;

	__asm__ volatile("1: wrmsr\n2:\n\t" EXTABLE_ENTRY
			 : "+b"(vec) : "c"(msr), "a"((uint32_t)val), "d"((uint32_t)(val >> 32))
			 : "memory");
	return vec;
}

int rdpmc_safe(uint32_t counter, uint64_t *val)
{
	uint32_t lo = 0, hi = 0;
	int vec = 0;

	__asm__ volatile("1: rdpmc\n2:\n\t" EXTABLE_ENTRY
			 : "+a"(lo), "+d"(hi), "+b"(vec) : "c"(counter) : "memory");
	*val = ((uint64_t)hi << 32) | lo;
	return vec;
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
	int vec = 0;

	__asm__ volatile("1: movq (%2), %0\n2:\n\t" EXTABLE_ENTRY
			 : "+r"(v), "+b"(vec) : "r"(addr) : "memory");
	*val = v;
	return vec;
}

int write64_safe(uint64_t addr, uint64_t val)
{
	int vec = 0;

	__asm__ volatile("1: movq %2, (%1)\n2:\n\t" EXTABLE_ENTRY
			 : "+b"(vec) : "r"(addr), "r"(val) : "memory");
	return vec;
}

int ud2_safe(void)
{
	int vec = 0;

	__asm__ volatile("1: ud2\n2:\n\t" EXTABLE_ENTRY : "+b"(vec) :: "memory");
	return vec;
}

int div0_safe(void)
{
	uint32_t a = 1, d = 0, zero = 0;
	int vec = 0;

	__asm__ volatile("1: divl %3\n2:\n\t" EXTABLE_ENTRY
			 : "+a"(a), "+d"(d), "+b"(vec) : "r"(zero) : "memory");
	return vec;
}

int call_safe(uint64_t addr)
{
	int vec = 0;

	/* a fault fetching addr returns to "2:" (the call entry's continuation, traps.c); RBX
	 * is callee-saved, so the callee gives the result register back unchanged */
	__asm__ volatile("1: call *%1\n2:\n\t" EXTABLE_CALL
			 : "+b"(vec) : "r"(addr) : "memory", "rax", "rcx", "rdx", "rsi", "rdi",
			    "r8", "r9", "r10", "r11");
	return vec;
}

extern const struct extable_entry __extable_start[], __extable_end[];

bool extable_fixup(struct trap_frame *f, uint64_t cr2)
{
	return extable_fixup_frame(__extable_start, __extable_end, f, cr2);
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
