/*
 * console_lock_test.c: the console lock (kernel/console.c) with played CPUs and a virtual
 * clock: no lock before console_set_cpu; the holder writes again (nesting); a waiter gets the
 * console when the holder lets go, with nothing forced; a holder that never lets go is taken
 * over after the bound, counted and named in a "# console:" line, and its late unlock does
 * not free the new owner's lock; console_unlock_all at any depth; kprintf hands a line to
 * console_write whole (kernel/kprintf.c), a line longer than its chunk in pieces.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/console.h"

static char out[4096];
static size_t outn;
static unsigned writes;

static void be_write(struct console_backend *be, const char *s, size_t n)
{
	(void)be;
	memcpy(out + outn, s, n);
	outn += n;
	out[outn] = 0;
	writes++;
}

static struct console_backend be = { .name = "test", .write = be_write };

static unsigned me;			/* the CPU the code "runs on" */
static uint64_t vclock;			/* one tick per read */
static uint64_t release_at;		/* 0: the holder never lets go */
static unsigned holder;

static unsigned cpu_id(void) { return me; }

static uint64_t now(void)
{
	if (++vclock == release_at) {
		unsigned saved = me;

		me = holder;		/* the holder, on its own CPU, finishes its write */
		console_unlock();
		me = saved;
	}
	return vclock;
}

static int setup(void **state)
{
	(void)state;
	console_register(&be);
	outn = 0;
	out[0] = 0;
	writes = 0;
	vclock = release_at = 0;
	me = 0;
	console_set_cpu(cpu_id, now, 100);
	return 0;
}

static void test_one_cpu_no_lock(void **state)
{
	(void)state;
	console_set_cpu(NULL, NULL, 0);
	me = 1;
	console_lock();		/* does nothing: another CPU's write goes straight out */
	me = 0;
	console_write("a", 1);
	assert_string_equal(out, "a");
	assert_int_equal(vclock, 0);
}

static void test_nested_and_wait(void **state)
{
	unsigned f0 = console_forced();

	(void)state;
	me = holder = 1;
	console_lock();
	console_write("1a ", 3);	/* the holder again: nested */
	me = 0;
	release_at = 40;		/* cpu1 lets go after 40 ticks of cpu0's wait */
	console_write("0 ", 2);
	assert_string_equal(out, "1a 0 ");
	assert_int_equal(vclock, 40);
	assert_int_equal(console_forced(), f0);
}

static void test_dead_holder_taken_over(void **state)
{
	unsigned f0 = console_forced();

	(void)state;
	me = 3;
	console_lock();
	console_lock();
	me = 0;
	console_write("x\n", 2);
	assert_int_equal(console_forced(), f0 + 1);
	assert_non_null(strstr(out, "# console: cpu3 held the console past the bound: cpu0 "
			       "writes anyway ("));
	assert_true(vclock > 100 && vclock < 110);
	assert_string_equal(out + outn - 2, "x\n");
	/* cpu0's lock went back at the end of its write; cpu3's late unlock changes nothing */
	me = 3;
	console_unlock();
	me = 2;
	console_lock();		/* free: taken at once, no wait */
	me = 3;
	vclock = 0;
	release_at = 5;
	holder = 2;
	console_write("3", 1);	/* cpu2 still holds it: cpu3 waits for its unlock at tick 5 */
	assert_int_equal(vclock, 5);
	assert_int_equal(console_forced(), f0 + 1);
}

static void test_unlock_all(void **state)
{
	(void)state;
	me = 2;
	console_lock();
	console_lock();
	console_lock();
	console_unlock_all();
	me = 0;
	console_write("y", 1);
	assert_int_equal(vclock, 0);	/* no wait at all */
	assert_string_equal(out, "y");
}

static void test_kprintf_whole_lines(void **state)
{
	char big[600];

	(void)state;
	kprintf("# cpu %u: %s=%llx\n", 3u, "RIP", 0x1234ull);
	assert_int_equal(writes, 1);
	assert_string_equal(out, "# cpu 3: RIP=1234\n");
	memset(big, 'z', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	writes = 0;
	kprintf("%s\n", big);
	assert_int_equal(writes, 3);	/* 256 + 256 + 88 */
	assert_int_equal(outn, 18 + 600);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_one_cpu_no_lock, setup),
		cmocka_unit_test_setup(test_nested_and_wait, setup),
		cmocka_unit_test_setup(test_dead_holder_taken_over, setup),
		cmocka_unit_test_setup(test_unlock_all, setup),
		cmocka_unit_test_setup(test_kprintf_whole_lines, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
