/*
 * plan.c: working sets per level and sweep sizes (see plan.h for the rules and sources).
 */
#include "loads/plan.h"

#include <stddef.h>

const unsigned load_step_margin_pct[LOAD_NLEVELS] = {
	[LOAD_L1] = 0,
	[LOAD_L2] = 150,
	[LOAD_L3] = 150,
	[LOAD_DRAM] = 200,
};

const char *load_level_name(enum load_level l)
{
	static const char *const n[LOAD_NLEVELS] = { "L1", "L2", "L3", "DRAM" };

	return l < LOAD_NLEVELS ? n[l] : "?";
}

static uint64_t page_round(uint64_t x)
{
	x &= ~0xfffull;
	return x ? x : 0x1000;
}

uint64_t load_ws(enum load_level l, const struct cache_geometry *g)
{
	uint64_t l1 = g->l1d.size, l2 = g->l2.size, l3 = g->l3.size, ws;

	switch (l) {
	case LOAD_L1:
		return page_round(l1 / 2);
	case LOAD_L2:
		ws = l2 / 4 > 2 * l1 ? l2 / 4 : 2 * l1;
		if (ws > l2 / 2)	/* small L2: halfway between the two levels */
			ws = (l1 + l2) / 2;
		return page_round(ws);
	case LOAD_L3:
		ws = 4 * l2;
		if (ws > l3 / 2)
			ws = 2 * l2 > l3 / 2 ? (l2 + l3) / 2 : l3 / 2;
		return page_round(ws);
	case LOAD_DRAM:
		ws = 8 * l3;
		return page_round(ws < LOAD_DRAM_MIN ? LOAD_DRAM_MIN : ws);
	default:
		return 0;
	}
}

bool load_step_ok(uint64_t lower_x100, uint64_t upper_x100, unsigned margin_pct)
{
	return upper_x100 * 100 >= lower_x100 * margin_pct;
}

/* 2^(k/16) for k = 0..15, x65536 (exact to the last bit shown). */
static const uint32_t root2_16[16] = {
	65536, 68438, 71468, 74632, 77936, 81386, 84990, 88752,
	92682, 96785, 101070, 105545, 110218, 115098, 120194, 125515,
};

unsigned load_sweep_sizes(uint64_t lo, uint64_t hi, unsigned ppo, uint64_t *out, unsigned max)
{
	unsigned n = 0, step;

	if (!ppo || ppo > 16 || !lo || lo > hi)
		return 0;
	step = 16 / ppo;		/* ppo 1, 2, 4, 8, 16 are exact; others round down */
	for (uint64_t oct = lo; oct <= hi && n < max; oct *= 2) {
		for (unsigned k = 0; k < 16 && n < max; k += step) {
			uint64_t s = (oct * root2_16[k] >> 16) & ~0x3full;

			if (s > hi)
				break;
			if (n && s <= out[n - 1])
				continue;
			out[n++] = s;
		}
	}
	return n;
}
