/*
 * cpuid_dump.h: a saved CPUID dump, parsed: the raw output of the `cpuid -r` tool
 * ("CPU n:" then "   0xLEAF 0xSUB: eax=0x... ebx=0x... ecx=0x... edx=0x...") and the text
 * of the public InstLatx64 dumps ("CPU#nnn ..." then "CPUID LEAF: EAX-EBX-ECX-EDX [SL nn]",
 * and "MSR ADDR: HHHH-HHHH-HHHH-HHHH" lines). Pure: text in, table out; a malformed or cut
 * record line is an error naming the line. Lookup follows CPUID itself (SDM Vol. 2A, CPUID):
 * a leaf or subleaf the dump does not list reads as zeros.
 */
#ifndef TOOLS_CPUID_DUMP_H
#define TOOLS_CPUID_DUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/hw.h"

struct cpuid_dump_leaf {
	unsigned cpu;
	uint32_t leaf, subleaf;
	struct cpuid_regs r;
};

struct cpuid_dump_msr {
	unsigned cpu;
	uint32_t msr;
	uint64_t value;
};

struct cpuid_dump {
	struct cpuid_dump_leaf *leaves;
	size_t nleaves, cap_leaves;
	struct cpuid_dump_msr *msrs;
	size_t nmsrs, cap_msrs;
	unsigned cpus[256];	/* CPU numbers in the order their blocks appear */
	unsigned ncpus;
};

/* Parse `text`; 0, or -1 with "line N: what" in err. The dump owns heap memory. */
int cpuid_dump_parse(struct cpuid_dump *d, const char *text, char *err, size_t errlen);
void cpuid_dump_free(struct cpuid_dump *d);

/* CPUID of one CPU as the dump says (zeros when not listed). */
void cpuid_dump_get(const struct cpuid_dump *d, unsigned cpu, uint32_t leaf, uint32_t subleaf,
		    struct cpuid_regs *r);
/* An MSR line of that CPU: true and *v, or false. */
bool cpuid_dump_msr(const struct cpuid_dump *d, unsigned cpu, uint32_t msr, uint64_t *v);

#endif
