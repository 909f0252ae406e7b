/*
 * pmu_model.c: the PMU model's register file and the programming rules it enforces
 * (see pmu_model.h). Rules cite docs/hardware.md: §1.2 PEBS event bits,
 * §1.5 PEBS_ENABLE per generation, §1.6 threshold >= 3, §3 DS area, §6 events/counters + aux,
 * §7.2 PMI order, §8.3 counter writes, §8.4 write only while disabled, teardown order,
 * §8.10 FREEZE_WHILE_SMM, §7.1 NHM counter reset.
 */
#include "model/pmu_model_int.h"
#include "kernel/hw.h"
#include "model/violations.h"
#include "pebs/msr.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct model_state model_state_of[MODEL_MAX_CPUS];
struct model_state *model_cur = &model_state_of[0];
unsigned model_ncpus = 1;
irq_handler_fn model_pmi_handler;
struct model_region model_regions[M_REGIONS];
unsigned model_nregions;

void model_violate(const char *fmt, ...)
{
	char b[sizeof(M.viol[0])];
	va_list ap;
	bool fresh;

	va_start(ap, fmt);
	fresh = viol_addv(M.viol[0], sizeof(M.viol[0]), &M.nviol, MODEL_MAX_VIOL, b, fmt, ap);
	va_end(ap);
	if (fresh && getenv("TEST_PRINT"))
		fprintf(stderr, "model violation: %s\n", b);
}

unsigned model_violation_count(void) { return M.nviol; }
const char *model_violation(unsigned i) { return i < M.nviol ? M.viol[i] : ""; }

unsigned model_cpu_violations(unsigned n)
{
	model_select(n);
	for (unsigned i = 0; i < M.nviol; i++)
		fprintf(stderr, "CPU %u model violation: %s\n", n, M.viol[i]);
	return M.nviol;
}
void model_clear_violations(void) { M.nviol = 0; }

bool model_has_violation(const char *s)
{
	return viol_has(M.viol[0], sizeof(M.viol[0]), M.nviol, s);
}

void model_logf(const char *what)
{
	size_t n = strlen(M.log);

	if (n + strlen(what) + 2 < sizeof(M.log))
		snprintf(M.log + n, sizeof(M.log) - n, "%s%s", n ? " " : "", what);
}

const char *model_log(void) { return M.log; }
void model_log_clear(void) { M.log[0] = '\0'; }

bool model_pebs_active(unsigned i)
{
	return (M.global_ctrl & (1ull << i)) && (M.evtsel[i] & EVTSEL_EN) &&
	       ((M.pebs_enable & (1ull << i)) || model_arch_pebs_on(i));
}

static bool ll_event(unsigned i)
{
	return M.cpu->ll_event && EVTSEL_CODE(M.evtsel[i]) == M.cpu->ll_event;
}

static void check_ds(void)
{
	const uint64_t *ds = (const uint64_t *)(uintptr_t)M.ds_area;
	unsigned rec = model_record_size(0);
	uint64_t base, top, thr;

	if (!M.ds_area || !model_mapped(M.ds_area, 0x40 + 8 * (M.fmt >= 5 ? 48 : 12))) {
		model_violate("DS area 0x%llx unmapped while PEBS enabled",
			      (unsigned long long)M.ds_area);
		return;
	}
	if (M.ds_area & 0xfff)
		model_violate("DS area 0x%llx not page-aligned", (unsigned long long)M.ds_area);
	base = ds[4], top = ds[6], thr = ds[7];
	if (!model_mapped(base, top > base ? top - base : 1) || (base & 7))
		model_violate("PEBS buffer [0x%llx, 0x%llx) unmapped or misaligned",
			      (unsigned long long)base, (unsigned long long)top);
	else if (!M.baseline && (top - base) % rec)
		model_violate("PEBS absolute maximum not a whole number of %u-byte records", rec);
	else if (thr < base + rec || thr + rec > top)
		model_violate("PEBS interrupt threshold outside [base + 1 record, abs max - 1 record]");
}

void model_check_active(void)
{
	const struct model_cpu *c = M.cpu;
	bool any = false;

	model_hostile_check();	/* periods, PMC3 with TFA, the HT erratum (hostile.c) */
	for (unsigned i = 0; i < c->n_gp; i++) {
		uint64_t e = M.evtsel[i];

		if (!model_pebs_active(i))
			continue;
		any = true;
		if (e & (EVTSEL_ANY | EVTSEL_EDGE | EVTSEL_INV | EVTSEL_CMASK_MASK))
			model_violate("PEBS event on counter %u with AnyThread/Edge/Inv/CMask set", i);
		if (e & EVTSEL_INT)
			model_violate("EVTSEL.INT set on PEBS counter %u", i);
		if (ll_event(i)) {
			if (c->version < 5 && !(M.pebs_enable & PEBS_LL_EN_PMC(i)))
				model_violate("load-latency event on counter %u without "
					      "PEBS_ENABLE.LL_EN (perfmon < 5)", i);
			if (!(c->ll_gp & (1u << i)))
				model_violate("load-latency event on counter %u outside 0x%x", i,
					      c->ll_gp);
			if ((M.ldlat & 0xffff) < 3)
				model_violate("load latency armed with MSR_PEBS_LD_LAT_THRESHOLD < 3");
			if (M.baseline && (!(e & EVTSEL_ADAPTIVE) ||
					   !(M.data_cfg & PEBS_DATACFG_MEMINFO)))
				model_violate("load latency on a baseline part without "
					      "EVTSEL.ADAPTIVE + PEBS_DATA_CFG.MEMINFO");
			if (c->aux_event) {
				bool aux = false;

				for (unsigned k = 0; k < c->n_gp; k++)
					aux |= k != i && (M.global_ctrl & (1ull << k)) &&
					       (M.evtsel[k] & EVTSEL_EN) &&
					       EVTSEL_CODE(M.evtsel[k]) == c->aux_event;
				if (!aux)
					model_violate("load latency without MEM_LOADS_AUX 0x%04x on "
						      "another counter", c->aux_event);
			}
		}
		if (c->ps_en_store && EVTSEL_CODE(e) == c->st_event && !(M.pebs_enable & PEBS_PS_EN))
			model_violate("precise store on counter %u without PEBS_ENABLE.PS_EN", i);
	}
	if (!any)
		return;
	if (M.fmt == 0xF)
		model_arch_check();	/* IA32_PEBS_BASE/INDEX, no DS area */
	else
		check_ds();
	if (c->nhm_reset && !M.nhm_reset_seen)
		model_violate("Nehalem counters enabled without the AAK100 counter-reset sequence");
	if ((c->perf_cap & PERF_CAP_FREEZE_SMM) && !(M.debugctl & DEBUGCTL_FREEZE_WHILE_SMM))
		model_violate("FREEZE_WHILE_SMM supported but IA32_DEBUGCTL[14] clear");
}

/* Writes that the SDM allows only while the PEBS counter is disabled (§8.4). */
void model_no_write_while_active(unsigned i, const char *what)
{
	if (model_pebs_active(i))
		model_violate("PEBS counter %u reprogrammed while enabled (%s)", i, what);
}

bool model_any_pebs_active(void)
{
	for (unsigned i = 0; i < M.cpu->n_gp; i++)
		if (model_pebs_active(i))
			return true;
	return false;
}
