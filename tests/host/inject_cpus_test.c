/*
 * inject_cpus_test.c: load_loaded's injector CPUs (loads/inject_cpus.c) against a model of
 * the other CPUs on the virtual clock (tests/model/vclock.c): this file's smp_call_start /
 * smp_call_wait stand in for smp/smp_call.c (a posted call, a wait bounded in milliseconds of
 * TSC, SDM Vol. 3B 18.17). A live CPU is running its job once its start is posted and counts
 * its stop when told; hostile knob, seeded: a CPU that stops answering (SDM Vol. 3A 9.4: an
 * AP may not answer; a call to it waits out its bound, on the virtual clock). Checked: k
 * silent CPUs of 64 cost the start one 2 s bound and the stop one 22 s bound, not k of each
 * (a wait per CPU: 8 silent CPUs were 16 s + 176 s, past load_loaded's 120 s watchdog); a
 * test abandoned mid-step (the runner's kt_undo_run, kernel/ktap_undo.h) has every
 * injector told to stop and waited for before its buffers are released; a finished group
 * leaves nothing to undo.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/extable.h"
#include "kernel/ktap_undo.h"
#include "loads/inject_cpus.h"
#include "smp/smp.h"
#include "tests/model/vclock.h"

#define NCPU 65
#define HZ 1000000000ull		/* 1 GHz TSC: a tick is a nanosecond */
#define START_MS 2000u
#define STEP_MS 20000u

uint64_t tsc_hz = HZ;
static struct inject_cpu inj[NCPU - 1];
static struct inject_group grp;
static bool gone[NCPU];
static bool posted[NCPU];
static unsigned waits;

/* on_cpu's, never run here (the model's CPUs do not run the job's instructions) */
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
	struct inject_job *j = arg;

	assert_non_null(fn);
	if (posted[i])
		return false;		/* its previous call has not finished */
	posted[i] = true;
	if (!gone[i]) {
		j->res = (struct loaded_inj){ .started = true };
		__atomic_store_n(&j->running, 1, __ATOMIC_RELEASE);
	}
	return true;
}

int smp_call_wait(unsigned i, uint32_t timeout_ms)
{
	struct inject_job *j = &inj[i - 1].job;

	waits++;
	if (gone[i] || !j->stop) {	/* spins until its bound (smp_call.c wait_done) */
		vclock_advance((uint64_t)timeout_ms * (HZ / 1000));
		return SMP_CALL_TIMEOUT;
	}
	j->res.bytes = 4096;
	j->res.ticks = 1000;
	j->res.stopped = true;
	posted[i] = false;
	return SMP_CALL_DONE;
}

/* Seed -> which CPUs are silent (splitmix64, Steele et al., "Fast splittable PRNGs"). */
static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void reset(void)
{
	vclock_reset(0, 10000);	/* 10 us a read */
	memset(inj, 0, sizeof(inj));
	memset(gone, 0, sizeof(gone));
	memset(posted, 0, sizeof(posted));
	waits = 0;
	for (unsigned k = 0; k < NCPU - 1; k++)
		inj[k].cpu = k + 1;
	grp = (struct inject_group){ .inj = inj, .n = NCPU - 1, .start_ms = START_MS,
				     .step_ms = STEP_MS };
	kt_undo_run();
}

static void test_all_answer(void **state)
{
	(void)state;
	reset();
	assert_true(inject_cpus_start(&grp, 10));
	assert_true(inject_cpus_stop(&grp));
	assert_int_equal(inj[5].job.delay, 10);
	assert_int_equal(inj[5].job.bound_ticks, STEP_MS * (HZ / 1000));
	assert_true(vclock.now < HZ / 100);	/* nobody waited a bound */
	inject_cpus_done(&grp);
	assert_int_equal(kt_undo_run(), 0);	/* a finished group owes nothing */
}

/* k silent CPUs, seeded: the start waits one START_MS, the stop one START_MS + STEP_MS. */
static void test_silent_cpus(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed <= 16; seed++) {
		uint64_t s = seed, t0;
		unsigned k = 0;

		reset();
		while (k < 8) {
			unsigned c = 1 + (unsigned)(splitmix64(&s) % (NCPU - 1));

			k += !gone[c];
			gone[c] = true;
		}
		t0 = vclock.now;
		assert_false(inject_cpus_start(&grp, 0));
		assert_true(vclock.now - t0 <= (START_MS + 1) * (HZ / 1000));
		t0 = vclock.now;
		assert_false(inject_cpus_stop(&grp));
		assert_true(vclock.now - t0 <= (START_MS + STEP_MS + 1) * (HZ / 1000));
		for (unsigned c = 1; c < NCPU; c++)
			assert_int_equal(inj[c - 1].call == SMP_CALL_DONE, !gone[c]);
		/* the next step: the silent ones are still busy, refused at once, no wait */
		t0 = vclock.now;
		assert_false(inject_cpus_start(&grp, 0));
		assert_false(inject_cpus_stop(&grp));
		assert_true(vclock.now - t0 < HZ / 1000);
		inject_cpus_done(&grp);
	}
}

static void test_abandoned(void **state)
{
	(void)state;
	reset();
	assert_true(inject_cpus_start(&grp, 0));
	/* the watchdog fires mid-step: the test never calls stop; the runner undoes */
	assert_int_equal(kt_undo_run(), 1);
	for (unsigned k = 0; k < NCPU - 1; k++) {
		assert_int_equal(inj[k].job.stop, 1);
		assert_int_equal(inj[k].call, SMP_CALL_DONE);	/* answered: buffer free */
		assert_true(inj[k].job.res.stopped);
	}
	assert_int_equal(waits, NCPU - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_answer),
		cmocka_unit_test(test_silent_cpus),
		cmocka_unit_test(test_abandoned),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
