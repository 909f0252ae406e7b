/*
 * bw_threads_test.c: loads/bw_sync.c on real host threads running at once, with the
 * kernel's own bandwidth assembly (kernel/hw_stream.c) and real atomics: the protocol as
 * tools/loadbench runs it. Only outcomes no scheduling can change are asserted (the
 * interleavings themselves are tests/host/bw_sync_test.c's, on the virtual clock):
 *   - every worker gets ready, hears go, runs at least one pass, stops, and its counts are
 *     whole passes whose loads read what was stored; the lead returns 0;
 *   - a worker counted but never started: the lead gives up at its bound and nobody runs a
 *     pass, whichever thread ran first;
 *   - a worker whose buffer is too small: BAD, counted ready, the others run.
 * The clock is a shared counter (one tick per read on any thread), not the host's TSC; the
 * bound on a wait that must not end is 2^34 ticks (minutes of spinning: far beyond any
 * scheduling delay, and still an end, never a hang).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <pthread.h>
#include <cmocka.h>

#include "kernel/hw.h"
#include "loads/bw.h"

#define NT 3			/* threads: the lead and 2 workers */
#define WS 65536ull
#define ROUNDS 2
#define FOREVER (1ull << 34)

static uint64_t clk;

uint64_t rdtsc(void)
{
	return __atomic_add_fetch(&clk, 1, __ATOMIC_SEQ_CST);
}

uint64_t rdtsc_ordered(void)
{
	return rdtsc();
}

struct thr {
	pthread_t t;
	struct bw_worker w;
	struct bw_sync *s;
};

static void *worker(void *arg)
{
	struct thr *t = arg;

	bw_worker_run(&t->w, t->s);
	return NULL;
}

/* n threads (thr[0] leads), `started` of them started, thread `bad` (n: none) with a
 * buffer too small for a pass; the lead told others = n - 1. */
static int run(struct thr *thr, unsigned n, unsigned started, unsigned bad, struct bw_sync *s,
	       uint64_t bound, enum bw_mode m, uint8_t **buf)
{
	int r;

	*s = (struct bw_sync){ .wait_ticks = bound };
	for (unsigned i = 0; i < n; i++)
		thr[i] = (struct thr){ .w = { .mode = m, .buf = buf[i], .ws = i == bad ? 100 : WS },
				       .s = s };
	for (unsigned i = 1; i < started; i++)
		assert_int_equal(pthread_create(&thr[i].t, NULL, worker, &thr[i]), 0);
	r = bw_lead_run(&thr[0].w, s, n - 1, 2000);
	for (unsigned i = 1; i < started; i++)
		pthread_join(thr[i].t, NULL);
	return r;
}

static uint8_t *bufs[NT];

static int setup(void **state)
{
	(void)state;
	for (unsigned i = 0; i < NT; i++) {
		bufs[i] = aligned_alloc(4096, WS);
		if (!bufs[i])
			return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	for (unsigned i = 0; i < NT; i++)
		free(bufs[i]);
	return 0;
}

static void test_all_run(void **state)
{
	static struct bw_sync s;
	struct thr thr[NT];

	(void)state;
	for (unsigned k = 0; k < ROUNDS * BW_NMODES; k++) {
		enum bw_mode m = (enum bw_mode)(k % BW_NMODES);

		assert_int_equal(run(thr, NT, NT, NT, &s, FOREVER, m, bufs), 0);
		assert_int_equal(s.ready, NT - 1);
		for (unsigned i = 0; i < NT; i++) {
			const struct bw_worker *w = &thr[i].w;

			assert_int_equal(w->state, BW_W_DONE);
			assert_true(w->sum_ok);
			assert_true(w->passes >= 1);
			assert_true(w->ticks >= 1);
			assert_int_equal(w->bytes, w->passes * (w->lay.rd + w->lay.wr));
		}
	}
}

static void test_one_never_starts(void **state)
{
	static struct bw_sync s;
	struct thr thr[NT];

	(void)state;
	for (unsigned k = 0; k < ROUNDS; k++) {
		assert_int_equal(run(thr, NT, NT - 1, NT, &s, 100000, BW_READ, bufs), -1);
		assert_true(s.ready <= NT - 2);
		for (unsigned i = 0; i < NT - 1; i++) {
			assert_int_equal(thr[i].w.state, BW_W_NO_GO);
			assert_int_equal(thr[i].w.passes, 0);
		}
	}
}

static void test_bad_worker(void **state)
{
	static struct bw_sync s;
	struct thr thr[NT];

	(void)state;
	for (unsigned k = 0; k < ROUNDS; k++) {
		assert_int_equal(run(thr, NT, NT, 2, &s, FOREVER, BW_MIX2, bufs), 0);
		for (unsigned i = 0; i < NT; i++)
			assert_int_equal(thr[i].w.state, i == 2 ? BW_W_BAD : BW_W_DONE);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_run),
		cmocka_unit_test(test_one_never_starts),
		cmocka_unit_test(test_bad_worker),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
