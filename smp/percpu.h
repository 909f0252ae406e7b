/*
 * percpu.h: one CPU's data (the boot CPU is CPU 0; application processors follow in MADT
 * order) and the layout of an AP's memory: this struct, its GDT and TSS (SDM Vol. 3A 8.7
 * "Task Management in 64-bit Mode"), its own IDT (6.10), its stack and the IST stacks for
 * #DF, NMI and #MC (6.14.5). IA32_GS_BASE holds the CPU's struct percpu (0 on the boot CPU
 * until smp_init). The layout arithmetic is pure C (smp/boot_plan.c, host-tested).
 */
#ifndef SMP_PERCPU_H
#define SMP_PERCPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/gdt.h"
#include "kernel/jump.h"
#include "smp/topology.h"

/* IA32_GS_BASE (SDM Vol. 4 Table 2-2, MSR C000_0101H): each CPU's struct percpu */
#define MSR_IA32_GS_BASE 0xc0000101u

enum cpu_state {
	CPU_ABSENT,		/* not started (not enabled in the MADT, or left out) */
	CPU_STARTING,		/* INIT/SIPI sent */
	CPU_ONLINE,		/* running smp_ap_main's loop */
	CPU_NO_ANSWER,		/* did not come online within the bound: left out */
};

typedef void (*smp_fn)(void *arg);

struct percpu {
	struct percpu *self;
	unsigned cpu;		/* 0 = boot CPU */
	uint32_t apic_id;	/* from the MADT; the CPU checks its own against it */
	uint32_t apic_id_seen;	/* what the CPU read from its local APIC */
	uint32_t acpi_uid;
	uint8_t core_type;	/* CPUID.1AH:EAX[31:24] (0: not hybrid) */
	uint32_t node;		/* NUMA node (platform/numa.h), set by main.c from the SRAT: 0
				 * without an SRAT or for a CPU it does not list */
	struct cpu_topo topo;
	volatile int state;	/* enum cpu_state */
	uint64_t sipi_tsc, online_tsc;	/* boot CPU's TSC at the first SIPI / when it saw online */
	unsigned sipis;		/* SIPIs sent */
	const char *why;	/* CPU_NO_ANSWER / CPU_ABSENT: the reason */
	bool at_ceiling;	/* CPU_NO_ANSWER: given up at SMP_BATCH_CEILING_MS, not for no progress */
	/* the mailbox: the boot CPU posts fn/arg and bumps `posted`; the AP runs fn and sets
	 * `done` = posted (fault_vector >= 0 when fn faulted) */
	volatile smp_fn fn;
	void *volatile arg;
	volatile uint32_t posted, done;
	volatile int fault_vector;
	volatile bool fault_expected;	/* a test's deliberate fault: one line, no register dump */
	volatile uint64_t fault_rip;
	unsigned faults;
	struct kjmp recovery;
	/* descriptor tables and stacks (inside the AP's area; the boot CPU keeps kernel/gdt.c's) */
	struct gdt_cpu *gdt;
	void *idt;
	uint64_t stack_top, ist_top[3];
};

#define PERCPU_STACK   0x4000ull	/* 16 KiB: the AP's own stack */
#define PERCPU_IST     0x2000ull	/* 8 KiB each for #DF, NMI, #MC */

struct percpu_layout {
	size_t gdt_off, idt_off, stack_off, ist_off[3];
	size_t guard_off[4];	/* the unmapped 4 KiB page right below the stack, then each IST */
	size_t total;		/* a multiple of 4 KiB */
};
/* Offsets inside one AP area of the struct percpu (at 0, percpu_size bytes), its struct
 * gdt_cpu (gdt_size, 16-byte aligned), the IDT (4 KiB aligned), the stack and the three IST
 * stacks (each 16-byte aligned at both ends, 4 KiB aligned at the bottom), each stack right
 * above a guard page that smp_boot.c unmaps: an overflow faults (#PF while pushing, hence #DF
 * on its own IST stack, SDM Vol. 3A 6.15 interrupt 8) instead of writing over what lies below
 * (the IDT, the stack below it). */
void percpu_layout(size_t percpu_size, size_t gdt_size, struct percpu_layout *l);

#endif
