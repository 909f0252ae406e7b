/*
 * xcore_late_test.c: a cross-core pair (loads/xcore.c xcore_run_pair, load_c2c's cells) whose
 * measuring or helping AP does not finish within its bound. This file's smp_call_start /
 * smp_call_wait model the other CPUs on the virtual clock (tests/model/vclock.c); hostile
 * knob: `scl.late[cpu]` (tests/stubs/smp_call_late.h), a CPU whose call is still running when the bound is out (SDM Vol. 3A
 * 9.4: an AP may not answer; an SMI or an NMI storm holds it), run later by smp_call_run_late() as the
 * AP would go on. Checked: a late measurer never writes into the caller's struct xcore_run
 * (on load_c2c's stack, a frame gone by then: before, it wrote loads/overhead into it); no
 * pair is prepared over the shared handshake while a late side still runs on it (before,
 * the next pair re-initialised it under the late CPU), and pairs run again once it finished.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/cpu.h"
#include "kernel/extable.h"
#include "kernel/mm.h"
#include "loads/kload.h"
#include "loads/xcore.h"
#include "smp/smp.h"
#include "tests/model/vclock.h"
#include "tests/stubs/kalloc_arena.h"
#include "tests/stubs/smp_call_late.h"

#define NCPU 4

struct cpu_info cpu;
uint64_t tsc_hz = 1000000000ull;
static struct percpu pcs[NCPU];
static unsigned starts[NCPU];

const char *cpu_timing_unjudgeable(const struct cpu_info *ci)
{
	(void)ci;
	return NULL;
}

uint64_t (*kload_core_clock(void **ctx, const char **name))(void *ctx)
{
	*ctx = NULL;
	*name = NULL;
	return NULL;
}

uint64_t read_cr3(void)
{
	return 0;
}

void write_cr3(uint64_t v)
{
	(void)v;
}

unsigned smp_cpu_count(void)
{
	return NCPU;
}

struct percpu *smp_cpu(unsigned i)
{
	return i < NCPU ? &pcs[i] : NULL;
}

unsigned smp_this_cpu(void)
{
	return 0;
}

bool smp_call_start(unsigned i, smp_fn fn, void *arg)
{
	if (i == 0 || i >= NCPU || pcs[i].state != CPU_ONLINE || scl.fn[i])
		return false;		/* smp_call.c: not online, or its last call still out */
	scl.fn[i] = fn;
	scl.arg[i] = arg;
	starts[i]++;
	return true;
}

static void reset(void)
{
	vclock_reset(0, 1000000);	/* 1 ms a read: the handshake bounds pass quickly */
	kalloc_arena.wrap = true;	/* the test's pairs are small: reuse from the start */
	smp_call_late_reset();
	for (unsigned i = 0; i < NCPU; i++) {
		pcs[i] = (struct percpu){ .state = CPU_ONLINE };
		starts[i] = 0;
	}
}

static struct xcore_run pair(unsigned measurer, unsigned helper)
{
	return (struct xcore_run){ .name = "load_c2c/snoop", .kind = XCORE_SNOOP,
				   .measurer = measurer, .helper = helper, .want = 8,
				   .budget_ms = 20 };
}

static void test_late_measurer(void **state)
{
	struct xcore_run r, seen, q;

	(void)state;
	reset();
	scl.late[1] = true;
	r = pair(1, 2);
	assert_int_equal(xcore_run_pair(&r), -1);
	assert_non_null(strstr(r.why, "measuring cpu1"));
	seen = r;
	smp_call_run_late(1);				/* the AP goes on with its side */
	assert_memory_equal(&r, &seen, sizeof(r));	/* nothing written into the caller's */
	q = pair(3, 2);				/* it finished: pairs run again */
	assert_int_equal(starts[3], 0);
	xcore_run_pair(&q);
	assert_int_equal(starts[3], 1);
}

static void test_no_pair_over_a_late_side(void **state)
{
	struct xcore_run r, q;

	(void)state;
	for (unsigned who = 1; who <= 2; who++) {	/* a late measurer, then a late helper */
		reset();
		scl.late[who] = true;
		r = pair(1, 2);
		assert_int_equal(xcore_run_pair(&r), -1);
		q = pair(3, who == 1 ? 2 : 1);
		assert_int_equal(xcore_run_pair(&q), -1);
		assert_non_null(strstr(q.why, "still runs its side of an earlier pair"));
		assert_int_equal(starts[3], 0);		/* nothing started over the late side */
		smp_call_run_late(who);
		q = pair(3, who == 1 ? 2 : 1);
		xcore_run_pair(&q);
		assert_int_equal(starts[3], 1);
		assert_true(q.why == NULL || !strstr(q.why, "earlier pair"));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_late_measurer),
		cmocka_unit_test(test_no_pair_over_a_late_side),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
