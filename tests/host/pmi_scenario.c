/*
 * pmi_scenario.c: one seeded hostile PEBS run (pmi_scenario.h). The seed picks the modelled
 * CPU (every PEBS row, legacy, adaptive and architectural), the period, the buffer size,
 * whether the core clock (pebs/cycles.c) runs, stale GLOBAL_STATUS bits and leftover PMC
 * values at start, how late every PMI lands (within the documented threshold headroom, or
 * beyond it), how many events count before each MSR access, and before which MSR access of
 * pebs_stop the last pending PMI lands. Checks: no model violation; every record written
 * drained exactly once; no drop while the PMIs came within the headroom; the core clock
 * counted every cycle of the workload across the PMIs; after the stop
 * GLOBAL_CTRL holds only what was on before the session, PEBS_ENABLE is 0 and the PEBS
 * counter is off, and stays so when the pending PMI lands afterwards.
 */
#include "host/pmi_scenario.h"
#include "model/pmu_model.h"
#include "kernel/cpu.h"
#include "kernel/hw.h"
#include "pebs/cycles.h"
#include "pebs/msr.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void pmi_sink_init(struct pmi_sink *k, const struct pebs_session *s)
{
	memset(k, 0, sizeof(*k));
	k->s = s;
}

void pmi_sink_fn(void *ctx, const uint8_t *rec, size_t len)
{
	struct pmi_sink *k = ctx;
	uint64_t id = 0;

	k->n++;
	if (!k->s->arch && !k->s->adaptive && len >= 0x90)
		memcpy(&id, rec + 0x88, 8);
	else if (!k->s->arch && len >= 0x20)
		memcpy(&id, rec + 0x18, 8);
	if (id && id <= k->last)
		k->dup++;
	if (id)
		k->last = id;
	if (k->step)
		model_step();
}

static uint64_t next(uint64_t *x)	/* splitmix64 */
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t pick(uint64_t *x, uint64_t n)
{
	return n ? next(x) % n : 0;
}

static int bad(char *why, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int bad(char *why, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, n, fmt, ap);
	va_end(ap);
	return -1;
}

static const struct model_cpu *row(uint64_t *x)
{
	unsigned a = 0, b = 0, i;

	while (model_cpus[a])
		a++;
	while (model_arch_cpus[b])
		b++;
	i = (unsigned)pick(x, a + b);
	return i < a ? model_cpus[i] : model_arch_cpus[i - a];
}

static struct pebs_session s;	/* ~1 KiB: not on the stack */
static struct pmi_sink k;
static struct pebs_caps caps;
static struct cpu_info ci;
static struct pmu_cycles pc;

int pmi_scenario(uint64_t seed, char *why, size_t n)
{
	uint64_t x = seed, sav, late, h, keep = 0, dropped, written, fed = 0, t0, t1;
	const struct model_cpu *m = row(&x);
	struct model_load ld = { 0x200040, 1, 57, 0x401000 };
	struct pebs_config cfg;
	bool within;
	char what[96];

	model_init(m);
	cpu_probe(&ci);
	pebs_caps_probe(&caps, &ci);
	sav = (m->nhm_reset ? 32 : 1) + pick(&x, 200);
	if (pick(&x, 2) && pmu_cycles_init(&pc, &caps) == 0)
		keep = model_msr(MSR_IA32_PERF_GLOBAL_CTRL);
	if (pick(&x, 2))
		model_set_global_status((m->arch_caps ? GLOBAL_STATUS_ARCH_PEBS :
					 GLOBAL_STATUS_OVF_BUF) | 1ull << pick(&x, m->n_gp));
	for (unsigned i = 0; m->nhm_reset && i < 4; i++)
		wrmsr(MSR_IA32_PMC(i), (uint32_t)next(&x));
	memset(&s, 0, sizeof(s));
	pebs_config_init(&cfg, PEBS_LOAD_LATENCY, NULL, NULL);
	cfg.sav = sav;
	cfg.buf_bytes = 4096ull << pick(&x, 3);
	pmi_sink_init(&k, &s);
	k.step = pick(&x, 2);
	cfg.sink = pmi_sink_fn;
	cfg.sink_ctx = &k;
	snprintf(what, sizeof(what), "%s sav=%llu buf=%llu", m->name, (unsigned long long)sav,
		 (unsigned long long)cfg.buf_bytes);
	t0 = model_msr(MSR_IA32_FIXED_CTR(1));
	if (pebs_start(&s, &caps, &cfg))
		return bad(why, n, "%s: pebs_start: %s", what, s.err);
	h = s.geom.nrec - s.geom.thresh_rec;
	within = pick(&x, 4) != 0;
	late = within ? pick(&x, h * (sav + 1) + 1) : h * (sav + 1) + 1 + pick(&x, 3 * (sav + 1));
	model_pmi_late(late);
	for (uint64_t left = (sav + 1) * s.geom.nrec * (2 + pick(&x, 3)); left;) {
		uint64_t c = 1 + pick(&x, left < 5000 ? left : 5000);

		model_feed(m->ll_event, c, &ld);
		fed += c;
		left -= c;
	}
	t1 = model_msr(MSR_IA32_FIXED_CTR(1));
	dropped = model_stats()->dropped;
	model_busy(m->ll_event, pick(&x, 3), &ld);
	model_pmi_hold_until_access(pick(&x, 40));
	pebs_stop(&s);
	model_busy(0, 0, NULL);
	model_pmi_hold_until_access(0);
	model_pmi_late(0);
	model_pmi_flush();
	written = model_stats()->records_written;
	model_feed(m->ll_event, 10 * (sav + 1), &ld);
	if (model_violation_count())
		return bad(why, n, "%s: model violation: %s", what, model_violation(0));
	if (k.n != written || k.dup || s.st.records != k.n)
		return bad(why, n, "%s: %llu records drained (%llu twice or out of order), %llu "
			   "written", what, (unsigned long long)k.n, (unsigned long long)k.dup,
			   (unsigned long long)written);
	if (within && dropped)
		return bad(why, n, "%s: PMIs %llu events late (headroom %llu records): %llu "
			   "dropped", what, (unsigned long long)late, (unsigned long long)h,
			   (unsigned long long)dropped);
	if ((keep & GLOBAL_FIXED(1)) && t1 - t0 != 7 * fed)
		return bad(why, n, "%s: core clock counted %llu of %llu cycles across %llu PMIs",
			   what, (unsigned long long)(t1 - t0), (unsigned long long)(7 * fed),
			   (unsigned long long)s.st.pmis);
	if (model_msr(MSR_IA32_PERF_GLOBAL_CTRL) != keep)
		return bad(why, n, "%s: GLOBAL_CTRL 0x%llx after stop, 0x%llx before start", what,
			   (unsigned long long)model_msr(MSR_IA32_PERF_GLOBAL_CTRL),
			   (unsigned long long)keep);
	if (!s.arch && model_msr(MSR_IA32_PEBS_ENABLE))
		return bad(why, n, "%s: PEBS_ENABLE 0x%llx after stop", what,
			   (unsigned long long)model_msr(MSR_IA32_PEBS_ENABLE));
	if (model_stats()->records_written != written)
		return bad(why, n, "%s: records written after stop", what);
	return 0;
}
