/*
 * console.c: fan-out of kernel output to the registered backends (kprintf: kprintf.c), and
 * the console lock that keeps CPUs' output apart. Once smp_init has an application processor
 * online it installs console_set_cpu; from then on every write and emit takes the lock: a
 * spinlock with an owner, so the CPU that holds it may write again (an exception dump inside
 * a kprintf, a PMI handler's line), taken with LOCK CMPXCHG (GCC's __atomic builtins; SDM
 * Vol. 3A 9.1.2.2 "Software Controlled Bus Locking") and spun on with PAUSE (Vol. 2B) while
 * another CPU holds it. The spin is bounded by the caller's clock: past the bound the waiter
 * takes the lock anyway (the holder may have died holding it), counts it and says so. With
 * one CPU no hook is set and a write costs one test of a NULL pointer.
 */
#include "kernel/console.h"
#include "kernel/fmt.h"

#include <stdbool.h>

static struct console_backend *backends;
static void (*hold)(const char *s, size_t n);

static unsigned (*cpu_id)(void);
static uint64_t (*clock_now)(void);
static uint64_t spin_bound;
static volatile unsigned lock_owner;	/* 0 free, else owner's CPU number + 1 */
static unsigned lock_depth, forced;

void console_register(struct console_backend *be)
{
	struct console_backend **p = &backends;

	while (*p && *p != be)
		p = &(*p)->next;
	if (!*p) {
		be->next = NULL;
		*p = be;
	}
}

void console_set_hold(void (*fn)(const char *s, size_t n))
{
	hold = fn;
}

void console_set_cpu(unsigned (*id)(void), uint64_t (*now)(void), uint64_t bound)
{
	lock_owner = 0;
	lock_depth = 0;
	clock_now = now;
	spin_bound = bound;
	cpu_id = id;
}

unsigned console_forced(void)
{
	return forced;
}

static inline void relax(void)
{
	__builtin_ia32_pause();
}

void console_lock(void)
{
	unsigned me, cur = 0;
	uint64_t t0;

	if (!cpu_id)
		return;
	me = cpu_id() + 1;
	if (__atomic_load_n(&lock_owner, __ATOMIC_RELAXED) == me) {
		lock_depth++;
		return;
	}
	if (__atomic_compare_exchange_n(&lock_owner, &cur, me, false, __ATOMIC_ACQUIRE,
					__ATOMIC_RELAXED)) {
		lock_depth = 1;
		return;
	}
	t0 = clock_now();
	for (;;) {
		relax();
		cur = 0;
		if (__atomic_load_n(&lock_owner, __ATOMIC_RELAXED) == 0 &&
		    __atomic_compare_exchange_n(&lock_owner, &cur, me, false, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED)) {
			lock_depth = 1;
			return;
		}
		if (clock_now() - t0 > spin_bound)
			break;
	}
	/* the holder kept it past the bound: take it over, count it, say who */
	cur = __atomic_exchange_n(&lock_owner, me, __ATOMIC_ACQUIRE);
	lock_depth = 1;
	forced++;
	{
		/* written here, not through kprintf (kprintf.c writes through console.c) */
		char line[96];
		int n = fmt_snprintf(line, sizeof(line), "# console: cpu%u held the console past "
				     "the bound: cpu%u writes anyway (%u time%s)\n",
				     cur ? cur - 1 : 0, me - 1, forced, forced == 1 ? "" : "s");

		console_write(line, n < 0 ? 0 : (size_t)n < sizeof(line) ? (size_t)n :
			      sizeof(line) - 1);
	}
}

void console_unlock(void)
{
	if (!cpu_id || __atomic_load_n(&lock_owner, __ATOMIC_RELAXED) != cpu_id() + 1)
		return;		/* not ours (taken over past the bound): leave it */
	if (--lock_depth == 0)
		__atomic_store_n(&lock_owner, 0, __ATOMIC_RELEASE);
}

void console_unlock_all(void)
{
	if (cpu_id && __atomic_load_n(&lock_owner, __ATOMIC_RELAXED) == cpu_id() + 1) {
		lock_depth = 0;
		__atomic_store_n(&lock_owner, 0, __ATOMIC_RELEASE);
	}
}

void console_write(const char *s, size_t n)
{
	console_lock();
	if (hold)
		hold(s, n);
	else
		console_emit(s, n);
	console_unlock();
}

void console_emit(const char *s, size_t n)
{
	console_lock();
	for (struct console_backend *be = backends; be; be = be->next)
		be->write(be, s, n);
	console_unlock();
}
