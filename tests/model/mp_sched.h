/*
 * mp_sched.h: several CPUs on the virtual clock (tests/model/vclock.c), deterministic. Each
 * modelled CPU is a host thread with its own TSC; exactly one runs at a time, and at every
 * advance of the clock (a read, or a model that spends time through vclock_advance) the one
 * whose clock is earliest runs next (ties in a seeded order). So a store a CPU makes at its
 * time t is seen by every load another CPU makes at its time >= t and by none before: the
 * order of a shared-memory machine whose CPUs run side by side (SDM Vol. 3A 9.2.2: stores
 * become visible in program order, loads are not reordered with other loads), with time
 * that depends only on the knobs and the seed, never on the host's scheduler.
 * Knobs per CPU: when it starts, a slower clock (every tick it spends costs slow_pct %), one
 * stall (an SMI: `stall` ticks once its clock passes stall_at), or never starting at all.
 * A run is bounded: more than `budget` advances in all and it aborts with a message (a wait
 * that never ends), never a hang.
 */
#ifndef MODEL_MP_SCHED_H
#define MODEL_MP_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#define MP_MAX_CPUS 8

struct mp_cpu {
	/* knobs */
	void (*fn)(void *arg);	/* what the CPU runs; NULL: it never starts */
	void *arg;
	uint64_t start;		/* its clock when it starts */
	unsigned slow_pct;	/* each tick it spends costs slow_pct / 100 ticks (0: 100) */
	uint64_t stall_at, stall;	/* once its clock reaches stall_at: `stall` ticks more */
	/* what happened */
	uint64_t now;		/* its clock; when done: the time fn returned */
	uint64_t spend_from, spend_to;	/* its last vclock_advance (a stream call): from, to */
	uint64_t prev_from, prev_to;	/* the one before it */
	uint64_t spends;	/* its vclock_advance calls */
	bool started, done, stalled;
};

struct mp_sched {
	unsigned n;			/* CPUs cpu[0..n-1] */
	struct mp_cpu cpu[MP_MAX_CPUS];
	uint64_t seed;			/* the order among CPUs whose clocks are equal */
	uint64_t budget;		/* advances in all; more: abort (0: 10^7) */
	/* called, on its own thread, when CPU `c` stops running (switched out, or done) */
	void (*off)(struct mp_sched *s, unsigned c);
	void *ctx;
	/* state */
	unsigned cur;
	uint64_t advances, switches;
};

/* Run every CPU that has a fn to its end; vclock (reset by the caller) is the running CPU's
 * clock meanwhile and, after, the latest clock of all. The caller's thread waits. */
void mp_run(struct mp_sched *s);
/* The CPU running now (inside a fn), for models that keep per-CPU state. */
unsigned mp_cur(void);

#endif
