/*
 * load_c2c.c: test load_c2c (issue 30, on request): core x core transfer latency, the
 * core-to-core heat map. For every ordered pair of the CPUs loads/c2c_plan.h picks (all
 * online CPUs up to C2C_MAX_CPUS = 16, 240 pairs; beyond, 16 covering every package, node,
 * core type and an SMT pair per package), the cross-core kernels of loads/xcore.h with the
 * row's CPU timing and the column's CPU as the helper: load_c2c/snoop (the helper read the
 * line last: a clean snoop hit) and load_c2c/hitm (it wrote it: HITM; SDM Vol. 3A 12.4).
 * Each cell's data source: the kernel again under load-latency PEBS (loads/xcore_pebs.c) on
 * the row's CPU, the boot CPU's row through the boot CPU's step, an AP's row through that
 * CPU's own PEBS state (Intel; where the column is an AP: the measuring AP starts it). Lines: loads/latmatrix_print.c.
 * Subtests per kernel (<k> = snoop, hitm):
 *   coverage           the pick covers packages, nodes, core types, SMT pairs
 *   <k>_complete       every pair answered every line with the right values
 *   <k>_order          SMT sibling < same package < other package (class medians); SKIP
 *                      where timing is not judged
 *   <k>_dsrc           each sampled cell's records per table (xcore_pebs_verdict: Hit/Fwd,
 *                      HitM), SMT siblings (a shared L1D) not judged; SKIP with the reason
 */
#include "ktests/tests.h"
#include "apic/apic.h"
#include "kernel/fmt.h"
#include "kernel/mm.h"
#include "kernel/tsc.h"
#include "loads/ap_slot.h"
#include "loads/c2c_plan.h"
#include "loads/kload.h"
#include "loads/kpebs.h"
#include "loads/xcore.h"
#include "smp/smp.h"

#define C2C_LOADS     64u	/* lines per pair (hardware); 8 under software emulation, where
				 * nothing is timed: the handshake and the values are judged */
#define C2C_BUDGET_MS 20u

static struct latm mx[2];
static struct latm_cell cells[2][C2C_MAX_CPUS * C2C_MAX_CPUS];

#define C2C_CELL_BOUND_MS 10000u	/* an AP's sampled cell: the kernel again under PEBS */

struct ap_cell {
	struct xcore_run x;
	struct pebs_cpu *pc;
	char src[LATM_SRC_LEN];
	int v;
};

/* On the measuring AP: its own PEBS state, then the pair's kernel under it. */
static void ap_cell(void *arg)
{
	struct ap_cell *j = arg;

	pebs_cpu_init(j->pc);
	j->v = xcore_pebs_cell(&j->x, j->pc, j->src, sizeof(j->src));
}

static struct ap_slot slot;	/* the cell job and a PEBS state (~30 KiB, aux), one AP after
				 * the other; fresh ones after an AP that did not finish */

/* One cell's data source: the boot CPU's row through the boot CPU's PEBS step, an AP's row
 * through that AP's own state (where the helper is an AP too). -1: none. */
static int cell_source(const struct xcore_run *x, char *src, unsigned n)
{
	struct ap_cell *j = slot.job;

	if (x->measurer == 0)
		return xcore_pebs_cell(x, NULL, src, n);
	if (!j || !slot.aux || x->helper == 0)
		return -1;
	*j = (struct ap_cell){ .x = *x, .pc = slot.aux, .v = -1 };
	if (ap_slot_call(&slot, x->measurer, ap_cell, C2C_CELL_BOUND_MS) != SMP_CALL_DONE)
		return -1;
	fmt_snprintf(src, n, "%s", j->src);
	return j->v;
}

/* One cell: the pair's kernel, and its sampled data source. */
static bool pair(struct latm *m, enum xcore_kind kind, unsigned r, unsigned c, bool sample)
{
	struct xcore_run x = { .name = m->name, .kind = kind, .measurer = m->row_id[r],
			       .helper = m->col_id[c], .budget_ms = C2C_BUDGET_MS,
			       .want = kload_timing_unjudgeable() ? 8 : C2C_LOADS };
	struct latm_cell *e = latm_at(m, r, c);
	bool ok = xcore_run_pair(&x) == 0 && !x.bad_values && x.helper_sum_ok;

	if (ok) {
		e->ns_x100 = tsc_hz ? x.tsc_med * 100000000000ull / tsc_hz : 0;
		e->flags = LATM_DONE;
	}
	if (ok && sample) {
		int v = cell_source(&x, e->src, sizeof(e->src));

		e->flags |= v >= 0 ? LATM_SRC : 0;
		if ((v == 0 || v == 1) && c2c_class_of(m, r, c) != C2C_SMT)
			e->flags |= LATM_SRC_JUDGED | (v == 0 ? LATM_SRC_BAD : 0);
	}
	return ok;
}

enum kt_result test_load_c2c(struct ktest *t)
{
	static const char *const kname[2] = { "load_c2c/snoop", "load_c2c/hitm" };
	static const char *const sub[2] = { "snoop", "hitm" };
	const char *emu = kload_timing_unjudgeable(), *why = kload_pebs_unavailable();
	unsigned n = 0, pick[C2C_MAX_CPUS], k;
	struct c2c_cpu *cpus;
	char d[200];

	if (smp_online_count() < 2)
		return kt_skip(t, "one CPU online: a pair needs two (%s)",
			       smp_why_none() ? smp_why_none() : "the MADT lists one processor");
	kload_test_begin();
	/* aux NULL: only the boot CPU's row is sampled */
	ap_slot_init(&slot, sizeof(struct ap_cell), sizeof(struct pebs_cpu));
	cpus = kalloc((uint64_t)smp_cpu_count() * sizeof(*cpus), 64);
	if (!cpus)
		return kt_skip(t, "out of memory for %u CPUs' topology", smp_cpu_count());
	for (unsigned i = 0; i < smp_cpu_count(); i++) {
		const struct percpu *p = smp_cpu(i);

		cpus[n++] = (struct c2c_cpu){ .cpu = i, .package = p->topo.package,
					      .core = p->topo.core, .node = p->node,
					      .core_type = p->core_type,
					      .online = p->state == CPU_ONLINE };
	}
	k = c2c_pick(cpus, n, C2C_MAX_CPUS, pick);
	kt_info(t, "load_c2c: %u of %u online CPUs, %u ordered pairs per kernel (bound %u CPUs)",
		k, smp_online_count(), k * (k - 1), C2C_MAX_CPUS);
	kt_check(t, c2c_coverage(cpus, n, pick, k, d, sizeof(d)) == 1, "coverage # %s", d);
	for (unsigned kk = 0; kk < 2; kk++) {
		struct latm *m = &mx[kk];
		unsigned good = 0;

		*m = (struct latm){ .name = kname[kk], .unit = "cpu", .nrow = k, .ncol = k,
				    .no_diag = true, .cell = cells[kk] };
		for (unsigned i = 0; i < k; i++) {
			const struct c2c_cpu *c = &cpus[pick[i]];

			m->row_id[i] = m->col_id[i] = m->row_cpu[i] = c->cpu;
			m->col_pkg[i] = c->package;
			m->col_node[i] = c->node;
			m->col_core[i] = c->core;
		}
		for (unsigned r = 0; r < k; r++) {
			apic_watchdog_arm(t->desc->timeout_ms);
			for (unsigned c = 0; c < k; c++)
				if (r != c)
					good += pair(m, kk ? XCORE_HITM : XCORE_SNOOP, r, c, !why);
		}
		latm_print(t, m);
		latm_c2c_judge(t, m, sub[kk], kk ? "HitM" : "Hit or Fwd", emu, why, good);
	}
	return kt_verdict(t);
}
