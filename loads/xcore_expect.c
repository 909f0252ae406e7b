/*
 * xcore_expect.c: which load-latency data-source codes a cross-core kernel should produce,
 * read from the decoder's own tables (pebs/datasrc_tables.c: SDM Vol. 3B table 18-24 for
 * Nehalem/Westmere, the ld_* tables of later models with their XSNP_HIT / XSNP_HITM rows, the
 * Gracemont/Crestmont/Lion Cove tables). A code qualifies when its row is not reserved, is
 * not marked remote, is served by a cache (L3 or "any cache", not DRAM, L4 or PMEM: the snoop
 * result of a memory row is about other copies, not where the data came from), and its snoop
 * result fits the kernel: load_snoop a clean hit (Hit, or Fwd: Intel perfmon
 * MEM_LOAD_L3_HIT_RETIRED.XSNP_FWD, "snoop hit ... clean line ... in another on-pkg core which
 * forwarded the data"), load_hitm a HitM. The scan covers every layout's code field
 * (pebs/datasrc.h PEBS_DSRC_CODES: Panther Cove's OMR codes lie above FFH). Pure C.
 */
#include "loads/xcore.h"
#include "kernel/fmt.h"

#include <stddef.h>

#define TEXT_CODES 4	/* codes listed per table in the text, then "+N" */

bool xcore_code_fits(enum xcore_kind kind, const struct pebs_dsrc *d)
{
	if (d->remote == PEBS_YES || (d->level != PEBS_LVL_L3 && d->level != PEBS_LVL_ANY_CACHE))
		return false;
	if (kind == XCORE_SNOOP)
		return d->snoop == PEBS_SNOOP_HIT || d->snoop == PEBS_SNOOP_FWD;
	return kind == XCORE_HITM && d->snoop == PEBS_SNOOP_HITM;
}

unsigned xcore_expected_codes(const struct pebs_model *m, enum xcore_kind kind,
			      uint16_t *codes, unsigned max)
{
	unsigned n = 0;

	if (!m)
		return 0;
	for (unsigned c = 0; c < PEBS_DSRC_CODES && n < max; c++) {
		struct pebs_dsrc d;

		pebs_dsrc_decode(m, PEBS_EV_LOAD, c, &d);
		if (d.code != c || !d.has_snoop || d.reserved)
			continue;	/* past the layout's code field, or no such row */
		if (xcore_code_fits(kind, &d))
			codes[n++] = (uint16_t)c;
	}
	return n;
}

void xcore_expected_text(enum xcore_kind kind, char *b, unsigned n)
{
	bool seen[PEBS_DS_TABLE_COUNT] = { false };
	unsigned o = 0;
	const struct pebs_model *m;

	b[0] = '\0';
	for (unsigned i = 0; (m = pebs_model_at(i)) != NULL && o + 1 < n; i++) {
		uint16_t codes[64];	/* Panther Cove's OMR codes: tens per kind */
		unsigned k;

		if (m->table == PEBS_DS_NONE || m->table >= PEBS_DS_TABLE_COUNT || seen[m->table])
			continue;
		seen[m->table] = true;
		k = xcore_expected_codes(m, kind, codes, 64);
		o += (unsigned)fmt_snprintf(b + o, n - o, "%s%s", o ? "; " : "",
					    pebs_ds_table_name(m->table));
		for (unsigned j = 0; j < k && j < TEXT_CODES && o + 1 < n; j++)
			o += (unsigned)fmt_snprintf(b + o, n - o, " %02XH", codes[j]);
		if (k > TEXT_CODES && o + 1 < n)
			o += (unsigned)fmt_snprintf(b + o, n - o, " +%u", k - TEXT_CODES);
		if (!k && o + 1 < n)
			o += (unsigned)fmt_snprintf(b + o, n - o, " none");
	}
}

int xcore_pebs_verdict(const struct pebs_agg *a, enum xcore_kind kind, char *d, unsigned n)
{
	static const uint8_t lv[] = { PEBS_LVL_L3, PEBS_LVL_ANY_CACHE };
	uint64_t hit = 0, hitm = 0, all = 0, want;
	unsigned pct = kind == XCORE_HITM ? 50 : 25;

	for (unsigned i = 0; i < sizeof(lv); i++) {
		const struct pebs_agg_level *l = &a->lvl[lv[i]];

		hit += (uint64_t)l->snoop[PEBS_SNOOP_HIT] + l->snoop[PEBS_SNOOP_FWD];
		hitm += l->snoop[PEBS_SNOOP_HITM];
		for (unsigned k = 0; k < PEBS_SNOOP_COUNT; k++)
			all += l->snoop[k];
	}
	want = kind == XCORE_HITM ? hitm : kind == XCORE_SNOOP ? hit : 0;
	fmt_snprintf(d, n, "%llu of %llu records from another core's cache are %s (want >= %u%%, "
		     ">= %u records); Hit/Fwd %llu, HitM %llu; %llu records in all",
		     (unsigned long long)want, (unsigned long long)all,
		     kind == XCORE_HITM ? "HitM" : "Hit or Fwd", pct, XCORE_PEBS_MIN,
		     (unsigned long long)hit, (unsigned long long)hitm,
		     (unsigned long long)a->records);
	if (all < XCORE_PEBS_MIN)
		return -1;
	return want >= XCORE_PEBS_MIN && want * 100 >= all * pct;
}
