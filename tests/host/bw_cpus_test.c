/*
 * bw_cpus_test.c: the bandwidth test's run on every CPU at once (loads/bw_cpus.c) with the
 * real worker protocol (loads/bw_sync.c) on the stream model (tests/model/stream_model.c) and
 * the virtual clock. This file's smp_call_start / smp_call_wait model the other CPUs: a live
 * one is ready at once and runs its worker when waited for; hostile knob `scl.late[cpu]` (tests/stubs/smp_call_late.h): a CPU
 * whose call starts only after its bound is out (SDM Vol. 3A 9.4: an AP may not answer in
 * time; an SMI holds it), run by smp_call_run_late() as the AP would go on. Checked: a late worker
 * starts on its own run's sync block (before: the boot CPU had cleared the job's pointer, the
 * AP dereferenced NULL) and never on a later run's (before: one static block for every
 * run); 8 late CPUs of 32 cost the answers one bound, not eight.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/extable.h"
#include "kernel/ktap_undo.h"
#include "kernel/mm.h"
#include "loads/bw_cpus.h"
#include "smp/smp.h"
#include "tests/model/stream_model.h"
#include "tests/model/vclock.h"
#include "tests/stubs/kalloc_arena.h"
#include "tests/stubs/smp_call_late.h"

#define NCPU 32
#define WS 16384u
#define WAIT 1000000ull		/* ticks: 1 ms at 1 GHz */

uint64_t tsc_hz = 1000000000ull;
static struct bw_ap aps[NCPU];
static uint8_t *bufs[NCPU];

uint64_t read_cr3(void)
{
	return 0;
}

void write_cr3(uint64_t v)
{
	(void)v;
}

bool smp_call_start(unsigned i, smp_fn fn, void *arg)
{
	if (scl.fn[i])
		return false;			/* its last call is still out */
	scl.fn[i] = fn;
	scl.arg[i] = arg;
	if (!scl.late[i])				/* ready at once: its buffer filled */
		__atomic_fetch_add(&((struct bw_ap *)arg)->s->ready, 1, __ATOMIC_RELEASE);
	return true;
}

static void reset(void)
{
	stream_model_reset();
	vclock_reset(0, 1000);
	smp_call_late_reset();
	for (unsigned i = 0; i < NCPU; i++) {
		if (!bufs[i])
			bufs[i] = aligned_alloc(4096, WS);
		aps[i] = (struct bw_ap){ .buf = i ? bufs[i] : NULL };
	}
	kt_undo_run();
}

static void test_all_answer(void **state)
{
	struct bw_all o;

	(void)state;
	reset();
	bw_run_all(aps, NCPU, BW_READ, WS, bufs[0], 10000, WAIT, &o);
	assert_int_equal(o.cpus, NCPU);
	assert_int_equal(o.done, NCPU);
	assert_true(o.counted);
	bw_cpus_done();
	assert_int_equal(kt_undo_run(), 0);
}

static void test_late_worker(void **state)
{
	struct bw_all o;
	struct bw_sync *first, *second;
	uint32_t ready;

	(void)state;
	reset();
	scl.late[2] = true;
	bw_run_all(aps, NCPU, BW_READ, WS, bufs[0], 10000, WAIT, &o);
	assert_true(o.done < NCPU);		/* the lead did not wait out a missing CPU */
	assert_true(aps[2].bad);
	first = aps[2].s;
	assert_non_null(first);			/* the job keeps its block */
	bw_run_all(aps, NCPU, BW_WRITE, WS, bufs[0], 10000, WAIT, &o);
	second = aps[1].s;
	assert_ptr_not_equal(first, second);	/* the next run has its own */
	assert_int_equal(o.done, NCPU - 1);
	ready = second->ready;
	smp_call_run_late(2);				/* the AP goes on with its first call */
	assert_int_equal(second->ready, ready);	/* counted ready on its own run's block */
	/* its run was called off when it missed the lead's bound (loads/bw.h: nobody runs a
	 * pass): it sees the abort and ends without one */
	assert_int_equal(aps[2].w.state, BW_W_NO_GO);
	bw_cpus_done();
}

static void test_late_cpus_one_bound(void **state)
{
	struct bw_all o;
	uint64_t t0;

	(void)state;
	reset();
	for (unsigned i = 3; i < NCPU; i += 4)
		scl.late[i] = true;			/* 8 of 32 */
	t0 = vclock.now;
	bw_run_all(aps, NCPU, BW_READ, WS, bufs[0], 10000, WAIT, &o);
	/* the lead's ready wait (one bound) and the answers' (two): not 8 x two */
	assert_true(vclock.now - t0 <= 3 * WAIT + WAIT / 2);
	assert_int_equal(o.cpus, NCPU);
	for (unsigned i = 3; i < NCPU; i += 4) {
		assert_true(aps[i].bad);
		smp_call_run_late(i);
	}
	bw_cpus_done();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_answer),
		cmocka_unit_test(test_late_worker),
		cmocka_unit_test(test_late_cpus_one_bound),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
