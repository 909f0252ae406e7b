/*
 * timing.h: whether this run can judge timing, and the budget the load kernels get (issue 21,
 * "a smoke boot that costs a smoke boot"). Pure: the facts come from kernel/cpu.c (CPUID
 * 40000000H signature, CPUID.80000007H:EDX[8] invariant TSC, SDM Vol. 3B 18.17.1) and the
 * `timing=` option; loads/kload.c and the tests ask kload_timing_*() which call this.
 */
#ifndef LOADS_TIMING_H
#define LOADS_TIMING_H

#include <stdbool.h>
#include <stdint.h>

#define TIMING_FULL_MS 60u	/* timed TSC milliseconds per kernel where timing is judged */
#define TIMING_BRIEF_MS 5u	/* where it is not: enough reps to show the kernel runs */

/* `timing=`: auto (default) | brief | full. */
enum timing_opt { TIMING_AUTO, TIMING_BRIEF, TIMING_FULL, TIMING_OPT_BAD };

struct timing_facts {
	const char *emulated;	/* software emulation: the reason text, NULL on hardware/HV */
	bool invariant_tsc;	/* CPUID.80000007H:EDX[8] */
	enum timing_opt opt;
};

struct timing_plan {
	bool brief;		/* short budgets, chains no larger than the checks need */
	unsigned budget_ms;	/* TIMING_BRIEF_MS or TIMING_FULL_MS */
	const char *unjudged;	/* why timing verdicts SKIP; NULL: they are judged */
	const char *why;	/* one phrase for the header: why brief or full */
};

/* NULL or "" is TIMING_AUTO; anything not listed is TIMING_OPT_BAD. */
enum timing_opt timing_opt_parse(const char *s);
/* The decision: timing=brief or full wins for the budget; otherwise brief exactly when timing
 * cannot be judged (software emulation, or no invariant TSC). Verdicts SKIP under emulation
 * and without an invariant TSC whatever the budget, and under a brief budget. */
void timing_decide(const struct timing_facts *f, struct timing_plan *p);

/* The working set a kernel builds: `want`, or at most `cap` where nothing would judge a
 * larger one: timing not judged or budget brief, and no PEBS step to run over the chain. */
uint64_t timing_ws(const struct timing_plan *p, bool pebs_runs, uint64_t want, uint64_t cap);

#endif
