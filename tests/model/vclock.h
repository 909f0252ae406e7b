/*
 * vclock.h: the virtual time-stamp counter that host tests link in place of the hardware's
 * (kernel/hw.h: rdtsc, rdtsc_ordered; SDM Vol. 3B 18.17). Time moves only when the code under
 * test reads the counter, or when a test says time passed: each read first advances the clock
 * by one step (the next scripted step if a script is loaded, else the fixed step) and returns
 * the new value. Models that depend on time (the local-APIC timer, the PIT) look at
 * vclock.now, so every run of a test sees the same numbers. A model of agents that act on their
 * own at virtual times (the APs of tests/model/ap_model.c, the CPUs of tests/model/mp_sched.c)
 * sets `hook`: it runs after each advance, so what they did by then is there to be seen.
 */
#ifndef MODEL_VCLOCK_H
#define MODEL_VCLOCK_H

#include <stdbool.h>
#include <stdint.h>

#define VCLOCK_SCRIPT_MAX 64

struct vclock {
	uint64_t now;		/* the counter's value now (what the last read returned) */
	uint64_t step;		/* ticks each read advances it by, once the script is used up */
	uint64_t reads;		/* reads so far */
	uint64_t script[VCLOCK_SCRIPT_MAX];	/* per-read steps, in order, before `step` */
	unsigned nscript, next;
	/* Called after every advance, a read's (read true) or vclock_advance's, with the value
	 * before it; it may move `now` further (what a read then returns). NULL: none. The
	 * multi-CPU scheduler (tests/model/mp_sched.c) switches CPUs here. */
	void (*hook)(uint64_t before, bool read);
};

extern struct vclock vclock;

/* Counter at `start`, `step` ticks per read, no script, read count 0, no hook. */
void vclock_reset(uint64_t start, uint64_t step);
/* The next n reads advance by steps[0..n-1] (at most VCLOCK_SCRIPT_MAX), then by `step`. */
void vclock_script(const uint64_t *steps, unsigned n);
/* Time passes without a read (a test's "wait"). */
void vclock_advance(uint64_t ticks);

#endif
