/*
 * bw_sync.c: one bandwidth mode on several CPUs at once (loads/bw.h bw_worker_run,
 * bw_lead_run). Flags on their own 128-byte lines (struct bw_sync), read with acquire and
 * written with release ordering (SDM Vol. 3A 9.2.2: x86 keeps stores in order and loads in
 * order, so the acquire/release pairs cost nothing but keep the compiler from moving the
 * buffer accesses across them). Every wait is bounded by sync->wait_ticks (TSC), so a CPU that
 * never answers costs a bound, never a hang; past the bound the flag is read once more, since
 * the time may have passed in an SMI (SDM Vol. 3C "System Management Mode Overview": SMM is
 * invisible to the code it interrupts) while the flag was raised in time. A lead that gives
 * up says so through go = BW_GO_ABORT, and no worker runs a pass for it. The kernel runs the
 * workers through smp_call_start (ktests/bandwidth.c), tools/loadbench as pinned threads;
 * tests/host/bw_sync_test.c runs the interleavings on the virtual clock,
 * tests/host/bw_threads_test.c real threads.
 */
#include "loads/bw.h"
#include "kernel/hw.h"

static bool wait_for(volatile uint32_t *v, uint32_t want, uint64_t bound)
{
	uint64_t t0 = rdtsc();

	while (__atomic_load_n(v, __ATOMIC_ACQUIRE) < want) {
		if (rdtsc() - t0 > bound)	/* one more look: an SMI may have hidden it */
			return __atomic_load_n(v, __ATOMIC_ACQUIRE) >= want;
		__builtin_ia32_pause();
	}
	return true;
}

/* Passes from go until stop is set, or `budget` ticks passed (0: until stop or the bound). */
static void run_passes(struct bw_worker *w, struct bw_sync *s, uint64_t budget)
{
	uint64_t t0 = rdtsc_ordered(), t1 = t0, lim = budget ? budget : s->wait_ticks;
	bool ok = true;

	do {
		ok &= bw_pass(w->mode, w->buf, &w->lay, BW_FILL) == bw_sum_of(w->lay.rd, BW_FILL);
		w->passes++;
		t1 = rdtsc_ordered();
	} while (!__atomic_load_n(&s->stop, __ATOMIC_ACQUIRE) && t1 - t0 < lim);
	w->ticks = t1 - t0;
	w->bytes = w->passes * (w->lay.rd + w->lay.wr);
	if (w->mode == BW_WRITE || w->mode == BW_WRITE_NT)
		ok = bw_pass(BW_READ, w->buf, &(struct bw_layout){ .rd = w->lay.wr }, 0) ==
		     bw_sum_of(w->lay.wr, BW_FILL);
	w->sum_ok = ok;
}

static bool prepare(struct bw_worker *w)
{
	w->passes = w->bytes = w->ticks = 0;
	w->sum_ok = false;
	if (bw_layout(w->mode, w->ws, &w->lay)) {
		w->state = BW_W_BAD;
		return false;
	}
	bw_fill(w->buf, &w->lay);
	return true;
}

void bw_worker_run(struct bw_worker *w, struct bw_sync *s)
{
	if (!prepare(w)) {
		__atomic_fetch_add(&s->ready, 1, __ATOMIC_RELEASE);
		return;
	}
	w->state = BW_W_READY;
	__atomic_fetch_add(&s->ready, 1, __ATOMIC_RELEASE);
	if (!wait_for(&s->go, BW_GO, s->wait_ticks) ||
	    __atomic_load_n(&s->go, __ATOMIC_ACQUIRE) != BW_GO) {	/* no go, or abort */
		w->state = BW_W_NO_GO;
		return;
	}
	run_passes(w, s, 0);
	w->state = BW_W_DONE;
}

int bw_lead_run(struct bw_worker *w, struct bw_sync *s, unsigned others, uint64_t budget_ticks)
{
	bool ready = wait_for(&s->ready, others, s->wait_ticks);

	if (!ready || !prepare(w)) {
		__atomic_store_n(&s->stop, 1, __ATOMIC_RELEASE);
		/* nobody waits out the bound, nobody runs */
		__atomic_store_n(&s->go, BW_GO_ABORT, __ATOMIC_RELEASE);
		if (w->state != BW_W_BAD)
			w->state = BW_W_NO_GO;
		return -1;
	}
	__atomic_store_n(&s->go, BW_GO, __ATOMIC_RELEASE);
	run_passes(w, s, budget_ticks ? budget_ticks : 1);
	__atomic_store_n(&s->stop, 1, __ATOMIC_RELEASE);
	w->state = BW_W_DONE;
	return 0;
}
