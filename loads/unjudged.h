/*
 * unjudged.h: why the running test's timing verdicts SKIP, the one decision behind
 * loads/kload.h kload_timing_unjudgeable. Pure: the run's reason from its timing plan
 * (loads/timing.h: software emulation, no invariant TSC (CPUID.80000007H:EDX[8], SDM Vol. 3B
 * 18.17.1), timing=brief), and the running test's from kernel/trust.h trust_spoiled (SMIs
 * counted by MSR_SMI_COUNT, throttling logged in IA32_THERM_STATUS /
 * IA32_PACKAGE_THERM_STATUS, the effective clock IA32_APERF / IA32_MPERF moved; SDM Vol. 3B
 * 15.2, 15.8), both read through kernel/hw.h, so host tests drive it over the platform model.
 */
#ifndef LOADS_UNJUDGED_H
#define LOADS_UNJUDGED_H

#include "loads/timing.h"

/* The reason timing is not judged, or NULL where it is: the run's reason (p->unjudged) wins
 * and the trust signals are then not read; else what spoiled the running test, if anything. */
const char *timing_unjudged(const struct timing_plan *p);

#endif
