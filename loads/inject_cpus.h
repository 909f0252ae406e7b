/*
 * inject_cpus.h: load_loaded's injector CPUs (ktests/load_loaded.c), each running one
 * inject_job (loads/inject.h) through a cross-CPU call (smp/smp.h smp_call_start /
 * smp_call_wait; SDM Vol. 3A 9.4, the APs). Every wait is bounded once for the whole group,
 * not once per CPU: a CPU that stops answering costs the group one bound, never one bound per
 * silent CPU (with 511 injectors a per-CPU bound is hours). While they may run, the group's
 * stop is registered with the runner (kernel/ktap_undo.h): a test abandoned by the watchdog
 * or an exception stops its injectors before its memory (their buffers) is released.
 */
#ifndef LOADS_INJECT_CPUS_H
#define LOADS_INJECT_CPUS_H

#include <stdbool.h>
#include <stdint.h>

#include "loads/inject.h"

struct inject_cpu {
	unsigned cpu;
	struct inject_job job;
	int call;		/* 0 while its call is out; then smp_call_wait's result */
};

struct inject_group {
	struct inject_cpu *inj;
	unsigned n;
	uint32_t start_ms;	/* all running by then, counted from the first start */
	uint32_t step_ms;	/* each job stops by itself after this long (its bound_ticks) */
};

/* Every injector posted at `delay`, then waited for until running (start_ms in all); true
 * when all are running. The group's undo is registered from here until inject_cpus_done. */
bool inject_cpus_start(struct inject_group *g, uint64_t delay);
/* Every injector told to stop, then waited for (start_ms + step_ms in all); true when every
 * one answered and counted its stop. */
bool inject_cpus_stop(struct inject_group *g);
/* The test is done with the group: its undo is dropped (after the last stop). */
void inject_cpus_done(struct inject_group *g);

#endif
