/*
 * timing.c: the budget decision of timing.h. A brief budget buys a boot that still builds,
 * walks and times every kernel, but too few repetitions for a verdict on real hardware, so a
 * brief run SKIPs its timing verdicts with the reason. No invariant TSC (SDM Vol. 3B 18.17.1:
 * the TSC rate then follows P-state changes) means TSC ticks are no fixed unit of time.
 */
#include "loads/timing.h"

#include <stddef.h>
#include <string.h>

static const char no_invtsc[] =
	"no invariant TSC (CPUID.80000007H:EDX[8] clear): TSC ticks are not a fixed unit of time";
static const char brief_opt[] = "timing=brief: short budgets, timing not judged";

enum timing_opt timing_opt_parse(const char *s)
{
	if (!s || !*s || !strcmp(s, "auto"))
		return TIMING_AUTO;
	if (!strcmp(s, "brief"))
		return TIMING_BRIEF;
	if (!strcmp(s, "full"))
		return TIMING_FULL;
	return TIMING_OPT_BAD;
}

void timing_decide(const struct timing_facts *f, struct timing_plan *p)
{
	const char *platform = f->emulated ? f->emulated : !f->invariant_tsc ? no_invtsc : NULL;

	switch (f->opt) {
	case TIMING_BRIEF:
		p->brief = true;
		p->why = "timing=brief";
		break;
	case TIMING_FULL:
		p->brief = false;
		p->why = "timing=full";
		break;
	default:	/* auto, and a bad value (cmdline warns): the platform decides */
		p->brief = platform != NULL;
		p->why = f->emulated ? "software emulation" : platform ? "no invariant TSC"
			 : "timing judged";
		break;
	}
	p->budget_ms = p->brief ? TIMING_BRIEF_MS : TIMING_FULL_MS;
	p->unjudged = platform ? platform : p->brief ? brief_opt : NULL;
}

uint64_t timing_ws(const struct timing_plan *p, bool pebs_runs, uint64_t want, uint64_t cap)
{
	if ((p->brief || p->unjudged) && !pebs_runs && want > cap)
		return cap;
	return want;
}
