/* fake_cpuid.h: table-driven CPUID for host tests (tests/host/fake_cpuid.c). */
#ifndef TESTS_FAKE_CPUID_H
#define TESTS_FAKE_CPUID_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/hw.h"

#define FAKE_CPUID_ROWS 64

struct fake_cpuid_row {
	bool used;
	uint32_t leaf, subleaf;
	struct cpuid_regs r;
};

extern struct fake_cpuid_row fake_cpuid[FAKE_CPUID_ROWS];
void fake_cpuid_set(uint32_t leaf, uint32_t subleaf, uint32_t a, uint32_t b, uint32_t c,
		    uint32_t d);
void fake_cpuid_clear(void);

#endif
