/*
 * mp_sched.c: several CPUs on the virtual clock (see mp_sched.h). One host thread per CPU
 * and one baton (a semaphore per thread): the holder runs, every other thread sleeps in
 * sem_wait, so the model's state (vclock, the stream model) is only ever touched by one
 * thread, handed over with the happens-before of sem_post/sem_wait (POSIX.1-2017 4.12
 * "Memory Synchronization"). The choice of who runs next is the earliest clock, ties by a
 * hash of the seed and the switch count: no host timing enters it.
 */
#include "model/mp_sched.h"
#include "model/vclock.h"

#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>

static struct mp_sched *S;
static sem_t baton[MP_MAX_CPUS], all_done;

/* sem_wait, again when a signal interrupted it (POSIX sem_wait: EINTR) */
static void wait_on(sem_t *x)
{
	while (sem_wait(x) && errno == EINTR)
		;
}

static uint64_t mix(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ull;	/* splitmix64 (Steele et al.) */
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* The runnable CPU with the earliest clock; ties in a seeded order. MP_MAX_CPUS: none. */
static unsigned pick(void)
{
	unsigned best = MP_MAX_CPUS;
	uint64_t bk = 0;

	for (unsigned c = 0; c < S->n; c++) {
		const struct mp_cpu *p = &S->cpu[c];
		uint64_t k;

		if (!p->fn || p->done)
			continue;
		k = mix(S->seed ^ (S->switches << 8) ^ c);
		if (best == MP_MAX_CPUS || p->now < S->cpu[best].now ||
		    (p->now == S->cpu[best].now && k < bk))
			best = c, bk = k;
	}
	return best;
}

/* Give the baton to `to` (MP_MAX_CPUS: the run is over). */
static void hand(unsigned to)
{
	if (to == MP_MAX_CPUS) {
		sem_post(&all_done);
		return;
	}
	S->cur = to;
	vclock.now = S->cpu[to].now;
	sem_post(&baton[to]);
}

static void hook(uint64_t before, bool read)
{
	struct mp_cpu *c = &S->cpu[S->cur];
	unsigned me = S->cur, next;
	uint64_t d = vclock.now - before;

	(void)read;
	if (c->slow_pct)
		d = d * c->slow_pct / 100;
	c->now = before + d;
	if (c->stall && !c->stalled && c->now >= c->stall_at) {
		c->now += c->stall;
		c->stalled = true;
	}
	if (!read) {
		c->spends++;
		c->prev_from = c->spend_from;
		c->prev_to = c->spend_to;
		c->spend_from = before;
		c->spend_to = c->now;
	}
	vclock.now = c->now;
	if (++S->advances > S->budget) {
		fprintf(stderr, "mp_sched: more than %llu clock advances: a wait that never ends "
			"(cpu%u at %llu)\n", (unsigned long long)S->budget, me,
			(unsigned long long)c->now);
		abort();
	}
	next = pick();
	if (next == me)
		return;
	S->switches++;
	if (S->off)
		S->off(S, me);
	hand(next);
	wait_on(&baton[me]);
}

static void *cpu_thread(void *arg)
{
	unsigned me = (unsigned)(uintptr_t)arg;
	struct mp_cpu *c = &S->cpu[me];

	wait_on(&baton[me]);
	c->started = true;
	c->fn(c->arg);
	c->now = vclock.now;
	c->done = true;
	if (S->off)
		S->off(S, me);
	S->switches++;
	hand(pick());
	return NULL;
}

unsigned mp_cur(void)
{
	return S->cur;
}

void mp_run(struct mp_sched *s)
{
	pthread_t t[MP_MAX_CPUS];
	uint64_t last = 0;

	S = s;
	if (!s->budget)
		s->budget = 10000000;
	s->advances = s->switches = 0;
	sem_init(&all_done, 0, 0);
	for (unsigned c = 0; c < s->n; c++) {
		struct mp_cpu *p = &s->cpu[c];

		p->now = p->start;
		p->started = p->done = p->stalled = false;
		p->spends = p->spend_from = p->spend_to = p->prev_from = p->prev_to = 0;
		sem_init(&baton[c], 0, 0);
		if (p->fn && pthread_create(&t[c], NULL, cpu_thread, (void *)(uintptr_t)c)) {
			fprintf(stderr, "mp_sched: pthread_create failed\n");
			abort();
		}
	}
	vclock.hook = hook;
	hand(pick());
	wait_on(&all_done);
	vclock.hook = NULL;
	for (unsigned c = 0; c < s->n; c++) {
		if (s->cpu[c].fn) {
			pthread_join(t[c], NULL);
			last = s->cpu[c].now > last ? s->cpu[c].now : last;
		}
		sem_destroy(&baton[c]);
	}
	sem_destroy(&all_done);
	vclock.now = last;
	S = NULL;
}
