/*
 * amd_zen.c: Zen generations by DisplayFamily/DisplayModel (see amd_zen.h). The ranges are
 * Linux arch/x86/kernel/cpu/amd.c bsp_init_amd() as in v6.12.117 (X86_FEATURE_ZEN1..ZEN5)
 * and the Zen 6 patches after it; the family of each range is the one its AMD PPR covers
 * (PPR 17h: Zen, Zen+, Zen 2; PPR 19h: Zen 3, Zen 4; PPR 1Ah: Zen 5, Zen 6). The first row
 * that matches wins, so narrower ranges come first.
 */
#include "ibs/amd_zen.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define V612 "Linux v6.12.117 amd.c bsp_init_amd"
#define ZEN6 "Linux amd.c bsp_init_amd X86_FEATURE_ZEN6 (2025-2026 patches)"

static const struct amd_zen zen[] = {
	{ .name = "Zen 1", .family = 0x17, .model_lo = 0x00, .model_hi = 0x2f,
	  .source = V612 " (ZEN1); PPR 17h M01h (Zen; Zen+ parts are ZEN1 too)" },
	{ .name = "Zen 1", .family = 0x17, .model_lo = 0x50, .model_hi = 0x5f,
	  .source = V612 " (ZEN1)" },
	{ .name = "Zen 2", .family = 0x17, .model_lo = 0x30, .model_hi = 0x4f,
	  .source = V612 " (ZEN2); PPR 17h M31h (Rome)" },
	{ .name = "Zen 2", .family = 0x17, .model_lo = 0x60, .model_hi = 0x7f,
	  .source = V612 " (ZEN2); PPR 17h M60h/M71h" },
	{ .name = "Zen 2", .family = 0x17, .model_lo = 0x90, .model_hi = 0x91,
	  .source = V612 " (ZEN2)" },
	{ .name = "Zen 2", .family = 0x17, .model_lo = 0xa0, .model_hi = 0xaf,
	  .source = V612 " (ZEN2)" },
	{ .name = "Zen 3", .family = 0x19, .model_lo = 0x00, .model_hi = 0x0f,
	  .source = V612 " (ZEN3); PPR 19h M01h (Milan)" },
	{ .name = "Zen 3", .family = 0x19, .model_lo = 0x20, .model_hi = 0x5f,
	  .source = V612 " (ZEN3); PPR 19h M21h (Vermeer)/M50h" },
	{ .name = "Zen 4", .family = 0x19, .model_lo = 0x10, .model_hi = 0x1f,
	  .source = V612 " (ZEN4); PPR 19h M11h (Genoa)" },
	{ .name = "Zen 4", .family = 0x19, .model_lo = 0x60, .model_hi = 0xaf,
	  .source = V612 " (ZEN4); PPR 19h M61h (Raphael)/M70h/MA0h" },
	{ .name = "Zen 5", .family = 0x1a, .model_lo = 0x00, .model_hi = 0x2f,
	  .source = V612 " (ZEN5); PPR 1Ah M02h (Turin)" },
	{ .name = "Zen 5", .family = 0x1a, .model_lo = 0x40, .model_hi = 0x4f,
	  .source = V612 " (ZEN5)" },
	{ .name = "Zen 5", .family = 0x1a, .model_lo = 0x60, .model_hi = 0x7f,
	  .source = V612 " (ZEN5)" },
	{ .name = "Zen 5", .family = 0x1a, .model_lo = 0xd0, .model_hi = 0xd7,
	  .source = V612 " (ZEN5); a 2026 patch moves 0xd0 to ZEN6, not followed yet" },
	{ .name = "Zen 6", .family = 0x1a, .model_lo = 0x50, .model_hi = 0x5f,
	  .source = ZEN6 },
	{ .name = "Zen 6", .family = 0x1a, .model_lo = 0x80, .model_hi = 0xaf,
	  .source = ZEN6 " (0x80-0x8f added by the range fix)" },
	{ .name = "Zen 6", .family = 0x1a, .model_lo = 0xc0, .model_hi = 0xef,
	  .source = ZEN6 " (0xd8-0xef: the 2026 patch \"Family 0x1a model 0xd0, 0xe0\")" },
};

const struct amd_zen *amd_zen_lookup(unsigned family, unsigned model)
{
	for (unsigned i = 0; i < ARRAY_SIZE(zen); i++)
		if (zen[i].family == family && model >= zen[i].model_lo &&
		    model <= zen[i].model_hi)
			return &zen[i];
	return 0;
}

const struct amd_zen *amd_zen_at(unsigned i)
{
	return i < ARRAY_SIZE(zen) ? &zen[i] : 0;
}
