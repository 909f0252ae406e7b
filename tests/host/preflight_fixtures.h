/*
 * preflight_fixtures.h: what each CPUID fixture (tests/fixtures/cpuid/) must give through the
 * kernel's probes (tests/host/preflight_test.c); the rows and their sources are in
 * preflight_fixtures.c.
 */
#ifndef TESTS_PREFLIGHT_FIXTURES_H
#define TESTS_PREFLIGHT_FIXTURES_H

#include <stdint.h>

#define NO_CAP (~0ull)

struct fixture {
	const char *file;
	unsigned cpu;		/* the dump's logical CPU (a second block on hybrid parts) */
	uint64_t perf_cap;	/* input, NO_CAP: not given */
	uint64_t misc;		/* input IA32_MISC_ENABLE, 0: the dump's own line */
	uint32_t family, model, stepping;
	uint8_t core_type;
	const char *uarch;	/* the row, NULL: not in the table */
	unsigned fmt;		/* the SDM's record format for this part */
	uint64_t l1d, l2, l3;	/* l3 0: the part has none */
	const char *pebs_why, *ll_why;	/* "": usable */
};

extern const struct fixture preflight_fixtures[];
extern const unsigned preflight_nfixtures;

#endif
