/*
 * kpebs_judge.c: one PEBS step's lines and verdicts (kpebs_judge.h), for the kernel
 * (loads/kpebs.c) and tools/model-log alike. Thresholds and their reasons are in
 * loads/pebs_verdict.c; the counter-snapshot check in pebs/cntr_snap.c (SDM Vol. 3B
 * "Counters Group"); the retire latency is that of timed PEBS (IA32_PERF_CAPABILITIES[17],
 * SDM Vol. 3B "Timed Processor Event Based Sampling") or of the arch-PEBS basic group
 * (docs/arch-pebs.md), judged inside pebs_latency (docs/output.md `pebs_latency`).
 */
#include "loads/kpebs_judge.h"
#include "kernel/fmt.h"
#include "loads/kpebs_ktap.h"
#include "loads/kpebs_print.h"
#include "loads/pebs_verdict.h"
#include "loads/pv_xsrc.h"
#include "pebs/cntr_snap.h"

#include <string.h>

int kpebs_level_of(enum load_target tg)
{
	static const int lv[] = { [TGT_L1] = PEBS_LVL_L1, [TGT_L2] = PEBS_LVL_L2,
				  [TGT_L3] = PEBS_LVL_L3, [TGT_DRAM] = PEBS_LVL_RAM,
				  [TGT_LFB] = PEBS_LVL_LFB, [TGT_STORE] = -1, [TGT_STLB] = -1,
				  [TGT_REMOTE] = PEBS_LVL_RAM };

	return lv[tg];
}

void kpebs_cfg_target(struct pebs_measure_cfg *cfg, enum load_target tg)
{
	cfg->retire = kpebs_level_of(tg) >= 0;
	cfg->retire_level = (unsigned)kpebs_level_of(tg);
}

static const char *subname(const struct kpebs_step_report *r, const char *sub, char *b, size_t n)
{
	fmt_snprintf(b, n, "%s%s", r->sub, sub);
	return b;
}

/* A verdict; a failure also shows this measurement's whole table. */
static void judge(struct ktest *t, const struct kpebs_step_report *r,
		  const struct pebs_measure *m, const char *sub, enum pv_result v, const char *d)
{
	char b[48];

	kpk_judge(t, r->name, subname(r, sub, b, sizeof(b)), v, d, &m->agg);
}

/* pebs_latency, with the retire latency's judgement in the same subtest where the records
 * carried one; then pebs_rises against the level below on this CPU. */
static void latency(struct ktest *t, const struct kpebs_step_report *r,
		    const struct pebs_measure *m, int lvl)
{
	struct kpebs_levels *lv = r->lv;
	enum load_target tg = r->tg;
	char d[200], b[48];
	enum pv_result v;

	v = pv_latency(&m->agg, (enum pebs_level)lvl, r->timed_x100, r->have_core, d, sizeof(d));
	if (m->retire.count) {
		char e[96];
		size_t k = strlen(d);

		if (pv_retire(&m->retire, r->timed_x100, r->have_core, e, sizeof(e)) == PV_FAIL)
			v = PV_FAIL;
		fmt_snprintf(d + k, sizeof(d) - k, "; %s", e);
	}
	judge(t, r, m, "pebs_latency", v, d);
	if (m->agg.lvl[lvl].count) {
		lv->p50[tg] = pebs_agg_percentile(&m->agg.lvl[lvl], 500);
		lv->have[tg] = true;
	}
	if (tg == TGT_L1)
		return;
	if (!lv->have[tg - 1] || !lv->have[tg])
		kt_skip_sub(t, subname(r, "pebs_rises", b, sizeof(b)), "%s",
			    !lv->have[tg] ? "no target-level latency" :
			    "the level below was not measured with PEBS in this run");
	else
		judge(t, r, m, "pebs_rises", pv_rises(lv->p50[tg - 1],
						      load_level_name((enum load_level)(tg - 1)),
						      lv->p50[tg], d, sizeof(d)), d);
}

void kpebs_report(struct ktest *t, const struct kpebs_step_report *r, const struct pebs_caps *c,
		  const struct pebs_measure *m, const struct pebs_cost *cost)
{
	enum load_target tg = r->tg;
	int lvl = kpebs_level_of(tg);
	char d[200], b[48];

	if (pv_records(&m->st, m->s.counter, d, sizeof(d)) == PV_SKIP) {	/* no assist at all */
		kt_skip_sub(t, subname(r, "pebs_source", b, sizeof(b)), "%s", d);
		kt_skip_sub(t, subname(r, "pebs_overhead", b, sizeof(b)), "%s", d);
		return;
	}
	kp_summary(kpk_line, t, r->name, m, cost, lvl, r->timed_x100, r->have_core);
	kp_table(kpk_line, t, r->name, &m->agg);
	if (m->s.cfg.counters)	/* pebs_counters=on (docs/output.md §3) */
		pebs_cntr_agg_lines(&m->cntr, r->name, kpk_line, t);
	if (r->dump)
		kp_dump(kpk_line, t, r->name, m, c, r->raw);

	judge(t, r, m, "pebs_overhead", pv_overhead(cost, m->sav, d, sizeof(d)), d);
	if (m->s.cfg.counters)	/* on request only: the snapshots against RDPMC */
		judge(t, r, m, "pebs_counters", (enum pv_result)pebs_cntr_check(&m->cntr, d,
										 sizeof(d)), d);
	if (tg == TGT_STORE) {
		judge(t, r, m, "pebs_store", pv_store(m->agg.records, m->st_hit, m->st_miss,
						      m->model ? m->model->store : PEBS_ST_NONE,
						      d, sizeof(d)), d);
		return;
	}
	if (tg == TGT_STLB) {
		judge(t, r, m, "pebs_stlb", pv_stlb(&m->agg, m->ab.stlb_mask != 0, d, sizeof(d)),
		      d);
		return;
	}
	judge(t, r, m, "pebs_source", pv_source(&m->agg, (enum pebs_level)lvl, d, sizeof(d)), d);
	if (tg == TGT_REMOTE)	/* the DRAM level as above; then: was it the other node's? */
		judge(t, r, m, "pebs_remote", pv_xsrc(&m->agg, m->model, PV_X_REMOTE, d,
						      sizeof(d)), d);
	if (tg != TGT_LFB && tg != TGT_REMOTE)
		latency(t, r, m, lvl);
}
