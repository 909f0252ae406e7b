/*
 * unjudged.c: why the running test's timing verdicts SKIP (see unjudged.h). The order is the
 * priority: a run that cannot judge timing at all (software emulation, no invariant TSC:
 * SDM Vol. 3B 18.17.1, timing=brief) names that reason, a test inside a judged run names
 * what happened behind its back (kernel/trust.h: an SMI, throttling, the core clock moved:
 * SDM Vol. 3B 15.2 "Effective frequency interfaces", 15.8 "Thermal Monitoring and
 * Protection"), and NULL means the verdict is judged.
 */
#include "loads/unjudged.h"
#include "kernel/trust.h"

#include <stddef.h>

const char *timing_unjudged(const struct timing_plan *p)
{
	if (p->unjudged)
		return p->unjudged;
	return trust_spoiled();
}
