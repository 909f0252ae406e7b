/*
 * arch_rec_build.c: writes architectural-PEBS fragments byte by byte (see arch_rec_build.h;
 * offsets from docs/arch-pebs.md "Groups": basic 48 B, AUX 64 B with the data source at +40
 * and the latency word at +48, GPR 160 B with RIP at +8, XMM 16 + 256 B, LBR 48-B header with
 * the depth at +16 then 24 B per entry, counters 16-B header then 8 B per value).
 */
#include "tests/model/arch_rec_build.h"

#include <string.h>

static unsigned pop(uint32_t v)
{
	unsigned n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

static uint64_t lbr_entries(const struct arch_rec_spec *s, uint64_t groups)
{
	uint64_t code = (groups & AR_LBR_MASK) >> 40;

	return code == 3 ? s->lbr_depth : code * 8;
}

size_t arch_frag_size(const struct arch_rec_spec *s, uint64_t groups)
{
	size_t n = 16;

	if (groups & AR_BASIC)
		n += 48;
	if (groups & AR_AUX)
		n += 64;
	if (groups & AR_GPR)
		n += 160;
	if (groups & AR_XMM)
		n += 16 + 256;
	if (groups & AR_LBR_MASK)
		n += 48 + 24 * lbr_entries(s, groups);
	if (groups & AR_CNTR)
		n += 16 + 8 * (pop(s->cntr_gp) + pop(s->cntr_fixed)) + (s->metrics ? 16 : 0);
	return n;
}

static void put64(uint8_t *p, size_t off, uint64_t v)
{
	memcpy(p + off, &v, 8);
}

size_t arch_frag_write(uint8_t *out, size_t cap, const struct arch_rec_spec *s,
		       uint64_t groups, bool cont)
{
	size_t size = arch_frag_size(s, groups), o = 16;

	if (size > cap || size > 0xffff)
		return 0;
	memset(out, 0, size);
	put64(out, 0, size | AR_MODE64 | (cont ? AR_CONT : 0) | groups);
	if (groups & AR_BASIC) {
		put64(out, o + 0, s->ip);
		put64(out, o + 8, s->applicable);
		put64(out, o + 16, s->tsc);
		put64(out, o + 24, s->retire | (s->retire_valid ? 1u << 16 : 0));
		o += 48;
	}
	if (groups & AR_AUX) {
		put64(out, o + 0, s->addr);
		put64(out, o + 40, s->aux);
		put64(out, o + 48, (uint64_t)s->cache_lat << 32 | s->instr_lat);
		o += 64;
	}
	if (groups & AR_GPR) {
		put64(out, o + 8, s->gpr_ip);
		o += 160;
	}
	if (groups & AR_XMM)
		o += 16 + 256;
	if (groups & AR_LBR_MASK) {
		put64(out, o + 16, s->lbr_depth);
		o += 48 + 24 * lbr_entries(s, groups);
	}
	if (groups & AR_CNTR) {
		unsigned n = pop(s->cntr_gp) + pop(s->cntr_fixed);

		memcpy(out + o, &s->cntr_gp, 4);
		memcpy(out + o + 4, &s->cntr_fixed, 4);
		if (s->metrics)
			out[o + 8] = 3;
		for (unsigned i = 0; i < n && s->cntr_vals; i++)
			put64(out, o + 16 + 8 * i, s->cntr_vals[i]);
	}
	return size;
}
