/*
 * fake_cpuid.c: a table-driven cpuid_count() for host tests of CPUID consumers. Tests fill
 * fake_cpuid[] with (leaf, subleaf, eax, ebx, ecx, edx) rows; an absent leaf reads as zeros,
 * as on a CPU whose maximum leaf is lower.
 */
#include "tests/host/fake_cpuid.h"

#include <string.h>

struct fake_cpuid_row fake_cpuid[FAKE_CPUID_ROWS];

void cpuid_count(uint32_t leaf, uint32_t subleaf, struct cpuid_regs *r)
{
	memset(r, 0, sizeof(*r));
	for (unsigned i = 0; i < FAKE_CPUID_ROWS; i++) {
		if (fake_cpuid[i].used && fake_cpuid[i].leaf == leaf &&
		    fake_cpuid[i].subleaf == subleaf) {
			*r = fake_cpuid[i].r;
			return;
		}
	}
}

void fake_cpuid_set(uint32_t leaf, uint32_t subleaf, uint32_t a, uint32_t b, uint32_t c,
		    uint32_t d)
{
	for (unsigned i = 0; i < FAKE_CPUID_ROWS; i++) {
		if (!fake_cpuid[i].used || (fake_cpuid[i].leaf == leaf &&
					    fake_cpuid[i].subleaf == subleaf)) {
			fake_cpuid[i] = (struct fake_cpuid_row){ true, leaf, subleaf, { a, b, c, d } };
			return;
		}
	}
}

void fake_cpuid_clear(void)
{
	memset(fake_cpuid, 0, sizeof(fake_cpuid));
}
