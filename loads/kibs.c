/*
 * kibs.c: the PEBS step of the load tests on AMD (kibs.h): one IBS measurement per kernel,
 * right after its timing, over the same chain, in chunks with interrupts on so each sample's
 * interrupt decodes it into the aggregate; its cost measured as on the Intel path
 * (loads/pebs_cost.h: the same chunks unarmed first). The mean op period is the sav the Intel
 * path would use (~1 % overhead, sav= overrides); each re-arm draws the max count anew
 * (pebs/ibs.c) so samples do not alias with the chain. APM Vol. 2 "IBS"; docs/ibs.md.
 */
#include "loads/kibs.h"
#include "kernel/cmdline.h"
#include "kernel/console.h"
#include "kernel/idt.h"
#include "kernel/tsc.h"
#include "loads/kibs_report.h"
#include "loads/pebs_cost.h"
#include "pebs/pebs.h"

#include <string.h>

#define WORK_BUDGET_MS 300	/* as loads/kpebs.c: a measurement stops here */
#define BASE_BUDGET_MS 30
#define BASE_CHUNKS 8

static struct ibs_measure meas;
static uint8_t dump_buf[64u << 10];
static struct kibs_levels levels;

struct chunk {
	enum chase_kind kind;
	uintptr_t p;
	uint64_t steps, deadline;
};

static bool chunk(void *ctx)
{
	struct chunk *w = ctx;

	if (w->kind == CHASE_LFB)
		w->p = chase_lfb(w->p, w->steps);
	else if (w->kind == CHASE_STORE)
		w->p = chase_store(w->p, w->steps);
	else
		w->p = chase_loads(w->p, w->steps);
	return rdtsc() < w->deadline;
}

static uint64_t clock_tsc(void *ctx)
{
	(void)ctx;
	return rdtsc_ordered();
}

static void warn(const char *msg)
{
	kprintf("# warning: %s\n", msg);
}

struct armed_ctx {
	struct ibs_measure_cfg *cfg;
	struct chunk *w;
	const struct ibs_caps *c;
};

static int armed(void *ctx, uint64_t period, uint64_t *records, uint64_t *irqs, uint64_t *used)
{
	struct armed_ctx *a = ctx;
	uint64_t fl;
	int rc;

	a->cfg->period = period;
	a->cfg->seed = rdtsc();
	a->w->deadline = rdtsc() + tsc_hz / 1000 * WORK_BUDGET_MS;
	fl = irq_save();
	irq_enable();		/* each sample's interrupt decodes it */
	rc = ibs_measure_run(&meas, a->c, a->cfg);
	irq_restore(fl);
	*records = meas.agg.records;
	*irqs = meas.st.irqs;
	*used = period;
	return rc;
}

const char *kibs_unavailable(void)
{
	return ibs_unavailable(ibs_caps_init());
}

enum kt_result kibs_check(struct ktest *t, const struct load_run *r, enum load_target tg)
{
	const struct ibs_caps *c = ibs_caps_init();
	const char *dump = cmdline_get(&kcmdline, "dump");
	unsigned per_step = r->kind == CHASE_LFB ? 8 : 1;
	uint64_t timed = (r->res.have_core ? r->res.core_med_x100 : r->res.tsc_med_x100) / per_step;
	struct chunk w = { .kind = r->kind, .p = r->chain.head,
			   .steps = r->res.steps_per_rep ? r->res.steps_per_rep : 4096 };
	struct pebs_cost_run base = { .work = chunk, .ctx = &w, .clock = clock_tsc,
				      .steps_per_chunk = w.steps };
	struct pebs_cost_run run = base;
	struct ibs_measure_cfg cfg = { .work = pebs_cost_chunk, .work_ctx = &run };
	struct armed_ctx ac = { .cfg = &cfg, .w = &w, .c = c };
	bool user_sav = cmdline_get(&kcmdline, "sav") != NULL;
	struct pebs_config pc;
	struct pebs_cost cost;
	enum kibs_dump dk = KIBS_DUMP_NONE;
	uint64_t fl, period;

	pebs_config_init(&pc, PEBS_LOAD_LATENCY, &kcmdline, warn);
	period = user_sav ? pc.sav : pebs_cost_default_sav(r->ns_x100 / per_step);
	if (dump && (!strcmp(dump, "raw") || !strcmp(dump, "decoded"))) {
		cfg.dump = dump_buf;
		cfg.dump_cap = sizeof(dump_buf);
		dk = !strcmp(dump, "raw") ? KIBS_DUMP_RAW : KIBS_DUMP_DECODED;
	}
	w.deadline = rdtsc() + tsc_hz / 1000 * BASE_BUDGET_MS;
	fl = irq_save();
	irq_enable();
	pebs_cost_baseline(&base, BASE_CHUNKS);
	irq_restore(fl);
	if (pebs_cost_measure(&cost, &base, &run, period, !user_sav, true, tsc_hz, armed, &ac)) {
		kt_check(t, false, "pebs_source # %s", meas.err);
		return kt_verdict(t);
	}
	kibs_report(t, r->name, &meas, c, &cost, tg, timed, r->res.have_core, &levels, dk);
	return kt_verdict(t);
}

void kibs_register(void)
{
	kload_set_pebs_check(kibs_check);
	kload_set_pebs_unavailable(kibs_unavailable);
}
