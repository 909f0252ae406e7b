/*
 * ap_slot_test.c: job blocks handed to one AP after another (loads/ap_slot.c), as load_matrix
 * and load_c2c hand a cell job and a PEBS state (SDM Vol. 3B 20.3: IA32_DS_AREA per logical
 * processor) to each row's CPU. This file's smp_call_start / smp_call_wait model the other
 * CPUs; hostile knobs: a CPU that stops answering mid-call (smp_call_wait times out while it
 * still runs on the blocks: SDM Vol. 3A 9.4) and one whose function faults part-way (the
 * vector comes back). Checked: after either, the next CPU gets blocks no other CPU can still
 * be using (the late CPU's stores land in its own, not in the next CPU's job); a call refused
 * because the CPU's last one is still out hands nothing over and keeps the blocks; no memory
 * for a job makes no call.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/mm.h"
#include "loads/ap_slot.h"
#include "tests/stubs/kalloc_arena.h"

#define NCPU 4

static struct percpu pcs[NCPU];
static int behave[NCPU];	/* SMP_CALL_DONE, SMP_CALL_TIMEOUT (still running), or a vector */
static void *held[NCPU];	/* the job a CPU still runs on after its call was given up */

struct percpu *smp_cpu(unsigned i)
{
	return i < NCPU ? &pcs[i] : NULL;
}

static void *posted_arg[NCPU];
static smp_fn posted_fn[NCPU];

bool smp_call_start(unsigned i, smp_fn fn, void *arg)
{
	if (pcs[i].state != CPU_ONLINE || held[i])
		return false;		/* smp_call.c: not online, or its last call still out */
	posted_fn[i] = fn;
	posted_arg[i] = arg;
	return true;
}

int smp_call_wait(unsigned i, uint32_t timeout_ms)
{
	assert_true(timeout_ms > 0);
	if (behave[i] == SMP_CALL_TIMEOUT) {
		held[i] = posted_arg[i];	/* still running on it */
		return SMP_CALL_TIMEOUT;
	}
	posted_fn[i](posted_arg[i]);
	return behave[i];
}

struct job {
	unsigned cpu, runs;
};

static void fn(void *arg)
{
	((struct job *)arg)->runs++;
}

static void reset(void)
{
	for (unsigned i = 0; i < NCPU; i++) {
		pcs[i] = (struct percpu){ .state = CPU_ONLINE };
		behave[i] = SMP_CALL_DONE;
		held[i] = NULL;
		posted_fn[i] = NULL;
		posted_arg[i] = NULL;
	}
	kalloc_arena.allocs = 0;
	kalloc_arena.limit = 1000;
}

static void test_timeout_gives_fresh_blocks(void **state)
{
	struct ap_slot s;
	void *job0, *aux0;

	(void)state;
	reset();
	assert_true(ap_slot_init(&s, sizeof(struct job), 30000));
	job0 = s.job;
	aux0 = s.aux;
	assert_int_equal(ap_slot_call(&s, 1, fn, 1000), SMP_CALL_DONE);
	assert_ptr_equal(s.job, job0);		/* reused while every CPU finishes */
	assert_int_equal(((struct job *)s.job)->runs, 1);
	behave[2] = SMP_CALL_TIMEOUT;		/* cpu2 stops answering mid-cell */
	assert_int_equal(ap_slot_call(&s, 2, fn, 1000), SMP_CALL_TIMEOUT);
	assert_ptr_equal(held[2], job0);
	assert_ptr_not_equal(s.job, job0);	/* cpu3 must not get what cpu2 still uses */
	assert_non_null(s.aux);
	assert_ptr_not_equal(s.aux, aux0);
	assert_int_equal(s.lost, 1);
	assert_int_equal(ap_slot_call(&s, 3, fn, 1000), SMP_CALL_DONE);
	assert_ptr_not_equal(held[2], s.job);
}

static void test_fault_and_busy(void **state)
{
	struct ap_slot s;
	void *job0;

	(void)state;
	reset();
	assert_true(ap_slot_init(&s, sizeof(struct job), 64));
	job0 = s.job;
	behave[1] = 14;				/* #PF part-way: its PMU may be left armed */
	assert_int_equal(ap_slot_call(&s, 1, fn, 1000), 14);
	assert_ptr_not_equal(s.job, job0);
	job0 = s.job;
	held[2] = &held;			/* cpu2's last call is still out */
	assert_int_equal(ap_slot_call(&s, 2, fn, 1000), SMP_CALL_TIMEOUT);
	assert_ptr_equal(s.job, job0);		/* nothing handed over: kept */
	pcs[3].state = CPU_NO_ANSWER;
	assert_int_equal(ap_slot_call(&s, 3, fn, 1000), SMP_CALL_NOT_ONLINE);
	assert_int_equal(s.lost, 1);
}

static void test_no_memory(void **state)
{
	struct ap_slot s;

	(void)state;
	reset();
	kalloc_arena.limit = 0;
	assert_false(ap_slot_init(&s, sizeof(struct job), 64));
	assert_int_equal(ap_slot_call(&s, 1, fn, 1000), SMP_CALL_NOT_ONLINE);
	assert_null(posted_fn[1]);
	/* memory runs out at the replacement: no job, no further call */
	reset();
	kalloc_arena.limit = 2;
	assert_true(ap_slot_init(&s, sizeof(struct job), 64));
	behave[1] = SMP_CALL_TIMEOUT;
	assert_int_equal(ap_slot_call(&s, 1, fn, 1000), SMP_CALL_TIMEOUT);
	assert_null(s.job);
	assert_null(s.aux);
	assert_int_equal(ap_slot_call(&s, 2, fn, 1000), SMP_CALL_NOT_ONLINE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_timeout_gives_fresh_blocks),
		cmocka_unit_test(test_fault_and_busy),
		cmocka_unit_test(test_no_memory),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
