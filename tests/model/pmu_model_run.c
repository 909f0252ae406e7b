/*
 * pmu_model_run.c: the PMU model's behaviour (see pmu_model.h): event counting, overflow
 * and PEBS arming (§8.2), the assist writing a record of the CPU's format at the DS index
 * (pmu_model_record.c), counter reload from the DS reset slot of the format (§3.1,
 * §3.3), the threshold PMI with GLOBAL_STATUS[62] (§3.3), nothing written at the absolute
 * maximum, and the stand-ins for kalloc (kernel/mm.h) and the apic/ PMI calls (§7.2).
 */
#include "model/pmu_model_int.h"
#include "apic/apic.h"
#include "kernel/hw.h"
#include "kernel/mm.h"
#include "pebs/msr.h"

#include <stdlib.h>
#include <string.h>

void model_init_cpus(const struct model_cpu *const *cpus, unsigned n)
{
	model_fini();
	if (n < 1 || n > MODEL_MAX_CPUS)
		abort();	/* a test bug */
	memset(model_state_of, 0, sizeof(model_state_of));
	model_pmi_handler = NULL;
	model_ncpus = n;
	for (unsigned i = 0; i < n; i++) {
		struct model_state *s = &model_state_of[i];

		s->cpu = cpus[i];
		s->fmt = PERF_CAP_PEBS_FMT(cpus[i]->perf_cap);
		s->baseline = (cpus[i]->perf_cap & PERF_CAP_PEBS_BASELINE) && s->fmt >= 4 &&
			      s->fmt <= 6;
		s->fw_write = cpus[i]->perf_cap & PERF_CAP_FW_WRITE;
		s->gp_mask = (1ull << cpus[i]->gp_width) - 1;
		s->delivery = true;
		s->event_ticks = 7;
	}
	model_cur = &model_state_of[0];
}

void model_init(const struct model_cpu *cpu)
{
	model_init_cpus(&cpu, 1);
}

void model_select(unsigned i)
{
	if (i >= model_ncpus)
		abort();	/* a test bug */
	model_cur = &model_state_of[i];
}

unsigned model_current(void)
{
	return (unsigned)(model_cur - model_state_of);
}

/* The modelled local APIC id of the executing CPU: its index (apic/apic.h stand-in). */
uint32_t apic_id(void)
{
	return model_current();
}

uint64_t model_tsc(void) { return M.tsc; }

void model_set_costs(uint64_t event_ticks, uint64_t assist_ticks, uint64_t pmi_ticks)
{
	M.event_ticks = event_ticks;
	M.assist_ticks = assist_ticks;
	M.pmi_ticks = pmi_ticks;
}

void model_fini(void)
{
	model_mm_release(0);	/* everything kalloc handed out: a new generation */
}

const struct model_cpu *model_cpu(void) { return M.cpu; }
const struct model_stats *model_stats(void) { return &M.st; }

uint64_t model_msr(uint32_t msr)
{
	uint64_t v = 0;
	bool in_pmi = M.in_pmi;

	M.in_pmi = false;	/* test-side peek: no handler-order checks, no tick */
	M.stepping = true;
	(void)rdmsr_safe(msr, &v);
	M.stepping = false;
	M.in_pmi = in_pmi;
	return v;
}

void *kalloc(uint64_t bytes, uint64_t align)
{
	void *p;

	if (model_nregions == M_REGIONS)
		return NULL;
	bytes = (bytes + 4095) & ~4095ull;
	p = aligned_alloc(align < 4096 ? 4096 : align, bytes);
	if (!p)
		return NULL;
	memset(p, 0, bytes);
	model_regions[model_nregions].p = p;
	model_regions[model_nregions++].bytes = bytes;
	return p;
}

/* The test runner's per-test release (ktests/run.c mm_release) in the model: the regions
 * taken since `mark` are freed (ASan reports any later use) and the generation moves. */
static uint64_t mm_gen;

uint64_t mm_generation(void) { return mm_gen; }
unsigned model_mm_mark(void) { return model_nregions; }

void model_mm_release(unsigned mark)
{
	while (model_nregions > mark)
		free(model_regions[--model_nregions].p);
	mm_gen++;
}

uint64_t model_kalloc_bytes(void)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < model_nregions; i++)
		n += model_regions[i].bytes;
	return n;
}

bool model_mapped(uint64_t addr, uint64_t bytes)
{
	for (unsigned i = 0; i < model_nregions; i++) {
		uint64_t b = (uint64_t)(uintptr_t)model_regions[i].p;

		if (addr >= b && addr + bytes <= b + model_regions[i].bytes)
			return true;
	}
	return false;
}

/* The assist for counter i (armed): a record, or a drop at the absolute maximum. */
static void assist(unsigned i, const struct model_load *ld)
{
	uint64_t *ds = (uint64_t *)(uintptr_t)M.ds_area;
	unsigned size = model_record_size(i);

	if (M.fmt == 0xF) {
		model_arch_assist(i, ld);	/* pmu_model_arch.c */
		return;
	}
	M.st.assists++;
	M.tsc += M.assist_ticks;
	M.armed[i] = false;
	/* SDM Vol. 3B 18.4.9 "Debug Store (DS) Mechanism": the processor writes the record at
	 * PEBS Index through IA32_DS_AREA, whatever the memory holds now (memory a test released
	 * belongs to the next one): not written here, but a violation, never a quiet drop */
	if (ds && (!model_mapped(M.ds_area, 0x40) || (ds[5] + size <= ds[6] &&
						      !model_mapped(ds[5], size)))) {
		M.st.stray++;
		model_violate("PEBS assist through DS_AREA 0x%llx into memory not allocated "
			      "(released?): the hardware writes the record there",
			      (unsigned long long)M.ds_area);
		M.pmc[i] = (M.pmc[i] + 1) & M.gp_mask;
		return;
	}
	if (!ds || !model_mapped(M.ds_area, 0x40) || ds[5] + size > ds[6] ||
	    !model_mapped(ds[5], size)) {
		M.st.dropped++;		/* nothing written, nothing signalled, no reload */
		M.pmc[i] = (M.pmc[i] + 1) & M.gp_mask;
		return;
	}
	model_write_record((uint8_t *)(uintptr_t)ds[5], size, i, ld);
	ds[5] += size;
	M.st.records_written++;
	M.pmc[i] = ds[8 + model_reset_slot(false, i)] & M.gp_mask;
	if (ds[5] >= ds[7] && !(M.global_status & GLOBAL_STATUS_OVF_BUF)) {
		M.global_status |= GLOBAL_STATUS_OVF_BUF;
		model_raise();
	}
}

static void count_gp(unsigned i, const struct model_load *ld)
{
	if (M.armed[i]) {
		assist(i, ld);
		return;
	}
	M.pmc[i] = (M.pmc[i] + 1) & M.gp_mask;
	if (M.pmc[i])
		return;
	if (((M.pebs_enable & (1ull << i)) || model_arch_pebs_on(i)) && !model_hostile_xmapped(i)) {
		M.armed[i] = true;	/* record on the next qualifying event (§8.2) */
		return;
	}
	M.global_status |= 1ull << i;
	if (M.evtsel[i] & EVTSEL_INT)
		model_raise();
}

void model_feed(uint16_t event, uint64_t n, const struct model_load *ld)
{
	const struct model_cpu *c = M.cpu;

	for (uint64_t k = 0; k < n; k++) {
		model_tick(false);	/* a late PMI may land between any two events */
		M.tsc += M.event_ticks;
		for (unsigned i = 0; i < c->n_gp; i++) {
			if ((c->version >= 2 && !(M.global_ctrl & (1ull << i))) ||
			    !(M.evtsel[i] & EVTSEL_EN) ||
			    EVTSEL_CODE(M.evtsel[i]) != event)
				continue;
			if (c->ll_event == event && (!ld || ld->lat <= (M.ldlat & 0xffff)))
				continue;	/* only loads above the threshold count */
			count_gp(i, ld);
		}
		if (event == 0x00c0 && c->n_fixed && (M.global_ctrl & GLOBAL_FIXED(0)) &&
		    (M.fixed_ctrl & 3)) {
			M.fixed[0] = (M.fixed[0] + 1) & ((1ull << c->fixed_width) - 1);
			if (!M.fixed[0]) {
				M.global_status |= GLOBAL_FIXED(0);
				if (M.fixed_ctrl & FIXED_CTRL_PMI(0))
					model_raise();
			}
		}
		/* CPU_CLK_UNHALTED.CORE: the cycles of the virtual clock (counter snapshots) */
		if (c->n_fixed > 1 && (M.global_ctrl & GLOBAL_FIXED(1)) &&
		    (M.fixed_ctrl & (FIXED_CTRL_OS(1) | FIXED_CTRL_USR(1))))
			M.fixed[1] = (M.fixed[1] + M.event_ticks) & ((1ull << c->fixed_width) - 1);
	}
}
