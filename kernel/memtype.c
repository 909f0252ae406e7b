/*
 * memtype.c: memory types from MTRRs, the PAT and CR0 (see memtype.h). SDM Vol. 3A ch. 12
 * "Memory Cache Control": 12.11.2.1 IA32_MTRR_DEF_TYPE (E clear: every address UC; FE clear:
 * the fixed ranges are off), 12.11.2.2 fixed ranges (below 1 MiB), 12.11.2.3 variable ranges
 * (a match is (pa & PhysMask) == (PhysBase & PhysMask), PhysMask's V[11] enabling it),
 * 12.11.4.1 "MTRR Precedences" (several matches: UC wins, WT over WB, otherwise undefined),
 * 12.12.3 the PAT index, 12.5.2.2 Table 12-7 the effective type, 12.5.1 Table 12-5 CR0.CD.
 */
#include "kernel/memtype.h"
#include "kernel/fmt.h"

const char *mem_type_name(unsigned t)
{
	switch (t) {
	case MT_UC: return "UC";
	case MT_WC: return "WC";
	case MT_WT: return "WT";
	case MT_WP: return "WP";
	case MT_WB: return "WB";
	case MT_UCM: return "UC-";
	case MT_UNDEF: return "undefined";
	default: return "reserved";
	}
}

/* The fixed-range MTRRs, in the order of memtype_regs.fixed (SDM Vol. 3A 12.11.2.2): each
 * holds eight one-byte types for eight consecutive ranges of `unit` bytes from `base`. */
static const struct { uint32_t base, unit; } fixed_ranges[MTRR_FIXED_N] = {
	{ .base = 0x00000, .unit = 0x10000 },	/* IA32_MTRR_FIX64K_00000 0x250 */
	{ .base = 0x80000, .unit = 0x4000 },	/* IA32_MTRR_FIX16K_80000 0x258 */
	{ .base = 0xa0000, .unit = 0x4000 },	/* IA32_MTRR_FIX16K_A0000 0x259 */
	{ .base = 0xc0000, .unit = 0x1000 },	/* IA32_MTRR_FIX4K_C0000 0x268 ... */
	{ .base = 0xc8000, .unit = 0x1000 },
	{ .base = 0xd0000, .unit = 0x1000 },
	{ .base = 0xd8000, .unit = 0x1000 },
	{ .base = 0xe0000, .unit = 0x1000 },
	{ .base = 0xe8000, .unit = 0x1000 },
	{ .base = 0xf0000, .unit = 0x1000 },
	{ .base = 0xf8000, .unit = 0x1000 },	/* ... IA32_MTRR_FIX4K_F8000 0x26f */
};

uint8_t mtrr_type_of(const struct memtype_regs *r, uint64_t pa, char *src, size_t n)
{
	unsigned bits = r->phys_bits >= 36 && r->phys_bits <= 52 ? r->phys_bits : 36;
	uint64_t addr_mask = ((1ull << bits) - 1) & ~0xfffull;
	unsigned vcnt = (unsigned)(r->cap & 0xff), hits = 0, first = 0;
	uint8_t t = 0;
	bool same = true, wt = false, wb = false, uc = false, other = false;

	if (!r->have_mtrr) {
		fmt_snprintf(src, n, "no MTRRs (CPUID.01H:EDX[12]=0)");
		return MT_WB;	/* nothing restricts the PAT: Table 12-7's WB row */
	}
	if (!(r->def_type & MTRR_DEF_E)) {
		fmt_snprintf(src, n, "MTRRs disabled (IA32_MTRR_DEF_TYPE.E=0)");
		return MT_UC;
	}
	if (pa < 0x100000 && (r->def_type & MTRR_DEF_FE) && (r->cap & MTRR_CAP_FIX)) {
		for (unsigned i = MTRR_FIXED_N; i-- > 0;)
			if (pa >= fixed_ranges[i].base) {
				unsigned k = (unsigned)((pa - fixed_ranges[i].base) /
							fixed_ranges[i].unit);

				fmt_snprintf(src, n, "fixed range 0x%x", fixed_ranges[i].base);
				return (uint8_t)(r->fixed[i] >> (8 * (k < 8 ? k : 7)));
			}
	}
	if (vcnt > MTRR_VAR_MAX)
		vcnt = MTRR_VAR_MAX;
	for (unsigned i = 0; i < vcnt; i++) {
		uint64_t m = r->mask[i] & addr_mask;

		if (!(r->mask[i] & MTRR_MASK_VALID) || (pa & m) != (r->base[i] & m))
			continue;
		if (hits++ && (uint8_t)r->base[i] != t)
			same = false;
		else if (hits == 1)
			first = i;
		t = (uint8_t)r->base[i];
		uc |= t == MT_UC;
		wt |= t == MT_WT;
		wb |= t == MT_WB;
		other |= t != MT_UC && t != MT_WT && t != MT_WB;
	}
	if (!hits) {
		fmt_snprintf(src, n, "default type");
		return (uint8_t)r->def_type;
	}
	if (hits == 1) {
		fmt_snprintf(src, n, "variable range %u", first);
		return t;
	}
	fmt_snprintf(src, n, "%u variable ranges overlap", hits);
	if (same)
		return t;
	if (uc)
		return MT_UC;
	return wt && wb && !other ? MT_WT : MT_UNDEF;
}

unsigned pat_index_of(uint64_t entry, uint64_t page_size)
{
	unsigned pat = (unsigned)((entry >> (page_size > 4096 ? 12 : 7)) & 1);

	return pat << 2 | (unsigned)((entry >> 4) & 1) << 1 | (unsigned)((entry >> 3) & 1);
}

/* Table 12-7, rows by MTRR type, columns UC, UC-, WC, WT, WB, WP of the PAT. */
static const struct { uint8_t mtrr; uint8_t eff[6]; } table_12_7[] = {
	{ .mtrr = MT_UC, .eff = { MT_UC, MT_UC, MT_WC, MT_UC, MT_UC, MT_UC } },
	{ .mtrr = MT_WC, .eff = { MT_UC, MT_WC, MT_WC, MT_UC, MT_WC, MT_UC } },
	{ .mtrr = MT_WT, .eff = { MT_UC, MT_UC, MT_WC, MT_WT, MT_WT, MT_WP } },
	{ .mtrr = MT_WB, .eff = { MT_UC, MT_UC, MT_WC, MT_WT, MT_WB, MT_WP } },
	{ .mtrr = MT_WP, .eff = { MT_UC, MT_WC, MT_WC, MT_WT, MT_WP, MT_WP } },
};

uint8_t mem_type_effective(uint8_t mtrr, uint8_t pat)
{
	static const uint8_t col[8] = { [MT_UC] = 0, [MT_UCM] = 1, [MT_WC] = 2, [MT_WT] = 3,
					[MT_WB] = 4, [MT_WP] = 5, [2] = 0xff, [3] = 0xff };

	if (pat >= 8 || col[pat] == 0xff)
		return MT_UNDEF;
	for (unsigned i = 0; i < sizeof(table_12_7) / sizeof(table_12_7[0]); i++)
		if (table_12_7[i].mtrr == mtrr)
			return table_12_7[i].eff[col[pat]];
	return MT_UNDEF;
}

void memtype_decide(const struct memtype_regs *r, uint64_t pa, uint64_t entry,
		    uint64_t page_size, struct memtype_of *o)
{
	o->mtrr = mtrr_type_of(r, pa, o->mtrr_src, sizeof(o->mtrr_src));
	o->pat_index = pat_index_of(entry, page_size);
	/* without a PAT, PCD and PWT pick UC, UC-, WT or WB as entries 0-3 of the power-up
	 * value (SDM 12.12.4 "Programming the PAT", Table 12-12) */
	o->pat = (uint8_t)((r->have_pat ? r->pat : 0x0007040600070406ull) >>
			   (8 * o->pat_index)) & 7;
	o->eff = mem_type_effective(o->mtrr, o->pat);
	o->cd = r->cr0 & CR0_CD;
	o->nw = r->cr0 & CR0_NW;
	if (o->cd)	/* Table 12-5: no-fill cache mode; new lines are not cached */
		o->eff = MT_UC;
}

void memtype_describe(const struct memtype_of *o, char *b, size_t n)
{
	if (o->cd)
		fmt_snprintf(b, n, "UC: CR0.CD=1%s (caches off, SDM Table 12-5)",
			     o->nw ? " NW=1" : "");
	else
		fmt_snprintf(b, n, "%s (MTRR %s %s, PAT %u %s)", mem_type_name(o->eff),
			     mem_type_name(o->mtrr), o->mtrr_src, o->pat_index,
			     mem_type_name(o->pat));
}
