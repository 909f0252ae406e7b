/*
 * pv_xsrc.c: the snoop / HITM / remote PEBS verdicts (see pv_xsrc.h). Which codes count is
 * read from the model's data-source table through pebs_dsrc_decode (SDM Vol. 3B table
 * 18-24; docs/hardware.md §5), never listed here.
 */
#include "loads/pv_xsrc.h"
#include "kernel/fmt.h"

#define PM(x) (x) / 10, (x) % 10	/* permille -> "I.F" percent */

unsigned pv_xsrc_min_share(enum pv_xsrc want)
{
	switch (want) {
	case PV_X_REMOTE:	/* a DRAM-sized chase over the other node's memory: as for local
				 * DRAM (pv_min_share), ~L3/ws of the lines still come from the
				 * local L3 and prefetches/LFB hits take some more */
		return 500;
	default:		/* the other core prepares each line between two loads; the
				 * handshake's own line and prefetched neighbours are the rest */
		return 500;
	}
}

static bool wanted(const struct pebs_dsrc *d, enum pv_xsrc want)
{
	bool cache = d->level != PEBS_LVL_NA && d->level != PEBS_LVL_RAM &&
		     d->level != PEBS_LVL_PMEM && d->level != PEBS_LVL_CXL &&
		     d->level != PEBS_LVL_IO && d->level != PEBS_LVL_UNCACHED;

	if (d->reserved)
		return false;
	switch (want) {
	case PV_X_SNOOP:	/* clean: Hit, or Fwd (Lion Cove's only one, 0CH; as
				 * loads/xcore_expect.c counts for load_snoop) */
		return cache && (d->snoop == PEBS_SNOOP_HIT || d->snoop == PEBS_SNOOP_FWD);
	case PV_X_HITM: return cache && d->snoop == PEBS_SNOOP_HITM;
	case PV_X_REMOTE: return d->remote == PEBS_YES;
	}
	return false;
}

unsigned pv_xsrc_codes(const struct pebs_model *m, enum pv_xsrc want, char *names, size_t n)
{
	unsigned count = 0;
	size_t at = 0;

	if (n)
		names[0] = '\0';
	if (!m)
		return 0;
	for (unsigned code = 0; code < PEBS_DSRC_CODES; code++) {
		struct pebs_dsrc d;
		size_t len = (at ? 1 : 0) + (code > 0xff ? 4 : 3);

		pebs_dsrc_decode(m, PEBS_EV_LOAD, code, &d);
		if (d.code != code || !wanted(&d, want))
			continue;
		count++;
		if (at + len < n)	/* whole names only */
			at += (size_t)fmt_snprintf(names + at, n - at, "%s%02XH", at ? " " : "",
						   code);
	}
	return count;
}

uint64_t pv_xsrc_count(const struct pebs_agg *a, enum pv_xsrc want)
{
	uint64_t c = 0;

	for (unsigned l = 0; l < PEBS_LVL_COUNT; l++) {
		struct pebs_dsrc d = { .level = (uint8_t)l };

		if (want == PV_X_REMOTE) {
			c += a->lvl[l].remote;
			continue;
		}
		d.snoop = want == PV_X_HITM ? PEBS_SNOOP_HITM : PEBS_SNOOP_HIT;
		if (wanted(&d, want))
			c += a->lvl[l].snoop[d.snoop] +
			     (want == PV_X_SNOOP ? a->lvl[l].snoop[PEBS_SNOOP_FWD] : 0);
	}
	return c;
}

const char *pv_xsrc_name(enum pv_xsrc want)
{
	switch (want) {
	case PV_X_SNOOP: return "snoop";
	case PV_X_HITM: return "hitm";
	case PV_X_REMOTE: return "remote";
	}
	return "?";
}

enum pv_result pv_xsrc(const struct pebs_agg *a, const struct pebs_model *m, enum pv_xsrc want,
		       char *d, size_t n)
{
	char codes[96];
	uint64_t t = pv_total(a), c;
	unsigned min = pv_xsrc_min_share(want), share, listed = 0;
	unsigned all = pv_xsrc_codes(m, want, codes, sizeof(codes) - 6);	/* 6: " +NNN" */
	size_t len = 0;

	if (!all) {
		fmt_snprintf(d, n, "data-source table %s has no %s code",
			     pebs_ds_table_name(m ? m->table : PEBS_DS_NONE), pv_xsrc_name(want));
		return PV_SKIP;
	}
	for (; codes[len]; len++)
		listed += codes[len] == 'H';
	if (listed < all)	/* Panther Cove's OMR codes: the rest as a count */
		fmt_snprintf(codes + len, sizeof(codes) - len, " +%u", all - listed);
	if (!t) {
		fmt_snprintf(d, n, "no records (want codes %s)", codes);
		return PV_FAIL;
	}
	c = pv_xsrc_count(a, want);
	share = (unsigned)(c * 1000 / t);
	fmt_snprintf(d, n, "%s %u.%u%% %s %u%%, of %llu (codes %s, table %s)", pv_xsrc_name(want),
		     PM(share), share >= min ? ">=" : "<", min / 10, (unsigned long long)t, codes,
		     pebs_ds_table_name(m->table));
	return share >= min ? PV_PASS : PV_FAIL;
}
