/*
 * pv_xsrc.h: PEBS verdicts for the sources only another core or another node can produce
 * (issue 15): a clean cross-core snoop (SDM Vol. 3B table 18-24 code 05H on Nehalem; Linux's
 * Table A code 06H "snoop Hit"), a hit-modified snoop (06H / 07H, the XSNP_HITM sources) and
 * remote memory or a remote cache (08H, 0BH, 0DH, and Table A's 09H). The expected codes are
 * not written here: they are every code of the model's data-source table (pebs/datasrc.c,
 * pebs/datasrc_tables.c) that decodes to the wanted source, so a new table row changes the
 * verdict with no edit here. Pure, host-tested both ways (tests/host/pv_xsrc_test.c).
 */
#ifndef LOADS_PV_XSRC_H
#define LOADS_PV_XSRC_H

#include <stddef.h>

#include "loads/pebs_verdict.h"
#include "sample/aggregate.h"
#include "pebs/datasrc.h"

enum pv_xsrc {
	PV_X_SNOOP,	/* a cache level (not DRAM), snoop Hit or Fwd: another core held it
			 * clean (Lion Cove's only such code is 0CH, Fwd) */
	PV_X_HITM,	/* a cache level, snoop HitM: another core held it modified */
	PV_X_REMOTE,	/* remote: another node's DRAM or cache */
};

/* Minimum share (permille) of records from the wanted source; the reasons are in the .c. */
unsigned pv_xsrc_min_share(enum pv_xsrc want);

/*
 * The load-event codes of m's table that decode to `want` (all of 00H..1FFH, so Panther
 * Cove's and Arctic Wolf's OMR codes too), as "08H 09H 0BH 0DH" into names[n] (empty when
 * none; whole names only, as many as fit). Returns how many there are; 0 for m == NULL.
 */
unsigned pv_xsrc_codes(const struct pebs_model *m, enum pv_xsrc want, char *names, size_t n);

/* Records in `a` from the wanted source (the aggregate's snoop and remote counts). */
uint64_t pv_xsrc_count(const struct pebs_agg *a, enum pv_xsrc want);

/*
 * The verdict: PASS when the wanted source has at least pv_xsrc_min_share of the records,
 * FAIL otherwise (also with no records), SKIP when the model's table has no code for that
 * source (the reason names the table). `d` receives the detail with the codes.
 */
enum pv_result pv_xsrc(const struct pebs_agg *a, const struct pebs_model *m, enum pv_xsrc want,
		       char *d, size_t n);

/* "snoop", "hitm", "remote": the subtest name is "pebs_<this>". */
const char *pv_xsrc_name(enum pv_xsrc want);

#endif
