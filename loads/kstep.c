/*
 * kstep.c: the chunked chase work and its timing shared by the PEBS and IBS steps (kstep.h).
 * A chunk walks the live chain for the kernel's steps per repetition and says whether the
 * measurement's TSC deadline is still ahead; the cost runs time each chunk with the ordered
 * TSC read (kernel/tsc.h).
 */
#include "loads/kstep.h"
#include "kernel/console.h"
#include "kernel/hw.h"
#include "kernel/tsc.h"

static bool chunk(void *ctx)
{
	struct kstep_work *w = ctx;

	w->p = w->kind == CHASE_LFB ? chase_lfb(w->p, w->steps) :
	       w->kind == CHASE_STORE ? chase_store(w->p, w->steps) : chase_loads(w->p, w->steps);
	return rdtsc() < w->deadline;
}

static uint64_t tsc_clock(void *ctx)
{
	(void)ctx;
	return rdtsc_ordered();
}

void kstep_init(struct kstep *k, const struct load_run *r)
{
	k->per_step = r->kind == CHASE_LFB ? 8 : 1;
	k->timed_x100 = (r->res.have_core ? r->res.core_med_x100 : r->res.tsc_med_x100) /
			k->per_step;
	k->w = (struct kstep_work){ .kind = r->kind, .p = r->chain.head,
				    .steps = r->res.steps_per_rep ? r->res.steps_per_rep : 4096 };
	k->base = (struct pebs_cost_run){ .work = chunk, .ctx = &k->w, .clock = tsc_clock,
					  .steps_per_chunk = k->w.steps };
	k->run = k->base;
}

void kstep_baseline(struct kstep *k)
{
	uint64_t fl;

	k->w.deadline = rdtsc() + tsc_hz / 1000 * KSTEP_BASE_MS;
	fl = hw_irq_on();	/* as in the armed run: the same interrupts may come */
	pebs_cost_baseline(&k->base, KSTEP_BASE_CHUNKS);
	hw_irq_restore(fl);
}

void kstep_arm_deadline(struct kstep *k)
{
	k->w.deadline = rdtsc() + tsc_hz / 1000 * KSTEP_WORK_MS;
}

void kstep_warn(const char *msg)
{
	kprintf("# warning: %s\n", msg);
}
