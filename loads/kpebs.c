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
#include "kernel/fmt.h"
#include "kernel/hw.h"
#include "kernel/tsc.h"
#include "loads/kstep.h"
#include "loads/kpebs_print.h"
#include "loads/kpebs_ktap.h"
#include "loads/pebs_cost.h"
#include "loads/pebs_verdict.h"
#include "loads/pv_xsrc.h"
#include "sample/agg_print.h"
#include "pebs/cycles.h"

#include <string.h>

static struct pmu_cycles cyc;
static bool have_core;
static struct pebs_measure meas;	/* the boot CPU's: ~30 KiB, not on the stack */
static uint8_t dump_buf[PEBS_DUMP_BYTES];	/* one CPU measures at a time */
static struct kpebs_levels bsp_levels;

/* Where one PEBS step runs: the boot CPU's global probe and measurement, or a CPU's own
 * struct pebs_cpu (pc != NULL: measured through pebs_cpu_measure, on that CPU only). */
struct step {
	const struct pebs_caps *c;
	struct pebs_measure *m;
	struct pebs_cpu *pc;
	struct kpebs_levels *lv;
	const char *sub;	/* subtest name prefix: "" on the boot CPU, "cpu2_l1_" per CPU */
};

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

static const char *subname(const struct step *st, const char *sub, char *b, size_t n)
{
	fmt_snprintf(b, n, "%s%s", st->sub, sub);
	return b;
}

/* A verdict; a failure also shows this measurement's whole table. */
static void judge(struct ktest *t, const struct step *st, const char *name, const char *sub,
		  enum pv_result v, const char *detail)
{
	char b[48];

	kpk_judge(t, name, subname(st, sub, b, sizeof(b)), v, detail, &st->m->agg);
}

static int level_of(enum load_target tg)
{
	static const int lv[] = { PEBS_LVL_L1, PEBS_LVL_L2, PEBS_LVL_L3, PEBS_LVL_RAM,
				  PEBS_LVL_LFB, -1, -1, PEBS_LVL_RAM };

	return lv[tg];
}

struct armed_ctx {
	struct pebs_measure_cfg *cfg;
	struct kstep *k;
	const struct step *st;
};

/* One armed measurement (a pebs_cost_armed_fn) over the timed chunks of cfg. */
static int armed(void *ctx, uint64_t sav, uint64_t *records, uint64_t *pmis, uint64_t *used)
{
	struct armed_ctx *a = ctx;
	uint64_t fl;
	int rc;

	a->cfg->pc.sav = sav;
	kstep_arm_deadline(a->k);
	fl = hw_irq_on();	/* the threshold PMI drains the buffer */
	rc = a->st->pc ? pebs_cpu_measure(a->st->pc, a->cfg) :
	     pebs_measure_run(a->st->m, a->st->c, a->cfg);
	hw_irq_restore(fl);
	*records = a->st->m->agg.records;
	*pmis = a->st->m->st.pmis;
	*used = a->st->m->sav;
	return rc;
}

static enum kt_result step_run(struct ktest *t, const struct step *st, const struct load_run *r,
			       enum load_target tg)
{
	const struct pebs_caps *c = st->c;
	struct pebs_measure *m = st->m;
	struct kpebs_levels *lv = st->lv;
	const char *dump = cmdline_get(&kcmdline, "dump");
	static struct kstep k;
	struct pebs_measure_cfg cfg = { .work = pebs_cost_chunk, .work_ctx = &k.run };
	struct pebs_cost cost;
	struct armed_ctx ac = { .cfg = &cfg, .k = &k, .st = st };
	int lvl = level_of(tg);
	uint64_t timed;
	char d[200], b[48];
	int rc;

	kstep_init(&k, r);
	timed = k.timed_x100;
	pebs_config_init(&cfg.pc, tg == TGT_STORE ? PEBS_STORE : PEBS_LOAD_LATENCY, &kcmdline,
			 kstep_warn);
	if (!cmdline_get(&kcmdline, "sav"))
		cfg.pc.sav = pebs_cost_default_sav(r->ns_x100 / k.per_step);
	if (dump && (!strcmp(dump, "raw") || !strcmp(dump, "decoded"))) {
		cfg.dump = dump_buf;
		cfg.dump_cap = sizeof(dump_buf);
	}
	kstep_baseline(&k);
	rc = pebs_cost_measure(&cost, &k.base, &k.run, cfg.pc.sav, !cmdline_get(&kcmdline, "sav"),
			       true, tsc_hz, armed, &ac);
	if (rc) {
		kt_check(t, false, "%s # %s", subname(st, "pebs_source", b, sizeof(b)), m->err);
		return kt_verdict(t);
	}
	if (pv_records(&m->st, m->s.counter, d, sizeof(d)) == PV_SKIP) {	/* no assist at all */
		kt_skip_sub(t, subname(st, "pebs_source", b, sizeof(b)), "%s", d);
		kt_skip_sub(t, subname(st, "pebs_overhead", b, sizeof(b)), "%s", d);
		return kt_verdict(t);
	}
	kp_summary(kpk_line, t, r->name, m, &cost, lvl, timed, r->res.have_core);
	kp_table(kpk_line, t, r->name, &m->agg);
	if (m->s.cfg.counters)	/* pebs_counters=on (docs/output.md §3) */
		pebs_cntr_agg_lines(&m->cntr, r->name, kpk_line, t);
	if (cfg.dump)
		kp_dump(kpk_line, t, r->name, m, c, !strcmp(dump, "raw"));

	judge(t, st, r->name, "pebs_overhead", pv_overhead(&cost, m->sav, d, sizeof(d)), d);
	if (tg == TGT_STORE) {
		judge(t, st, r->name, "pebs_store", pv_store(m->agg.records, m->st_hit, m->st_miss,
						   m->model ? m->model->store : PEBS_ST_NONE,
						   d, sizeof(d)), d);
		return kt_verdict(t);
	}
	if (tg == TGT_STLB) {
		judge(t, st, r->name, "pebs_stlb", pv_stlb(&m->agg, m->ab.stlb_mask != 0, d,
							     sizeof(d)), d);
		return kt_verdict(t);
	}
	judge(t, st, r->name, "pebs_source", pv_source(&m->agg, (enum pebs_level)lvl, d,
							 sizeof(d)), d);
	if (tg == TGT_REMOTE)	/* the DRAM level as above; then: was it the other node's? */
		judge(t, st, r->name, "pebs_remote", pv_xsrc(&m->agg, m->model, PV_X_REMOTE, d,
							 sizeof(d)), d);
	if (tg == TGT_LFB || tg == TGT_REMOTE)
		return kt_verdict(t);
	judge(t, st, r->name, "pebs_latency", pv_latency(&m->agg, (enum pebs_level)lvl, timed,
					       r->res.have_core, d, sizeof(d)), d);
	if (m->agg.lvl[lvl].count) {
		lv->p50[tg] = pebs_agg_percentile(&m->agg.lvl[lvl], 500);
		lv->have[tg] = true;
	}
	if (tg == TGT_L1)
		return kt_verdict(t);
	if (!lv->have[tg - 1] || !lv->have[tg])
		kt_skip_sub(t, subname(st, "pebs_rises", b, sizeof(b)), "%s",
			    !lv->have[tg] ? "no target-level latency" :
			    "the level below was not measured with PEBS in this run");
	else
		judge(t, st, r->name, "pebs_rises", pv_rises(lv->p50[tg - 1], load_level_name(tg - 1),
						   lv->p50[tg], d, sizeof(d)), d);
	return kt_verdict(t);
}

enum kt_result kpebs_check(struct ktest *t, const struct load_run *r, enum load_target tg)
{
	struct step st = { .c = pebs_caps_init(), .m = &meas, .lv = &bsp_levels, .sub = "" };

	return step_run(t, &st, r, tg);
}

const char *kpebs_cpu_unavailable(const struct pebs_cpu *pc)
{
	const char *why = NULL;

	if (!pebs_caps_pmu_ok(&pc->caps, &why) || !pebs_caps_pebs_ok(&pc->caps, &why) ||
	    !pebs_caps_ll_ok(&pc->caps, &why))
		return why;
	return NULL;
}

enum kt_result kpebs_check_cpu(struct ktest *t, const struct load_run *r, enum load_target tg,
			       struct pebs_cpu *pc, struct kpebs_levels *lv, const char *sub)
{
	struct step st = { .c = &pc->caps, .m = &pc->meas, .pc = pc, .lv = lv, .sub = sub };

	return step_run(t, &st, r, tg);
}
