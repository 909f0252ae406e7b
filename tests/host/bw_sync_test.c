/*
 * bw_sync_test.c: the go/stop protocol of loads/bw_sync.c (bw_lead_run, bw_worker_run) on
 * several modelled CPUs at once, deterministic: every CPU a host thread, one running at a
 * time in the order of its own virtual clock (tests/model/mp_sched.c), the bandwidth kernels
 * the stream model (tests/model/stream_model.c, time spent per byte on the running CPU).
 * What each CPU did (its stream calls and bytes, when its last pass ran, when it ended) is
 * recorded beside what it reports, and the two must agree:
 *   - a worker's passes and bytes are exactly its stream calls and bytes; no worker runs a
 *     pass before the lead's go, none starts a second pass after the lead's stop, each ends
 *     at stop (or its own bound); the lead ran its budget;
 *   - knobs: a worker that starts late (within and past the lead's bound), one that never
 *     starts (the lead gives up at its bound, `ready` says one short, and nothing runs: a
 *     ready worker must not run a pass for a lead that gave up), one whose passes are ten
 *     times slower (stop lands mid-pass: that pass is finished and counted), an SMI-like
 *     stall mid-pass, a stall that hides go (or all the workers' ready) until after the
 *     bound although it was given in time (the flag is read once more after the bound), a
 *     worker whose buffer is too small;
 *   - a seeded sweep (starts, speeds, stalls, modes, tie order) against the same rules.
 * Bounded: each run at most 10^6 clock advances (mp_sched aborts past them), a few ms each.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "loads/bw.h"
#include "model/mp_sched.h"
#include "model/stream_model.h"
#include "model/vclock.h"

#define STEP 50ull		/* ticks per TSC read */
#define WAIT 10000ull		/* bw_sync.wait_ticks: 200 reads */
#define BUDGET 2500ull		/* the lead's run: several passes */
#define WS 16384ull		/* per CPU: L1 in the stream model, a read pass 256 ticks */

struct rig {
	struct bw_sync s;
	struct bw_worker w[MP_MAX_CPUS];	/* [0] the lead */
	uint8_t *buf[MP_MAX_CPUS];
	unsigned others;
	int lead_ret;
	/* what each CPU did in the stream model */
	uint64_t calls[MP_MAX_CPUS], bytes[MP_MAX_CPUS];
	uint64_t seen_calls, seen_bytes;
	struct mp_sched m;
};

static struct rig R;

/* mp_sched's `off`: the stream model's counts since the last switch are CPU c's. */
static void off(struct mp_sched *m, unsigned c)
{
	uint64_t b = smod.bytes_read + smod.bytes_written;

	(void)m;
	R.calls[c] += smod.calls - R.seen_calls;
	R.bytes[c] += b - R.seen_bytes;
	R.seen_calls = smod.calls;
	R.seen_bytes = b;
}

static void lead(void *arg)
{
	(void)arg;
	R.lead_ret = bw_lead_run(&R.w[0], &R.s, R.others, BUDGET);
}

static void worker(void *arg)
{
	bw_worker_run(arg, &R.s);
}

/* n CPUs (cpu0 leads), mode m on each; `others` as the lead is told: n - 1. */
static void rig(unsigned n, enum bw_mode m, uint64_t seed)
{
	for (unsigned c = 0; c < MP_MAX_CPUS; c++)
		free(R.buf[c]);
	memset(&R, 0, sizeof(R));
	stream_model_reset();
	vclock_reset(0, STEP);
	R.s = (struct bw_sync){ .wait_ticks = WAIT };
	R.others = n - 1;
	R.m = (struct mp_sched){ .n = n, .seed = seed, .budget = 1000000, .off = off };
	for (unsigned c = 0; c < n; c++) {
		R.buf[c] = aligned_alloc(4096, WS);
		assert_non_null(R.buf[c]);
		R.w[c] = (struct bw_worker){ .mode = m, .buf = R.buf[c], .ws = WS };
		R.m.cpu[c] = (struct mp_cpu){ .fn = c ? worker : lead, .arg = &R.w[c] };
	}
}

static bool writes(const struct bw_worker *w)
{
	return w->mode == BW_WRITE || w->mode == BW_WRITE_NT;
}

/* The lead's go: its last read before its first pass (bw_sync.c: go, then t0 one read on;
 * its end is the end of its last pass, or of the read back of a write mode's range). */
static uint64_t go_time(void)
{
	const struct mp_cpu *L = &R.m.cpu[0];
	uint64_t end = writes(&R.w[0]) ? L->spend_from : L->now;

	return end - R.w[0].ticks - STEP;
}

/* What every CPU reports is what it did, and the protocol's rules on the timeline. */
static void check(void)
{
	const struct mp_cpu *L = &R.m.cpu[0];
	uint64_t stop = L->now, go = go_time();

	assert_int_equal(R.lead_ret == 0, R.w[0].state == BW_W_DONE);
	if (R.lead_ret == 0)
		assert_true(R.w[0].ticks >= BUDGET);
	for (unsigned c = 0; c < R.m.n; c++) {
		const struct bw_worker *w = &R.w[c];
		const struct mp_cpu *p = &R.m.cpu[c];
		uint64_t verify = w->state == BW_W_DONE && writes(w);

		if (!p->fn)
			continue;
		/* the counts are what the CPU did: one stream call per pass (and one read back
		 * of a write mode's range) */
		assert_int_equal(w->passes, R.calls[c] - verify);
		assert_int_equal(w->bytes, w->passes * (w->lay.rd + w->lay.wr));
		assert_int_equal(R.bytes[c], w->bytes + verify * w->lay.wr);
		assert_int_equal(p->spends, R.calls[c]);
		if (w->state != BW_W_DONE) {
			assert_int_equal(w->passes, 0);
			assert_int_equal(R.calls[c], 0);
			if (c && w->state == BW_W_NO_GO && R.lead_ret == 0)
				assert_true(go >= p->now);	/* go came after its last look */
			continue;
		}
		assert_int_equal(R.lead_ret, 0);	/* nothing runs for a lead that gave up */
		assert_true(w->sum_ok);
		assert_true(w->passes >= 1);
		if (!c)
			continue;
		/* not before go; a pass after the first only while stop was not raised; on to
		 * stop or its own bound */
		assert_true(p->now - (verify ? p->spend_to - p->spend_from : 0) - w->ticks > go);
		if (w->passes > 1)
			assert_true((verify ? p->prev_from : p->spend_from) <= stop);
		assert_true(p->now >= stop || w->ticks >= WAIT);
	}
}

/* The last pass of CPU c (a read mode) began before stop and ended after it. */
static void assert_mid_pass(unsigned c)
{
	const struct mp_cpu *p = &R.m.cpu[c];

	assert_true(p->spend_from < R.m.cpu[0].now);
	assert_true(p->spend_to > R.m.cpu[0].now);
}

static void test_all_at_once(void **state)
{
	(void)state;
	for (unsigned m = 0; m < BW_NMODES; m++) {
		rig(4, (enum bw_mode)m, m);
		mp_run(&R.m);
		assert_int_equal(R.lead_ret, 0);
		assert_int_equal(R.s.ready, 3);
		for (unsigned c = 0; c < 4; c++)
			assert_int_equal(R.w[c].state, BW_W_DONE);
		check();
	}
}

static void test_late_start(void **state)
{
	(void)state;
	/* within the bound: everyone waits for it, then all run */
	rig(3, BW_READ, 1);
	R.m.cpu[2].start = WAIT / 2;
	mp_run(&R.m);
	assert_int_equal(R.lead_ret, 0);
	assert_true(go_time() >= WAIT / 2);
	assert_int_equal(R.w[1].state, BW_W_DONE);
	assert_int_equal(R.w[2].state, BW_W_DONE);
	check();
	/* past the lead's bound: the lead gives up at it; the late one and the one that was
	 * ready in time both see the lead gave up, and nobody runs a pass */
	rig(3, BW_READ, 2);
	R.m.cpu[2].start = 2 * WAIT;
	mp_run(&R.m);
	assert_int_equal(R.lead_ret, -1);
	assert_int_equal(R.w[0].state, BW_W_NO_GO);
	assert_int_equal(R.w[1].state, BW_W_NO_GO);
	assert_int_equal(R.w[2].state, BW_W_NO_GO);
	assert_int_equal(smod.calls, 0);
	check();
}

static void test_never_starts(void **state)
{
	(void)state;
	rig(4, BW_MIX1, 3);
	R.m.cpu[1].start = 1000;	/* their own bounds outlast the lead's */
	R.m.cpu[2].start = 2000;
	R.m.cpu[3].fn = NULL;		/* counted in `others`, never runs */
	mp_run(&R.m);
	/* the lead's wait is the bound, no more: WAIT after its first read, one read on */
	assert_int_equal(R.lead_ret, -1);
	assert_int_equal(R.m.cpu[0].now, STEP + WAIT + STEP);
	assert_int_equal(R.s.ready, 2);		/* the reason: one of the 3 never got ready */
	assert_true(R.s.go && R.s.stop);
	/* the two that were ready never ran a pass */
	assert_int_equal(R.w[1].state, BW_W_NO_GO);
	assert_int_equal(R.w[2].state, BW_W_NO_GO);
	assert_int_equal(smod.calls, 0);
	check();
}

static void test_finishes_late(void **state)
{
	(void)state;
	/* cpu2 runs at a tenth of the speed: a pass is 2560 ticks, stop lands inside one */
	rig(3, BW_READ, 4);
	R.m.cpu[2].slow_pct = 1000;
	mp_run(&R.m);
	assert_int_equal(R.lead_ret, 0);
	assert_int_equal(R.w[2].state, BW_W_DONE);
	assert_mid_pass(2);
	assert_true(R.w[2].passes < R.w[1].passes);
	check();
	/* an SMI-like stall of 3 budgets inside cpu1's second pass: stop comes meanwhile */
	rig(3, BW_READ, 5);
	R.m.cpu[1].stall_at = 400;
	R.m.cpu[1].stall = 3 * BUDGET;
	mp_run(&R.m);
	assert_int_equal(R.w[1].state, BW_W_DONE);
	assert_mid_pass(1);
	assert_true(R.w[1].ticks > 3 * BUDGET);
	check();
}

static void test_stall_hides_flag(void **state)
{
	(void)state;
	/* cpu1 stalls for two bounds at its second look for go (its clock passes STEP); the
	 * lead, starting 5 reads later, gives go long before cpu1's bound: cpu1 must see it
	 * when it looks again (then stop too: one pass, counted) */
	rig(2, BW_READ, 6);
	R.m.cpu[0].start = 5 * STEP;
	R.m.cpu[1].stall_at = STEP + 1;
	R.m.cpu[1].stall = 2 * WAIT;
	mp_run(&R.m);
	assert_int_equal(R.lead_ret, 0);
	assert_true(go_time() < STEP + WAIT);
	assert_int_equal(R.w[1].state, BW_W_DONE);
	assert_int_equal(R.w[1].passes, 1);
	check();
	/* the lead stalls for a bound at its second look; both workers got ready at half the
	 * bound, in time: it must go, and they, still within their own bounds, run */
	rig(3, BW_READ, 7);
	R.m.cpu[0].stall_at = STEP + 1;
	R.m.cpu[0].stall = WAIT;
	R.m.cpu[1].start = R.m.cpu[2].start = WAIT / 2;
	mp_run(&R.m);
	assert_int_equal(R.lead_ret, 0);
	assert_int_equal(R.w[1].state, BW_W_DONE);
	assert_int_equal(R.w[2].state, BW_W_DONE);
	check();
}

static void test_bad_worker(void **state)
{
	(void)state;
	rig(3, BW_READ, 8);
	R.w[2].ws = 100;		/* too small for one pass: BAD, but counted ready */
	mp_run(&R.m);
	assert_int_equal(R.lead_ret, 0);
	assert_int_equal(R.w[1].state, BW_W_DONE);
	assert_int_equal(R.w[2].state, BW_W_BAD);
	check();
	/* the lead's own buffer too small: it gives up once all are ready; nobody runs */
	rig(3, BW_READ, 9);
	R.w[0].ws = 100;
	mp_run(&R.m);
	assert_int_equal(R.lead_ret, -1);
	assert_int_equal(R.w[0].state, BW_W_BAD);
	assert_int_equal(R.w[1].state, BW_W_NO_GO);
	assert_int_equal(smod.calls, 0);
	check();
}

/* splitmix64 (Steele et al.) */
static uint64_t rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Seeded: 2..6 CPUs, the lead starts in [0, 1 bound), workers anywhere in [0, 1.5 bounds),
 * run at 100..400 %, one in three stalls for up to 2 bounds somewhere in its first 2 bounds,
 * one in eight never starts; the mode and the tie order from the seed. Every run obeys
 * check(); the lead's answer follows from who was ready by its last look (200 seeds: 86 runs
 * the lead gave up, 114 it went; 14 workers missed go, 158 were mid-pass at stop). */
static void test_seeded(void **state)
{
	const char *all = getenv("PMI_SWEEP_ALL");
	uint64_t last = all && *all == '1' ? 2000 : 200;
	unsigned runs[2] = { 0 }, no_go = 0, mid = 0;

	(void)state;
	for (uint64_t seed = 1; seed <= last; seed++) {
		uint64_t s = seed, go;
		unsigned n = 2 + (unsigned)(rnd(&s) % 5);
		bool missing = false, late = false;

		rig(n, (enum bw_mode)(rnd(&s) % BW_NMODES), seed);
		R.m.cpu[0].start = rnd(&s) % WAIT;	/* the lead, too, may come late */
		for (unsigned c = 1; c < n; c++) {
			struct mp_cpu *p = &R.m.cpu[c];

			p->start = rnd(&s) % (3 * WAIT / 2);
			p->slow_pct = 100 + (unsigned)(rnd(&s) % 301);
			if (rnd(&s) % 3 == 0) {
				p->stall_at = p->start + rnd(&s) % (2 * WAIT);
				p->stall = 1 + rnd(&s) % (2 * WAIT);
			}
			if (rnd(&s) % 8 == 0)
				p->fn = NULL;
			missing |= !p->fn;
		}
		mp_run(&R.m);
		check();
		runs[R.lead_ret == 0]++;
		go = go_time();
		for (unsigned c = 1; c < n; c++)
			late |= R.m.cpu[c].fn && R.m.cpu[c].start >= R.m.cpu[0].now;
		if (R.lead_ret == 0) {
			assert_false(missing);
			for (unsigned c = 1; c < n; c++) {
				const struct mp_cpu *p = &R.m.cpu[c];

				assert_true(p->start <= go);
				no_go += R.w[c].state == BW_W_NO_GO;
				mid += R.w[c].state == BW_W_DONE && !writes(&R.w[c]) &&
				       p->spend_from < R.m.cpu[0].now &&
				       p->spend_to > R.m.cpu[0].now;
			}
		} else {
			assert_true(missing || late);
			assert_true(R.m.cpu[0].now - R.m.cpu[0].start >= WAIT);
		}
	}
	/* the sweep saw both answers, workers that missed go, and stop landing mid-pass */
	assert_true(runs[0] > 0 && runs[1] > 0);
	assert_true(no_go > 0 && mid > 0);
	if (last == 200) {	/* and the same every time: nothing but the seeds decides */
		assert_int_equal(runs[0], 86);
		assert_int_equal(no_go, 14);
		assert_int_equal(mid, 158);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_at_once),
		cmocka_unit_test(test_late_start),
		cmocka_unit_test(test_never_starts),
		cmocka_unit_test(test_finishes_late),
		cmocka_unit_test(test_stall_hides_flag),
		cmocka_unit_test(test_bad_worker),
		cmocka_unit_test(test_seeded),
	};
	int r = cmocka_run_group_tests(tests, NULL, NULL);

	for (unsigned c = 0; c < MP_MAX_CPUS; c++)
		free(R.buf[c]);
	return r;
}
