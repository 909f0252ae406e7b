/*
 * alike.h: when a level times like the level below it (within ALIKE_PCT), the step verdict
 * names the likely cause from what the kernel can read (issue 28): the memory type in force
 * for the buffer (MTRRs and PAT, SDM Vol. 3A ch. 12, kernel/memtype.h), CR0.CD/NW, or a
 * platform that is not the hardware it claims (unknown MSRs that do not #GP,
 * kernel/msr_platform.h; a hypervisor). alike.c is pure; kalike.c gathers the facts.
 */
#ifndef LOADS_ALIKE_H
#define LOADS_ALIKE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel/memtype.h"

#define ALIKE_PCT 5u	/* "alike": within 5% of the slower of the two */

struct alike_facts {
	bool have_mt;		/* the buffer's mapping was found and the registers read */
	struct memtype_of mt;
	uint64_t pa;		/* the buffer's physical address */
	int mt_fault;		/* a memory-type register read faulted: its vector */
	const char *swallowed;	/* msr_platform_swallows(), or NULL */
	const char *emu_hint;	/* trust_emulation_hint(), or NULL */
	const char *hv;		/* cpu_hv_name(): "" on bare metal */
};

/* a_x100 and b_x100 (ns x100) within ALIKE_PCT of the larger. */
bool levels_alike(uint64_t a_x100, uint64_t b_x100);
/* The cause into b; true when the verdict should SKIP (the platform, not this machine's
 * caches, decided the timing), false when it stays a FAIL that names the cause. */
bool alike_cause(const struct alike_facts *f, char *b, size_t n);

/* kalike.c: the facts for the buffer at base (this CPU's registers) and the cause. */
bool kload_alike_cause(const void *base, char *b, size_t n);

#endif
