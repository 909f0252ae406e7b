/*
 * latmatrix_judge.c: the subtests of the latency matrices (loads/latmatrix.h), shared by the
 * kernel's tests (ktests/load_matrix.c, ktests/load_c2c.c) and tools/model-log, so that the
 * model's log carries exactly the kernel's verdicts and lines (docs/output.md §3 "Latency
 * matrices"). Timing verdicts SKIP with the reason where timing is not judged (software
 * emulation: loads/timing.h); data-source verdicts SKIP with the sampler's reason. Pure C over
 * kernel/ktap.h.
 */
#include "loads/latmatrix.h"
#include "loads/c2c_plan.h"
#include "kernel/ktap.h"
#include "kernel/fmt.h"

#include <string.h>

static void judge(struct ktest *t, const char *name, int v, const char *d, const char *emu)
{
	if (emu)
		kt_skip_sub(t, name, "%s", emu);
	else if (v < 0)
		kt_skip_sub(t, name, "%s", d);
	else
		kt_check(t, v == 1, "%s # %s", name, d);
}

/* A data-source verdict: on a SKIP, why cells went unsampled (the first sampler failure)
 * follows what was judged; a pass or a fail stands on its own detail. */
static void judge_src(struct ktest *t, const char *name, int v, char *d, size_t n,
		      const char *why)
{
	if (v < 0 && why) {
		size_t at = strlen(d);

		fmt_snprintf(d + at, n - at, " (%s)", why);
	}
	judge(t, name, v, d, NULL);
}

static void line(void *t, const char *l)
{
	kt_info(t, "%s", l);
}

void latm_print(struct ktest *t, const struct latm *m)
{
	latm_lines(line, t, m);
}

void latm_node_print(struct ktest *t, struct latm *m, const uint32_t *row_pkg)
{
	bool snc = latm_snc_label(m, row_pkg) != 0;

	latm_lines(line, t, m);
	if (snc)
		kt_info(t, "%s: SNC-DRAM: another node of the row's package, sampled as local DRAM "
			"(labelled, not failed)", m->name);
	kt_info(t, "%s: data sources: the boot CPU's row through its sampler, the others through "
		"their CPU's own PEBS", m->name);
}

void latm_node_judge(struct ktest *t, struct latm *m, const struct latm_refs *in)
{
	char d[200];

	judge(t, "remote_over_local", latm_remote_over_local(m, d, sizeof(d)), d, in->emu);
	if (!in->slit)
		kt_skip_sub(t, "order_slit", "no ACPI SLIT");
	else
		judge(t, "order_slit", latm_in_order(m, in->slit, "SLIT", d, sizeof(d)), d, in->emu);
	if (!in->hmat)
		kt_skip_sub(t, "order_hmat", "%s", in->no_hmat);
	else
		judge(t, "order_hmat", latm_in_order(m, in->hmat, "HMAT", d, sizeof(d)), d, in->emu);
	judge_src(t, "dsrc_remote", latm_src_remote(m, in->row_pkg, d, sizeof(d)), d, sizeof(d),
		  in->src_why);
}

void latm_c2c_judge(struct ktest *t, const struct latm *m, const char *sub, const char *want,
		    const char *emu, const char *src_why, unsigned good)
{
	char d[200], name[32];

	fmt_snprintf(name, sizeof(name), "%s_complete", sub);
	kt_check(t, latm_complete(m, d, sizeof(d)) == 1, "%s # %s; %u pairs answered every line "
		 "right", name, d, good);
	fmt_snprintf(name, sizeof(name), "%s_order", sub);
	judge(t, name, c2c_order(m, d, sizeof(d)), d, emu);
	fmt_snprintf(name, sizeof(name), "%s_dsrc", sub);
	judge_src(t, name, c2c_src_verdict(m, want, d, sizeof(d)), d, sizeof(d), src_why);
}
