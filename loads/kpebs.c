/*
 * kpebs.c: the PEBS step of the load tests and the header lines that go with it (kpebs.h).
 * One measurement per kernel, right after its timing, over the same chain: the load-latency
 * event at ldlat= (default the SDM minimum 3: no latency filter), sav= (default: ~1 % PEBS
 * overhead for this kernel's measured speed, docs/latency-method.md §7/§9), work in chunks with
 * interrupts on so the threshold PMI drains (and aggregates) the buffer, print after stop.
 * The cost of it (loads/pebs_cost.h): the same chunks run unarmed first, every chunk timed by
 * the TSC in both runs; above 3 % overhead the measurement runs once more at a sav scaled to
 * ~1 % and says so (pebs_overhead).
 */
#include "loads/kpebs.h"
#include "kernel/cmdline.h"
#include "kernel/console.h"
#include "kernel/cpu.h"
#include "kernel/idt.h"
#include "kernel/tsc.h"
#include "loads/kpebs_print.h"
#include "loads/kpebs_ktap.h"
#include "loads/pebs_cost.h"
#include "loads/pebs_verdict.h"
#include "loads/pv_xsrc.h"
#include "pebs/agg_print.h"
#include "pebs/cycles.h"

#include <string.h>

#define WORK_BUDGET_MS 300	/* a measurement stops here even short of its records */
#define BASE_BUDGET_MS 30	/* the unarmed chunks: at most this long ... */
#define BASE_CHUNKS 8		/* ... and at most this many */

static struct pmu_cycles cyc;
static bool have_core;
static struct pebs_measure meas;	/* ~30 KiB: not on the stack */
static uint8_t dump_buf[PEBS_DUMP_BYTES];
static uint64_t level_p50[LOAD_NLEVELS];
static bool level_have[LOAD_NLEVELS];

static void warn(const char *msg)
{
	kprintf("# warning: %s\n", msg);
}

void kload_header(void)
{
	char b[200];
	int rc;

	for (unsigned i = 0; geometry_header_line(kload_geometry(), i, b, sizeof(b)); i++)
		ktap_diag("%s", b);
	rc = pmu_cycles_init(&cyc, pebs_caps_init());
	if (rc == 0) {
		have_core = true;
		kload_set_core_clock(pmu_cycles_read, &cyc, cyc.name);
	}
	pmu_cycles_header_line(&cyc, rc, b, sizeof(b));
	ktap_diag("%s", b);
	kload_set_pebs_check(kpebs_check);
}

struct work {
	enum chase_kind kind;
	uintptr_t p;
	uint64_t steps, deadline;
};

static uint64_t tsc_clock(void *ctx)
{
	(void)ctx;
	return rdtsc_ordered();
}

static bool work_chunk(void *ctx)
{
	struct work *w = ctx;

	w->p = w->kind == CHASE_LFB ? chase_lfb(w->p, w->steps) :
	       w->kind == CHASE_STORE ? chase_store(w->p, w->steps) : chase_loads(w->p, w->steps);
	return rdtsc() < w->deadline;
}

/* A verdict; a failure also shows this measurement's whole table. */
static void judge(struct ktest *t, const char *name, const char *sub, enum pv_result v,
		  const char *detail)
{
	kpk_judge(t, name, sub, v, detail, &meas.agg);
}

static int level_of(enum load_target tg)
{
	static const int lv[] = { PEBS_LVL_L1, PEBS_LVL_L2, PEBS_LVL_L3, PEBS_LVL_RAM,
				  PEBS_LVL_LFB, -1, -1, PEBS_LVL_RAM };

	return lv[tg];
}

struct armed_ctx {
	struct pebs_measure_cfg *cfg;
	struct work *w;
	const struct pebs_caps *c;
};

/* One armed measurement (a pebs_cost_armed_fn) over the timed chunks of cfg. */
static int armed(void *ctx, uint64_t sav, uint64_t *records, uint64_t *pmis, uint64_t *used)
{
	struct armed_ctx *a = ctx;
	uint64_t fl;
	int rc;

	a->cfg->pc.sav = sav;
	a->w->deadline = rdtsc() + tsc_hz / 1000 * WORK_BUDGET_MS;
	fl = irq_save();
	irq_enable();		/* the threshold PMI drains the buffer */
	rc = pebs_measure_run(&meas, a->c, a->cfg);
	irq_restore(fl);
	*records = meas.agg.records;
	*pmis = meas.st.pmis;
	*used = meas.sav;
	return rc;
}

enum kt_result kpebs_check(struct ktest *t, const struct load_run *r, enum load_target tg)
{
	const struct pebs_caps *c = pebs_caps_init();
	const char *dump = cmdline_get(&kcmdline, "dump");
	unsigned per_step = r->kind == CHASE_LFB ? 8 : 1;
	uint64_t timed = (r->res.have_core ? r->res.core_med_x100 : r->res.tsc_med_x100) / per_step;
	struct work w = { .kind = r->kind, .p = r->chain.head,
			  .steps = r->res.steps_per_rep ? r->res.steps_per_rep : 4096 };
	struct pebs_cost_run base = { .work = work_chunk, .ctx = &w, .clock = tsc_clock,
				      .steps_per_chunk = w.steps };
	struct pebs_cost_run run = base;
	struct pebs_measure_cfg cfg = { .work = pebs_cost_chunk, .work_ctx = &run };
	struct pebs_cost cost;
	struct armed_ctx ac = { .cfg = &cfg, .w = &w, .c = c };
	int lvl = level_of(tg);
	char d[200];
	uint64_t fl;
	int rc;

	pebs_config_init(&cfg.pc, tg == TGT_STORE ? PEBS_STORE : PEBS_LOAD_LATENCY, &kcmdline,
			 warn);
	if (!cmdline_get(&kcmdline, "sav"))
		cfg.pc.sav = pebs_cost_default_sav(r->ns_x100 / per_step);
	if (dump && (!strcmp(dump, "raw") || !strcmp(dump, "decoded"))) {
		cfg.dump = dump_buf;
		cfg.dump_cap = sizeof(dump_buf);
	}
	w.deadline = rdtsc() + tsc_hz / 1000 * BASE_BUDGET_MS;
	fl = irq_save();
	irq_enable();		/* as in the armed run: the same interrupts may come */
	pebs_cost_baseline(&base, BASE_CHUNKS);
	irq_restore(fl);
	rc = pebs_cost_measure(&cost, &base, &run, cfg.pc.sav, !cmdline_get(&kcmdline, "sav"),
			       true, tsc_hz, armed, &ac);
	if (rc) {
		kt_check(t, false, "pebs_source # %s", meas.err);
		return kt_verdict(t);
	}
	kp_summary(kpk_line, t, r->name, &meas, &cost, lvl, timed, r->res.have_core);
	kp_table(kpk_line, t, r->name, &meas.agg);
	if (cfg.dump)
		kp_dump(kpk_line, t, r->name, &meas, c, !strcmp(dump, "raw"));

	judge(t, r->name, "pebs_overhead", pv_overhead(&cost, meas.sav, d, sizeof(d)), d);
	if (tg == TGT_STORE) {
		judge(t, r->name, "pebs_store", pv_store(meas.agg.records, meas.st_hit, meas.st_miss,
						   meas.model ? meas.model->store : PEBS_ST_NONE,
						   d, sizeof(d)), d);
		return kt_verdict(t);
	}
	if (tg == TGT_STLB) {
		judge(t, r->name, "pebs_stlb", pv_stlb(&meas.agg, meas.ab.stlb_mask != 0, d, sizeof(d)), d);
		return kt_verdict(t);
	}
	judge(t, r->name, "pebs_source", pv_source(&meas.agg, (enum pebs_level)lvl, d, sizeof(d)), d);
	if (tg == TGT_REMOTE)	/* the DRAM level as above; then: was it the other node's? */
		judge(t, r->name, "pebs_remote", pv_xsrc(&meas.agg, meas.model, PV_X_REMOTE, d,
							 sizeof(d)), d);
	if (tg == TGT_LFB || tg == TGT_REMOTE)
		return kt_verdict(t);
	judge(t, r->name, "pebs_latency", pv_latency(&meas.agg, (enum pebs_level)lvl, timed,
					       r->res.have_core, d, sizeof(d)), d);
	if (meas.agg.lvl[lvl].count) {
		level_p50[tg] = pebs_agg_percentile(&meas.agg.lvl[lvl], 500);
		level_have[tg] = true;
	}
	if (tg == TGT_L1)
		return kt_verdict(t);
	if (!level_have[tg - 1] || !level_have[tg])
		kt_skip_sub(t, "pebs_rises", "%s", !level_have[tg] ? "no target-level latency" :
			    "the level below was not measured with PEBS in this run");
	else
		judge(t, r->name, "pebs_rises", pv_rises(level_p50[tg - 1], load_level_name(tg - 1),
						   level_p50[tg], d, sizeof(d)), d);
	return kt_verdict(t);
}
