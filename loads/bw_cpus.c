/*
 * bw_cpus.c: every CPU of the run at once (loads/bw_cpus.h). The sync block of each run is
 * new (kalloc, kernel/mm.h: it lives until the test ends), so a worker of an earlier run
 * that is still going (its call timed out) counts ready and waits for go on its own run's
 * block, never on a later one's; each AP reads the block from its job when it starts, and
 * the job keeps it. TSC bounds (SDM Vol. 3B 18.17): one deadline for all the answers.
 */
#include "loads/bw_cpus.h"
#include "kernel/extable.h"
#include "kernel/hw.h"
#include "kernel/ktap_undo.h"
#include "kernel/mm.h"
#include "kernel/tsc.h"
#include "smp/smp.h"

static struct {
	struct bw_ap *aps;
	unsigned n;
	struct bw_sync *s;
	uint64_t wait;
} cur;			/* the run in progress, for the runner's undo */

static void ap_worker(void *arg)
{
	struct bw_ap *a = arg;

	write_cr3(read_cr3());	/* buffers the boot CPU mapped since this CPU last ran */
	bw_worker_run(&a->w, a->s);
}

/* Wait for every posted AP until t0 + lim; its result counted by `use` when it answered. */
static void collect(uint64_t lim, struct bw_all *o)
{
	uint64_t t0 = rdtsc(), ms = tsc_hz / 1000 ? tsc_hz / 1000 : 1;

	for (unsigned i = 1; i < cur.n; i++) {
		struct bw_ap *a = &cur.aps[i];
		uint64_t el = rdtsc() - t0;

		if (!a->posted)
			continue;
		a->posted = false;
		if (o)
			o->cpus++;
		if (smp_call_wait(i, el >= lim ? 0 : (uint32_t)((lim - el + ms - 1) / ms)) !=
		    SMP_CALL_DONE) {
			a->bad = true;	/* still running on its run's block: left out */
			continue;
		}
		if (!o)
			continue;
		o->done += a->w.state == BW_W_DONE;
		o->counted &= a->w.sum_ok && a->w.passes &&
			      a->w.bytes == a->w.passes * (a->w.lay.rd + a->w.lay.wr);
		o->gbps_x100 += bw_gbps_x100(a->w.bytes, a->w.ticks, tsc_hz);
		o->bytes += a->w.bytes;
	}
}

/* The runner's undo: the workers told to stop, and waited for. */
static void undo_stop(void *arg)
{
	(void)arg;
	if (!cur.s)
		return;
	__atomic_store_n(&cur.s->stop, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&cur.s->go, 1, __ATOMIC_RELEASE);
	collect(2 * cur.wait, NULL);
}

void bw_run_all(struct bw_ap *aps, unsigned n, enum bw_mode m, uint64_t ws, uint8_t *bsp_buf,
		uint64_t budget, uint64_t wait, struct bw_all *o)
{
	struct bw_worker lead = { .mode = m, .buf = bsp_buf, .ws = ws };
	unsigned others = 0;

	*o = (struct bw_all){ .cpus = 1, .counted = true };
	cur = (typeof(cur)){ .aps = aps, .n = n, .wait = wait,
			     .s = kalloc(sizeof(struct bw_sync), 128) };
	if (!cur.s) {
		o->counted = false;	/* no block for this run: nothing ran */
		return;
	}
	*cur.s = (struct bw_sync){ .wait_ticks = wait };
	kt_undo_drop(undo_stop, NULL);
	kt_undo_push(undo_stop, NULL);
	for (unsigned i = 1; i < n; i++) {
		struct bw_ap *a = &aps[i];

		a->posted = false;
		if (!a->buf || a->bad)
			continue;
		a->w = (struct bw_worker){ .mode = m, .buf = a->buf, .ws = ws };
		a->s = cur.s;
		if (smp_call_start(i, ap_worker, a)) {
			a->posted = true;
			others++;
		} else {
			a->bad = true;
		}
	}
	bw_lead_run(&lead, cur.s, others, budget);
	o->done = lead.state == BW_W_DONE;
	o->counted = lead.sum_ok && lead.bytes == lead.passes * (lead.lay.rd + lead.lay.wr);
	o->gbps_x100 = bw_gbps_x100(lead.bytes, lead.ticks, tsc_hz);
	o->bytes = lead.bytes;
	collect(2 * wait, o);
}

void bw_cpus_done(void)
{
	kt_undo_drop(undo_stop, NULL);
	cur = (typeof(cur)){ 0 };
}
