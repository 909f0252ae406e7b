/*
 * amd_zen.h: the Zen generation of an AMD core from CPUID.01H's DisplayFamily/DisplayModel
 * (AMD PPRs for families 17h, 19h, 1Ah; Linux arch/x86/kernel/cpu/amd.c bsp_init_amd, which
 * sets X86_FEATURE_ZEN1..ZEN6 from the same ranges). One row per model range, each with its
 * source; docs/ibs.md "Zen generations".
 */
#ifndef IBS_AMD_ZEN_H
#define IBS_AMD_ZEN_H

#include <stdint.h>

struct amd_zen {
	const char *name;		/* "Zen 4" */
	uint16_t family;		/* DisplayFamily */
	uint8_t model_lo, model_hi;	/* DisplayModel range, inclusive */
	const char *source;
};

/* The row for family/model, or NULL (not a Zen part, or a model no source places). */
const struct amd_zen *amd_zen_lookup(unsigned family, unsigned model);
/* Row i, NULL past the end (tests, docs). */
const struct amd_zen *amd_zen_at(unsigned i);

#endif
