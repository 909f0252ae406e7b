/*
 * smp_call_late.h: the cross-CPU calls of smp/smp.h (smp_call_start, smp_call_wait) for host
 * tests, played on the boot CPU: a call posted to CPU i runs when it is waited for, unless
 * the hostile knob `late[i]` is set (SDM Vol. 3A 9.4: nothing bounds when another processor
 * answers): then the wait's bound passes on the virtual clock (tests/model/vclock.h), the
 * wait says timeout, and the call stays out until smp_call_run_late(i) lets it run. Each test
 * defines its own smp_call_start (what posting does there) and records the call here.
 */
#ifndef STUBS_SMP_CALL_LATE_H
#define STUBS_SMP_CALL_LATE_H

#include <stdbool.h>

#include "smp/smp.h"

#define SMP_CALL_LATE_CPUS 64

struct smp_call_late {
	bool late[SMP_CALL_LATE_CPUS];
	smp_fn fn[SMP_CALL_LATE_CPUS];		/* the call still out, NULL: none */
	void *arg[SMP_CALL_LATE_CPUS];
};

extern struct smp_call_late scl;

/* Every CPU answering, no call out. */
void smp_call_late_reset(void);
/* The late CPU goes on: its call runs now and finishes. */
void smp_call_run_late(unsigned i);

#endif
