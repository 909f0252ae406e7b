/*
 * xcore_pebs.c: the PEBS step of load_snoop / load_hitm. The kernel runs again, in chunks,
 * under the load-latency event on the measuring (boot) CPU (pebs/measure.h; SDM Vol. 3B
 * "Load Latency Performance Monitoring Facility"), with the latency threshold at
 * XCORE_LDLAT core cycles unless ldlat= is given, so the handshake's L1-hit spin loads are
 * not sampled, and a small sample-after value (a few thousand cross-core loads in all),
 * raised to the model's minimum period where one applies (Nehalem/Westmere 32: Linux
 * nhm_limit_period; the line says so).
 * The verdict (loads/xcore_expect.c) counts the snoop results of the records served by
 * another core's cache. Where PEBS cannot run the subtest SKIPs with the reason.
 */
#include "loads/xcore.h"
#include "kernel/cmdline.h"
#include "kernel/console.h"
#include "kernel/hw.h"
#include "kernel/idt.h"
#include "kernel/ktap.h"
#include "kernel/tsc.h"
#include "loads/kload.h"
#include "pebs/caps.h"
#include "pebs/measure.h"
#include "loads/pebs_verdict.h"

#define XCORE_LDLAT 32u		/* an L1/L2 hit costs far less, a cross-core load far more */
#define XCORE_SAV   2u
#define CHUNK       32u

struct chunk_ctx {
	struct xcore_run *r;
	uint64_t deadline;
	bool stalled;
};

static struct pebs_measure meas;

static bool chunk(void *ctx)
{
	struct chunk_ctx *c = ctx;

	for (unsigned k = 0; k < CHUNK; k++)
		if (!xcore_step(c->r)) {
			c->stalled = c->r->loads < c->r->want;
			return false;
		}
	return rdtsc() < c->deadline;
}

static void warn(const char *msg)
{
	kprintf("# warning: %s\n", msg);
}

void xcore_pebs_step(struct ktest *t, struct xcore_run *base)
{
	const char *why = kload_pebs_unavailable();
	struct xcore_run r = { .name = base->name, .kind = base->kind, .helper = base->helper,
			       .want = XCORE_MAX_LOADS };
	struct chunk_ctx cc = { .r = &r };
	struct pebs_measure_cfg cfg = { .work = chunk, .work_ctx = &cc };
	const char *rule = NULL;
	char d[200];
	uint64_t fl;
	int rc, v;

	if (why) {
		kt_skip_sub(t, "pebs_source", "%s", why);
		return;
	}
	if (!pebs_caps_pebs_ok(pebs_caps_init(), &why)) {	/* the sampler is IBS */
		kt_skip_sub(t, "pebs_source", XCORE_PEBS_ONLY "%s", why);
		return;
	}
	pebs_config_init(&cfg.pc, PEBS_LOAD_LATENCY, &kcmdline, warn);
	if (!cmdline_get(&kcmdline, "ldlat"))
		cfg.pc.ldlat = XCORE_LDLAT;
	if (!cmdline_get(&kcmdline, "sav"))
		cfg.pc.sav = XCORE_SAV;
	if (xcore_begin(&r)) {
		kt_check(t, false, "pebs_source # %s", r.why);
		return;
	}
	cc.deadline = rdtsc() + tsc_hz / 1000 * kload_timing()->budget_ms;
	fl = irq_save();
	irq_enable();		/* the threshold PMI drains the buffer */
	rc = pebs_measure_run(&meas, pebs_caps_init(), &cfg);
	irq_restore(fl);
	if (xcore_end(&r) || cc.stalled) {
		kt_check(t, false, "pebs_source # %s", r.why ? r.why : "the helper stalled");
		return;
	}
	if (rc) {
		kt_check(t, false, "pebs_source # %s", meas.err);
		return;
	}
	if (pv_records(&meas.st, meas.s.counter, d, sizeof(d)) == PV_SKIP) {
		kt_skip_sub(t, "pebs_source", "%s", d);
		return;
	}
	(void)pebs_limit_period(pebs_caps_init()->uarch, meas.event, cfg.pc.sav, &rule);
	kt_info(t, "%s pebs: %u loads, ldlat %u, sav %llu%s%s%s, %llu records, %llu PMIs", r.name,
		r.loads, meas.ldlat, (unsigned long long)meas.sav, rule ? " (clamped: " : "",
		rule ? rule : "", rule ? ")" : "", (unsigned long long)meas.agg.records,
		(unsigned long long)meas.st.pmis);
	v = xcore_pebs_verdict(&meas.agg, r.kind, d, sizeof(d));
	if (v < 0)
		kt_skip_sub(t, "pebs_source", "too few records: %s", d);
	else
		kt_check(t, v == 1, "pebs_source # %s", d);
}
