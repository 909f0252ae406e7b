/*
 * model_log_pebs.c: the PEBS step of tools/model-log (model_log.h). It runs what loads/kpebs.c
 * kpebs_check runs on hardware, over the PMU model (tests/model/pmu_model.h) instead of a live
 * chain: pebs/measure.c programs the load-latency event and drains the model's records through
 * the driver's PMI into the aggregate; loads/kpebs_print.c prints the `pebs`, `lvl`, `hist`,
 * `dump`, `raw`/`rec` lines; loads/pebs_verdict.c judges (pebs_source, pebs_latency,
 * pebs_rises), and a failed verdict appends sample/agg_print.c's full table (`|` lines), as
 * kpebs.c does. Only the workload differs (model_log_feed.c): the records' data sources (per
 * level, found through the decoder's own table) and latencies (uniform in a per-level range)
 * are drawn from the seeded generator per the mix. Also the steps of the other kernels
 * (ml_pebs_target, ml_xcore_pebs) for model_log_special.c.
 */
#include "tools/model_log.h"
#include "kernel/console.h"
#include "loads/kpebs_judge.h"
#include "loads/pebs_cost.h"
#include "loads/plan.h"
#include "loads/kload.h"
#include "loads/xcore.h"
#include "model/pmu_model.h"
#include "pebs/measure.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DUMP_RECORDS 280	/* fits PEBS_DUMP_BYTES at the largest record (Skylake 192 B) */
#define CHUNK_EVENTS (256 * 8)	/* events one work chunk feeds (model_log_feed.c) */
#define BASE_CHUNKS 8		/* unarmed chunks timed for the cost (as kpebs.c) */

static struct pebs_measure boot_meas;	/* as in kpebs.c: static, not on the stack */
static uint8_t dump_buf[PEBS_DUMP_BYTES];
static struct kpebs_levels levels;	/* pebs_rises: the medians of one CPU's levels */
static unsigned level_cpu;	/* the CPU `levels` belong to */


static uint64_t model_clock(void *ctx)
{
	(void)ctx;
	return model_tsc();
}

struct ml_armed {
	struct pebs_measure_cfg *cfg;
	struct ml_feed *f;
	const struct pebs_caps *c;
	struct pebs_cpu *pc;	/* per-CPU run: that CPU's state (pebs_cpu_measure) */
	struct pebs_measure *m;
	uint64_t want;
};

/* One armed measurement (a pebs_cost_armed_fn): events for `want` records at sav. */
static int armed(void *ctx, uint64_t sav, uint64_t *records, uint64_t *pmis, uint64_t *used)
{
	struct ml_armed *a = ctx;
	uint64_t ev = a->want * (sav + 1);
	int rc;

	a->cfg->pc.sav = sav;
	a->f->events_left = ev;
	rc = a->pc ? pebs_cpu_measure(a->pc, a->cfg) : pebs_measure_run(a->m, a->c, a->cfg);
	*records = a->m->agg.records;
	*pmis = a->m->st.pmis;
	*used = a->m->sav;
	return rc;
}

/* One PEBS measurement of target tg over f's records, and its lines and verdicts as
 * loads/kpebs.c step_run reports them (loads/kpebs_judge.h); a failed measurement is a failed
 * pebs_source naming why. */
static void measure(struct ktest *t, const char *name, const struct pebs_caps *c,
		    const struct ml_opts *o, uint64_t timed_x100, enum load_target tg,
		    struct ml_feed *f)
{
	uint64_t want = o->dump != ML_DUMP_NONE ? DUMP_RECORDS : PEBS_MEASURE_RECORDS;
	uint64_t tick_per_load = timed_x100 / 110 ? timed_x100 / 110 : 1;	/* TSC = core/1.10 */
	static struct ml_feed bf;
	struct pebs_cost_run base = { .work = ml_work, .ctx = &bf, .clock = model_clock,
				      .step_count = &bf.fed };
	struct pebs_cost_run run = { .work = ml_work, .ctx = f, .clock = model_clock,
				     .step_count = &f->fed };
	struct pebs_measure_cfg cfg = { .work = pebs_cost_chunk, .work_ctx = &run,
					.target_records = want };
	struct pebs_measure *m = o->pc ? &o->pc->meas : &boot_meas;
	struct ml_armed ac = { .cfg = &cfg, .f = f, .c = c, .pc = o->pc, .m = m, .want = want };
	const struct kpebs_step_report kr = {
		.name = name, .sub = o->sub ? o->sub : "", .tg = tg, .timed_x100 = timed_x100,
		.have_core = true, .dump = o->dump != ML_DUMP_NONE, .raw = o->dump == ML_DUMP_RAW,
		.lv = &levels,
	};
	struct pebs_cost cost;

	model_set_costs(tick_per_load, o->assist_ns * o->tsc_khz / 1000000,
			o->pmi_ns * o->tsc_khz / 1000000);
	pebs_config_init(&cfg.pc, tg == TGT_STORE ? PEBS_STORE : PEBS_LOAD_LATENCY, NULL, NULL);
	cfg.pc.counters = o->counters;	/* pebs_counters=on */
	kpebs_cfg_target(&cfg, tg);
	if (o->dump != ML_DUMP_NONE) {
		cfg.dump = dump_buf;
		cfg.dump_cap = sizeof(dump_buf);
	}
	bf = *f;
	bf.events_left = BASE_CHUNKS * CHUNK_EVENTS;
	pebs_cost_baseline(&base, BASE_CHUNKS);
	if (pebs_cost_measure(&cost, &base, &run, o->sav, !o->sav_given, true,
			      o->tsc_khz * 1000, armed, &ac)) {
		kt_check(t, false, "%spebs_source # %s", kr.sub, m->err);
		return;
	}
	kpebs_report(t, &kr, c, m, &cost);
}

void ml_pebs_step(struct ktest *t, unsigned k, const char *name, const struct pebs_caps *c,
		  const struct ml_opts *o, uint64_t timed_x100)
{
	struct ml_feed f = { .mx = ml_mix_row(o->mix, k) };

	if (level_cpu != o->cpu) {	/* pebs_rises compares levels of one CPU */
		memset(&levels, 0, sizeof(levels));
		level_cpu = o->cpu;
	}
	for (unsigned i = 0; i < 3 && f.mx->p[i].pct; i++) {
		f.code[i] = ml_code_for(c, f.mx->p[i].lvl);
		ml_lat_range(f.mx->p[i].lvl, o, &f.lo[i], &f.hi[i]);
	}
	measure(t, name, c, o, timed_x100, (enum load_target)k, &f);
}

/* f's codes and latency ranges for the parts of mx, for event ev; false: a part has none. */
static bool setup(struct ml_feed *f, const struct pebs_caps *c, const struct ml_opts *o,
		  enum pebs_event ev, const struct ml_mixrow *mx)
{
	f->mx = mx;
	for (unsigned i = 0; i < 3 && mx->p[i].pct; i++) {
		if (!ml_find_code(c, ev, mx->p[i].lvl, mx->p[i].want, &f->code[i]))
			return false;
		ml_lat_range(mx->p[i].lvl, o, &f->lo[i], &f->hi[i]);
		if (!f->hi[i])
			f->lo[i] = 1, f->hi[i] = 2;	/* a store: no latency */
	}
	return true;
}

bool ml_pebs_target(struct ktest *t, const char *name, const struct pebs_caps *c,
		    const struct ml_opts *o, uint64_t timed_x100, int tg,
		    const struct ml_mixrow *mx)
{
	struct ml_feed f = { 0 };

	if (!setup(&f, c, o, tg == TGT_STORE ? PEBS_EV_STORE : PEBS_EV_LOAD, mx))
		return false;
	if (tg == TGT_STORE)
		f.event = model_cpu()->st_event;
	measure(t, name, c, o, timed_x100, (enum load_target)tg, &f);
	return true;
}

const struct pebs_agg *ml_pebs_agg(const struct pebs_caps *c, const struct ml_opts *o,
				   const struct ml_mixrow *mx, unsigned ldlat, uint64_t sav,
				   const char **why)
{
	struct ml_feed f = { 0 };
	struct pebs_cost_run run = { .work = ml_work, .ctx = &f, .clock = model_clock,
				     .step_count = &f.fed };
	struct pebs_measure_cfg cfg = { .work = pebs_cost_chunk, .work_ctx = &run };

	*why = "no such data source in this CPU's table";
	if (!setup(&f, c, o, PEBS_EV_LOAD, mx))
		return NULL;
	f.events_left = 4096 * 3;
	model_set_costs(100, o->assist_ns * o->tsc_khz / 1000000, o->pmi_ns * o->tsc_khz / 1000000);
	pebs_config_init(&cfg.pc, PEBS_LOAD_LATENCY, NULL, NULL);
	cfg.pc.ldlat = ldlat;
	cfg.pc.sav = sav;
	*why = boot_meas.err;
	return pebs_measure_run(&boot_meas, c, &cfg) ? NULL : &boot_meas.agg;
}

/* loads/xcore_pebs.c: ldlat 32 (the handshake's spin loads are not sampled), sav 2. */
void ml_xcore_pebs(struct ktest *t, const char *name, const struct pebs_caps *c,
		   const struct ml_opts *o, int kind, const struct ml_mixrow *mx)
{
	const char *why;
	char d[200];
	int v;

	if (!ml_pebs_agg(c, o, mx, 32, 2, &why)) {
		if (why != boot_meas.err)	/* the table has no such code */
			kt_skip_sub(t, "pebs_source", "%s", why);
		else
			kt_check(t, false, "pebs_source # %s", why);
		return;
	}
	kt_info(t, "%s pebs: %u loads, ldlat %u, sav %llu, %llu records, %llu PMIs", name,
		4096u, boot_meas.ldlat, (unsigned long long)boot_meas.sav,
		(unsigned long long)boot_meas.agg.records, (unsigned long long)boot_meas.st.pmis);
	v = xcore_pebs_verdict(&boot_meas.agg, (enum xcore_kind)kind, d, sizeof(d));
	if (v < 0)
		kt_skip_sub(t, "pebs_source", "too few records: %s", d);
	else
		kt_check(t, v == 1, "pebs_source # %s", d);
}

/* One load-latency measurement of mix row mx, nothing printed (load_loaded's steps): the
 * records of PEBS_MEASURE_RECORDS draws at sav, their latencies from o's ranges. NULL when
 * the model's table has no code for a part, or the measurement failed (*err says why). */
struct pebs_measure *ml_pebs_quiet(const struct pebs_caps *c, const struct ml_opts *o,
				   const struct ml_mixrow *mx, const char **err)
{
	struct ml_feed f = { 0 };
	struct pebs_cost_run run = { .work = ml_work, .ctx = &f, .clock = model_clock,
				     .step_count = &f.fed };
	struct pebs_measure_cfg cfg = { .work = pebs_cost_chunk, .work_ctx = &run,
					.target_records = PEBS_MEASURE_RECORDS };

	*err = "no such data source in this CPU's table";
	if (!setup(&f, c, o, PEBS_EV_LOAD, mx))
		return NULL;
	model_set_costs(100, o->assist_ns * o->tsc_khz / 1000000, o->pmi_ns * o->tsc_khz / 1000000);
	pebs_config_init(&cfg.pc, PEBS_LOAD_LATENCY, NULL, NULL);
	cfg.pc.sav = o->sav;
	f.events_left = (uint64_t)PEBS_MEASURE_RECORDS * (o->sav + 1);
	if (pebs_measure_run(&boot_meas, c, &cfg)) {
		*err = boot_meas.err;
		return NULL;
	}
	return &boot_meas;
}
