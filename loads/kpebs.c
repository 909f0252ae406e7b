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
#include "loads/sampler.h"
#include "loads/kpebs_judge.h"
#include "loads/pebs_cost.h"
#include "pebs/cycles.h"
#include "ibs/amd_cycles.h"

#include <string.h>

static struct pmu_cycles cyc;
static struct amd_cycles acyc;	/* the core clock on AMD */
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

static const char *subname(const struct step *st, const char *sub, char *b, size_t n)
{
	fmt_snprintf(b, n, "%s%s", st->sub, sub);
	return b;
}

/* One PEBS step's state: where it runs and the measurement's configuration (the sampler's
 * self, loads/sampler.h). */
struct pebs_step {
	const struct step *st;
	struct pebs_measure_cfg cfg;
	const char *dump;
};

/* Why the PEBS step cannot run with these capabilities (NULL: it can). */
static const char *caps_unavailable(const struct pebs_caps *c)
{
	const char *why = NULL;

	if (!pebs_caps_pmu_ok(c, &why) || !pebs_caps_pebs_ok(c, &why) || !pebs_caps_ll_ok(c, &why))
		return why;
	return NULL;
}

static const char *unavailable(void *self)
{
	return caps_unavailable(((struct pebs_step *)self)->st->c);
}

static void prepare(void *self, const struct load_run *r, enum load_target tg, struct kstep *k,
		    uint64_t *period, bool *user)
{
	struct pebs_step *ps = self;

	ps->dump = cmdline_get(&kcmdline, "dump");
	ps->cfg = (struct pebs_measure_cfg){ .work = pebs_cost_chunk, .work_ctx = &k->run };
	kpebs_cfg_target(&ps->cfg, tg);
	pebs_config_init(&ps->cfg.pc, tg == TGT_STORE ? PEBS_STORE : PEBS_LOAD_LATENCY, &kcmdline,
			 kstep_warn);
	*user = cmdline_get(&kcmdline, "sav") != NULL;
	if (!*user)
		ps->cfg.pc.sav = pebs_cost_default_sav(r->ns_x100 / k->per_step);
	*period = ps->cfg.pc.sav;
	if (ps->dump && (!strcmp(ps->dump, "raw") || !strcmp(ps->dump, "decoded"))) {
		ps->cfg.dump = dump_buf;
		ps->cfg.dump_cap = sizeof(dump_buf);
	}
}

/* One armed measurement over the timed chunks of cfg; the threshold PMI drains the buffer. */
static int measure(void *self, uint64_t sav, struct sampler_result *out)
{
	struct pebs_step *ps = self;
	const struct step *st = ps->st;
	int rc;

	ps->cfg.pc.sav = sav;
	rc = st->pc ? pebs_cpu_measure(st->pc, &ps->cfg) : pebs_measure_run(st->m, st->c, &ps->cfg);
	out->records = st->m->agg.records;
	out->irqs = st->m->st.pmis;
	out->period = st->m->sav;
	return rc;
}

static const char *error(void *self)
{
	return ((struct pebs_step *)self)->st->m->err;
}

static const char *source_name(void *self, char *b, unsigned n)
{
	return subname(((struct pebs_step *)self)->st, "pebs_source", b, n);
}

static void report(void *self, struct ktest *t, const struct load_run *r, enum load_target tg,
		   const struct pebs_cost *cost, uint64_t timed)
{
	struct pebs_step *ps = self;
	const struct step *st = ps->st;
	const struct kpebs_step_report kr = {
		.name = r->name, .sub = st->sub, .tg = tg, .timed_x100 = timed,
		.have_core = r->res.have_core, .dump = ps->cfg.dump != NULL,
		.raw = ps->cfg.dump && !strcmp(ps->dump, "raw"), .lv = st->lv,
	};

	kpebs_report(t, &kr, st->c, st->m, cost);
}

static const struct pebs_agg *aggregate(void *self)
{
	return &((struct pebs_step *)self)->st->m->agg;
}

static enum kt_result step_run(struct ktest *t, const struct step *st, const struct load_run *r,
			       enum load_target tg)
{
	struct pebs_step ps = { .st = st };
	const struct sampler s = {
		.name = "PEBS", .prefix = "pebs", .self = &ps, .unavailable = unavailable,
		.prepare = prepare, .measure = measure, .error = error, .report = report, .source_name = source_name,
		.aggregate = aggregate,
	};

	return kstep_sample(t, r, tg, &s);
}

/* The boot CPU's sampler: its global probe and measurement. */
static struct step bsp_step;
static struct pebs_step bsp_ps = { .st = &bsp_step };
static const struct sampler pebs_sampler = {
	.name = "PEBS", .prefix = "pebs", .self = &bsp_ps, .unavailable = unavailable,
	.prepare = prepare, .measure = measure, .error = error, .report = report, .source_name = source_name,
	.aggregate = aggregate,
};

static void bsp_step_init(void)
{
	bsp_step = (struct step){ .c = pebs_caps_init(), .m = &meas, .lv = &bsp_levels, .sub = "" };
}

enum kt_result kpebs_check(struct ktest *t, const struct load_run *r, enum load_target tg)
{
	bsp_step_init();
	return kstep_sample(t, r, tg, &pebs_sampler);
}

const char *kpebs_cpu_unavailable(const struct pebs_cpu *pc)
{
	return caps_unavailable(&pc->caps);
}

enum kt_result kpebs_check_cpu(struct ktest *t, const struct load_run *r, enum load_target tg,
			       struct pebs_cpu *pc, struct kpebs_levels *lv, const char *sub)
{
	struct step st = { .c = &pc->caps, .m = &pc->meas, .pc = pc, .lv = lv, .sub = sub };

	return step_run(t, &st, r, tg);
}

int kpebs_cpu_agg(struct pebs_cpu *pc, const struct load_run *r, enum load_target tg,
		  const struct pebs_agg **out, const char **why)
{
	static struct kpebs_levels lv;	/* not judged here */
	struct step st = { .c = &pc->caps, .m = &pc->meas, .pc = pc, .lv = &lv, .sub = "" };
	struct pebs_step ps = { .st = &st };
	const struct sampler s = {
		.name = "PEBS", .self = &ps, .unavailable = unavailable, .prepare = prepare,
		.measure = measure, .error = error, .report = report, .source_name = source_name,
		.aggregate = aggregate,
	};

	return kstep_sample_agg(r, tg, &s, out, why);
}

void kload_header(void)
{
	char b[200];
	int rc;

	for (unsigned i = 0; geometry_header_line(kload_geometry(), i, b, sizeof(b)); i++)
		ktap_diag("%s", b);
	if (cpu.vendor == VENDOR_AMD) {	/* PMCx076 or APERF (ibs/amd_cycles.h) */
		rc = amd_cycles_init(&acyc, &cpu);
		if (rc == 0)
			kload_set_core_clock(amd_cycles_read, &acyc, acyc.name);
		amd_cycles_header_line(&acyc, rc, b, sizeof(b));
	} else {
		rc = pmu_cycles_init(&cyc, pebs_caps_init());
		if (rc == 0) {
			have_core = true;
			kload_set_core_clock(pmu_cycles_read, &cyc, cyc.name);
		}
		pmu_cycles_header_line(&cyc, rc, b, sizeof(b));
	}
	ktap_diag("%s", b);
	bsp_step_init();
	kload_set_sampler(&pebs_sampler);
}
