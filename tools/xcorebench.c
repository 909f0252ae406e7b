/*
 * xcorebench.c: core-to-core figures under Linux for `make bench`, next to what the kernel's
 * load_snoop / load_hitm print on the same machine (loads/xcore.h):
 *   pingpong  Chips and Cheese's CoherencyLatency method: two threads pinned to CPUs A and
 *             B take turns bumping one cache line with LOCK CMPXCHG; one hand-over (a
 *             one-way core-to-core transfer) = total time / (2 x round trips);
 *   snoop     the kernel's method: A flushes a line (CLFLUSH), B reads it, A times one load
 *             of it with RDTSC (LFENCE-ordered; the flags live on other lines);
 *   hitm      the same with B writing the line;
 *   l1        A's re-load of the line just loaded (the L1 reference).
 * TSC ticks become ns through a CLOCK_MONOTONIC calibration; the cost of an empty timed pair
 * is subtracted from each load, as the kernel does. Every wait is bounded (a pair
 * that stalls, e.g. both threads on one busy host CPU, prints "stalled" instead of hanging).
 * Usage: xcorebench [--cpus A,B] [--iters N]. Real time: a benchmark, never a test's verdict.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

#define LINE 64
#define SPIN_LIMIT 4000000000ull	/* TSC ticks (~1-2 s): a stalled wait gives up */

static struct {
	volatile uint64_t pp __attribute__((aligned(128)));
	volatile uint64_t go __attribute__((aligned(128)));
	volatile uint64_t ack __attribute__((aligned(128)));
	volatile int stalled;
	int cpu_b, mode;	/* mode: 0 ping-pong, 1 snoop, 2 hitm */
	unsigned iters;
	uint8_t *lines;
} sh;

static void pin(int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	if (sched_setaffinity(0, sizeof(s), &s)) {
		fprintf(stderr, "xcorebench: cannot pin to CPU %d\n", cpu);
		exit(2);
	}
}

static int wait_ge(volatile uint64_t *v, uint64_t want)
{
	uint64_t t0 = __rdtsc();

	while (__atomic_load_n(v, __ATOMIC_ACQUIRE) < want)
		if (sh.stalled || __rdtsc() - t0 > SPIN_LIMIT) {
			sh.stalled = 1;
			return 0;
		}
	return 1;
}

static void pingpong_turns(uint64_t first)
{
	for (uint64_t v = first; v < 2ull * sh.iters; v += 2) {
		uint64_t t0 = __rdtsc(), expect = v;

		while (!__atomic_compare_exchange_n(&sh.pp, &expect, v + 1, false,
						    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
			expect = v;
			if (sh.stalled || __rdtsc() - t0 > SPIN_LIMIT) {
				sh.stalled = 1;
				return;
			}
		}
	}
}

static void *helper(void *arg)
{
	(void)arg;
	pin(sh.cpu_b);
	if (sh.mode == 0) {
		pingpong_turns(1);
		return NULL;
	}
	for (uint64_t i = 1; i <= sh.iters; i++) {
		volatile uint64_t *l = (volatile uint64_t *)(sh.lines + (i - 1) * LINE);

		if (!wait_ge(&sh.go, i))
			return NULL;
		if (sh.mode == 1)
			(void)*l;
		else
			*l = i;
		__atomic_store_n(&sh.ack, i, __ATOMIC_RELEASE);
	}
	return NULL;
}

static uint64_t overhead(void)
{
	uint64_t best = ~0ull;

	for (int i = 0; i < 64; i++) {
		uint64_t s0, s1;

		_mm_lfence();
		s0 = __rdtsc();
		_mm_lfence();
		_mm_lfence();
		s1 = __rdtsc();
		if (s1 - s0 < best)
			best = s1 - s0;
	}
	return best;
}

static uint64_t sub(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

static int cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Run one mode between CPUs a and b; *out = ticks (ping-pong: all; else median per load). */
static int run(int a, int b, int mode, unsigned iters, uint64_t *out, uint64_t *l1)
{
	pthread_t th;
	uint64_t *x = calloc(iters, sizeof(*x)), *y = calloc(iters, sizeof(*y)), t0, ov;

	memset((void *)&sh, 0, sizeof(sh));
	sh.cpu_b = b;
	sh.mode = mode;
	sh.iters = iters;
	sh.lines = aligned_alloc(4096, (size_t)iters * LINE);
	if (!x || !y || !sh.lines || pthread_create(&th, NULL, helper, NULL))
		return -1;
	pin(a);
	ov = overhead();
	t0 = __rdtsc();
	if (mode == 0) {
		pingpong_turns(0);
		*out = __rdtsc() - t0;
	}
	for (unsigned i = 1; mode && i <= iters && !sh.stalled; i++) {
		volatile uint64_t *l = (volatile uint64_t *)(sh.lines + (i - 1) * LINE);
		uint64_t s0, s1, s2;

		_mm_clflush((const void *)l);
		_mm_mfence();
		__atomic_store_n(&sh.go, i, __ATOMIC_RELEASE);
		if (!wait_ge(&sh.ack, i))
			break;
		_mm_lfence();
		s0 = __rdtsc();
		_mm_lfence();
		(void)*l;
		_mm_lfence();
		s1 = __rdtsc();
		_mm_lfence();
		(void)*l;
		_mm_lfence();
		s2 = __rdtsc();
		x[i - 1] = sub(s1 - s0, ov);
		y[i - 1] = sub(s2 - s1, ov);
	}
	pthread_join(th, NULL);
	if (mode) {
		qsort(x, iters, sizeof(*x), cmp);
		qsort(y, iters, sizeof(*y), cmp);
		*out = x[iters / 2];
		*l1 = y[iters / 2];
	}
	free(x);
	free(y);
	free(sh.lines);
	return sh.stalled ? 1 : 0;
}

static double tsc_per_ns(void)
{
	struct timespec a, b;
	uint64_t t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &a);
	t0 = __rdtsc();
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((b.tv_sec - a.tv_sec) * 1000000000ll + (b.tv_nsec - a.tv_nsec) < 100000000);
	t1 = __rdtsc();
	return (double)(t1 - t0) / ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec));
}

int main(int argc, char **argv)
{
	int a = 0, b = 1;
	unsigned iters = 2000;
	uint64_t t, l1 = 0;
	double f;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--cpus") && i + 1 < argc && sscanf(argv[i + 1], "%d,%d", &a, &b) == 2)
			i++;
		else if (!strcmp(argv[i], "--iters") && i + 1 < argc && atoi(argv[i + 1]) > 0)
			iters = (unsigned)atoi(argv[++i]);
		else {
			fprintf(stderr, "usage: xcorebench [--cpus A,B] [--iters N]\n");
			return 2;
		}
	}
	f = tsc_per_ns();
	printf("xcorebench: CPUs %d,%d, %u iterations, TSC %.3f GHz\n", a, b, iters, f);
	if (run(a, b, 0, iters, &t, &l1) == 0)
		printf("pingpong: %.1f ns per one-way hand-over (CoherencyLatency method)\n",
		       t / f / (2.0 * iters));
	else
		printf("pingpong: stalled\n");
	for (int m = 1; m <= 2; m++) {
		if (run(a, b, m, iters, &t, &l1) == 0)
			printf("%s: median %.1f ns (%llu TSC) per load; l1 re-load %.1f ns\n",
			       m == 1 ? "snoop" : "hitm", t / f, (unsigned long long)t, l1 / f);
		else
			printf("%s: stalled\n", m == 1 ? "snoop" : "hitm");
	}
	return 0;
}
