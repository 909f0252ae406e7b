/*
 * xcore.c: the cross-core load kernels (loads/xcore.h). The measuring side runs on the boot
 * CPU, the helper side on an AP through smp_call_start (smp/smp.h). SDM Vol. 3A 12.4 (MESI:
 * a read of a line another core holds is answered by a snoop; a modified line is written
 * back/forwarded, HITM), Vol. 2A CLFLUSH ("invalidates ... in all levels of the processor
 * cache hierarchy ... broadcast throughout the cache coherence domain"), RDTSC ordering with
 * LFENCE (rdtsc_ordered in kernel/hw.h). Which CPUs take part, the bound of a step and the
 * sides still out from an earlier run: loads/xcore_cpus.c.
 */
#include "loads/xcore.h"
#include "kernel/extable.h"
#include "kernel/hw.h"
#include "kernel/mm.h"
#include "kernel/tsc.h"
#include "kernel/fmt.h"
#include "loads/kload.h"
#include "smp/smp.h"

#include <string.h>

#define LINE 64u
#define K_INIT 0x9e3779b97f4a7c15ull	/* value the measuring CPU leaves in line i: (i+1)*K */
#define K_HELP 0xc2b2ae3d27d4eb4full	/* value the helper writes (HITM) */

struct xsync {
	volatile uint64_t go __attribute__((aligned(128)));	/* measuring CPU -> helper */
	volatile uint64_t ack __attribute__((aligned(128)));	/* helper -> measuring CPU */
	volatile uint64_t sum __attribute__((aligned(128)));	/* helper's private result */
	volatile uint64_t fail;
	uint8_t *lines;
	unsigned n;
	enum xcore_kind kind;
};
#define GO_STOP (~0ull)	/* `go` value that ends the helper early (the budget was spent) */

/* Wait until *v >= want (the flags only grow); false at the bound. */
static bool wait_ge(volatile uint64_t *v, uint64_t want, uint64_t lim)
{
	uint64_t t0 = rdtsc();

	while (__atomic_load_n(v, __ATOMIC_ACQUIRE) < want) {
		if (rdtsc() - t0 > lim)
			return false;
		__builtin_ia32_pause();
	}
	return true;
}

static inline void clflush(const volatile void *p)
{
	__asm__ volatile("clflush (%0)" :: "r"(p) : "memory");
}

static inline void mfence(void)
{
	__asm__ volatile("mfence" ::: "memory");
}

/* The helper, on the AP: touch line i when told, never any other measured line. */
static void helper(void *arg)
{
	struct xsync *s = arg;
	uint64_t lim = tsc_hz / 1000 * xcore_step_ms();

	for (uint64_t i = 1; i <= s->n; i++) {
		volatile uint64_t *line = (volatile uint64_t *)(s->lines + (i - 1) * LINE);

		if (!wait_ge(&s->go, i, lim)) {
			s->fail = i;
			return;
		}
		if (s->go == GO_STOP)
			return;
		if (s->kind == XCORE_SNOOP)
			s->sum += *line;
		else if (s->kind == XCORE_HITM)
			*line = i * K_HELP;
		__atomic_store_n(&s->ack, i, __ATOMIC_RELEASE);
	}
}

static uint64_t sub_floor(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

static uint64_t overhead_ticks(void)
{
	uint64_t best = ~0ull;

	for (unsigned i = 0; i < 64; i++) {
		uint64_t t0 = rdtsc_ordered(), t1 = rdtsc_ordered();

		if (t1 - t0 < best)
			best = t1 - t0;
	}
	return best;
}

static int fail(struct xcore_run *r, const char *fmt, unsigned a, unsigned b)
{
	fmt_snprintf(r->whybuf, sizeof(r->whybuf), fmt, a, b);
	r->why = r->whybuf;
	return -1;
}

/* Mean, min and medians (chase_median: loads/chase.h; it sorts in place). */
static void summarise(struct xcore_run *r, uint64_t *x, uint64_t *l1, uint64_t *cc)
{
	uint64_t sum = 0;

	for (unsigned i = 0; i < r->loads; i++)
		sum += x[i];
	r->tsc_mean = r->loads ? sum / r->loads : 0;
	r->tsc_med = r->loads ? chase_median(x, r->loads) : 0;
	r->tsc_min = r->loads ? x[0] : 0;
	r->l1_med = r->loads ? chase_median(l1, r->loads) : 0;
	if (cc)
		r->core_med = r->loads ? chase_median(cc, r->loads) : 0;
}

static struct xsync s;
static uint64_t x[XCORE_MAX_LOADS], l1[XCORE_MAX_LOADS], cc[XCORE_MAX_LOADS];
static uint64_t (*core)(void *);
static void *cctx;
static uint64_t helper_sum;

/* The lines and the handshake state for r (nothing started yet). */
static int prepare(struct xcore_run *r)
{
	unsigned n = r->want > XCORE_MAX_LOADS ? XCORE_MAX_LOADS : r->want, busy = xcore_still_late();

	if (busy)
		return fail(r, "cpu%u still runs its side of an earlier pair: not started over "
			    "it (%u loads timed)", busy, 0);
	r->loads = r->bad_values = 0;
	r->helper_sum_ok = false;
	helper_sum = 0;
	memset((void *)&s, 0, sizeof(s));
	s.lines = kalloc((uint64_t)n * LINE, PAGE_4K);
	if (!s.lines)
		return fail(r, "no memory for %u lines of %u bytes", n, LINE);
	s.n = n;
	s.kind = r->kind;
	for (unsigned i = 0; i < n; i++)
		*(volatile uint64_t *)(s.lines + i * LINE) = (i + 1) * K_INIT;
	return 0;
}

int xcore_begin(struct xcore_run *r)
{
	/* the registered core clock counts on the boot CPU only */
	core = smp_this_cpu() == 0 ? kload_core_clock(&cctx, &r->core_name) : NULL;
	if (prepare(r))
		return -1;
	if (!smp_call_start(r->helper, helper, &s))
		return fail(r, "helper cpu%u is not online or still busy (%u loads timed)", r->helper, 0);
	r->overhead = overhead_ticks();
	return 0;
}

bool xcore_step(struct xcore_run *r)
{
	unsigned i = r->loads + 1;
	volatile uint64_t *line = (volatile uint64_t *)(s.lines + (i - 1) * LINE);
	uint64_t t0, t1, t2, c0 = 0, c1 = 0, v, want;

	if (i > s.n)
		return false;
	clflush(line);
	mfence();
	__atomic_store_n(&s.go, i, __ATOMIC_RELEASE);
	if (!wait_ge(&s.ack, i, tsc_hz / 1000 * xcore_step_ms()))
		return false;
	if (core)
		c0 = core(cctx);
	t0 = rdtsc_ordered();
	v = *line;
	t1 = rdtsc_ordered();
	if (core)
		c1 = core(cctx);
	(void)*line;
	t2 = rdtsc_ordered();
	want = r->kind == XCORE_HITM ? i * K_HELP : i * K_INIT;
	r->bad_values += v != want;
	helper_sum += i * K_INIT;
	x[r->loads] = sub_floor(t1 - t0, r->overhead);
	l1[r->loads] = sub_floor(t2 - t1, r->overhead);
	cc[r->loads] = c1 - c0;
	r->loads++;
	return true;
}

/* Sum r up; rc: how the helper's call ended (SMP_CALL_DONE when it ran here). */
static int finish(struct xcore_run *r, int rc)
{
	r->helper_sum_ok = r->kind != XCORE_SNOOP || s.sum == helper_sum;
	summarise(r, x, l1, core ? cc : NULL);
	if (r->loads < s.n && r->loads < 32)
		return fail(r, "helper cpu%u did not answer line %u within the bound", r->helper,
			    r->loads + 1);
	if (rc != SMP_CALL_DONE)
		return fail(r, "helper cpu%u ended with %d (a fault vector, or -2: still running)",
			    r->helper, (unsigned)rc);
	if (s.fail)
		return fail(r, "helper cpu%u timed out waiting for line %u", r->helper,
			    (unsigned)s.fail);
	return 0;
}

int xcore_end(struct xcore_run *r)
{
	int rc;

	__atomic_store_n(&s.go, GO_STOP, __ATOMIC_RELEASE);	/* ends a helper still waiting */
	rc = smp_call_wait(r->helper, 2 * xcore_step_ms());
	xcore_note_late(1, r->helper, rc);
	return finish(r, rc);
}

/* Time lines until done, or the budget is spent after 32. */
static void time_lines(struct xcore_run *r)
{
	uint64_t t_start = rdtsc(), budget = tsc_hz / 1000 * r->budget_ms;

	while (xcore_step(r) && (r->loads < 32 || rdtsc() - t_start <= budget))
		;
}

int xcore_run(struct xcore_run *r)
{
	if (xcore_begin(r))
		return -1;
	time_lines(r);
	return xcore_end(r);
}

/* The measuring side of xcore_run_pair, on r->measurer (an AP): its own TSC, no core clock. */
static void measure_side(void *arg)
{
	struct xcore_run *r = arg;

	write_cr3(read_cr3());	/* no stale TLB entry for lines the boot CPU mapped since */
	r->overhead = overhead_ticks();
	time_lines(r);
	__atomic_store_n(&s.go, GO_STOP, __ATOMIC_RELEASE);	/* the helper ends here too */
}

int xcore_run_pair(struct xcore_run *r)
{
	static struct xcore_run job;	/* the measurer's copy: a late one never writes into r */
	uint32_t bound = r->budget_ms + (r->want + 2) * (uint32_t)xcore_step_ms();
	int rc = SMP_CALL_DONE, mr;

	if (r->measurer == 0)
		return xcore_run(r);
	core = NULL;	/* as in xcore_begin */
	r->core_med = 0;
	if (prepare(r))
		return -1;
	job = *r;
	if ((r->helper && !smp_call_start(r->helper, helper, &s)) ||
	    !smp_call_start(r->measurer, measure_side, &job)) {
		__atomic_store_n(&s.go, GO_STOP, __ATOMIC_RELEASE);	/* a started helper ends */
		if (r->helper)
			xcore_note_late(1, r->helper, smp_call_wait(r->helper, 2 * xcore_step_ms()));
		return fail(r, "cpu%u or cpu%u is not online or still busy", r->measurer, r->helper);
	}
	if (r->helper == 0)
		helper(&s);	/* the boot CPU is the helper: its side runs here */
	mr = smp_call_wait(r->measurer, bound);
	xcore_note_late(0, r->measurer, mr);
	__atomic_store_n(&s.go, GO_STOP, __ATOMIC_RELEASE);
	if (r->helper) {
		rc = smp_call_wait(r->helper, 2 * xcore_step_ms());
		xcore_note_late(1, r->helper, rc);
	}
	if (mr == SMP_CALL_DONE) {
		r->loads = job.loads;
		r->bad_values = job.bad_values;
		r->overhead = job.overhead;
	}
	if (mr != SMP_CALL_DONE)
		return fail(r, "measuring cpu%u ended with %d (a fault vector, or -2: still running)",
			    r->measurer, (unsigned)mr);
	return finish(r, rc);
}
