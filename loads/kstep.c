/*
 * kstep.c: the sampling step of the load kernels, one path for every sampler (kstep.h,
 * loads/sampler.h): the chunked chase work and its timing, the unarmed baseline, the armed
 * run through the sampler with its cost, the sampler's report. A chunk walks the live chain
 * for the kernel's steps per repetition and says whether the measurement's TSC deadline is
 * still ahead; the cost runs time each chunk with the ordered TSC read (kernel/tsc.h).
 */
#include "loads/kstep.h"
#include "loads/sampler.h"
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

struct sample_ctx {
	const struct sampler *s;
	struct kstep *k;
};

/* One armed measurement (a pebs_cost_armed_fn): the step's deadline, interrupts on so each
 * sample's interrupt drains it, the sampler's measure. */
static int armed(void *ctx, uint64_t period, uint64_t *records, uint64_t *irqs, uint64_t *used)
{
	struct sample_ctx *a = ctx;
	struct sampler_result res = { 0 };
	uint64_t fl;
	int rc;

	kstep_arm_deadline(a->k);
	fl = hw_irq_on();
	rc = a->s->measure(a->s->self, period, &res);
	hw_irq_restore(fl);
	*records = res.records;
	*irqs = res.irqs;
	*used = res.period;
	return rc;
}

int kstep_sample_once(const struct load_run *r, enum load_target tg, const struct sampler *s,
		      struct sampler_result *res)
{
	static struct kstep k;	/* the runs point into it: not on the stack */
	struct sample_ctx ac = { .s = s, .k = &k };
	uint64_t period = 0, recs = 0, irqs = 0, used = 0;
	bool user = false;
	int rc;

	kstep_init(&k, r);
	s->prepare(s->self, r, tg, &k, &period, &user);
	rc = armed(&ac, period, &recs, &irqs, &used);
	*res = (struct sampler_result){ .records = recs, .irqs = irqs, .period = used };
	return rc;
}

enum kt_result kstep_sample(struct ktest *t, const struct load_run *r, enum load_target tg,
			    const struct sampler *s)
{
	static struct kstep k;	/* the runs point into it: not on the stack */
	struct sample_ctx ac = { .s = s, .k = &k };
	struct pebs_cost cost;
	uint64_t period = 0;
	bool user = false;
	char b[48];

	kstep_init(&k, r);
	s->prepare(s->self, r, tg, &k, &period, &user);
	kstep_baseline(&k);
	if (pebs_cost_measure(&cost, &k.base, &k.run, period, !user, true, tsc_hz, armed, &ac)) {
		kt_check(t, false, "%s # %s", s->source_name(s->self, b, sizeof(b)),
			 s->error(s->self));
		return kt_verdict(t);
	}
	s->report(s->self, t, r, tg, &cost, k.timed_x100);
	return kt_verdict(t);
}

int kstep_sample_agg(const struct load_run *r, enum load_target tg, const struct sampler *s,
		     const struct pebs_agg **out, const char **why)
{
	struct sampler_result res;

	*out = NULL;
	*why = s->unavailable(s->self);
	if (*why)
		return -1;
	if (kstep_sample_once(r, tg, s, &res)) {
		*why = s->error(s->self);
		return -1;
	}
	*out = s->aggregate(s->self);
	return 0;
}
