/*
 * pmu_model_run.c: the PMU model's behaviour (see pmu_model.h): CPUID, event counting, overflow
 * and PEBS arming (§8.2), the assist writing a record of the CPU's format at the DS index
 * (§4.2 legacy, §4.3 adaptive), counter reload from the DS reset slot of the format (§3.1,
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
		s->baseline = (cpus[i]->perf_cap & PERF_CAP_PEBS_BASELINE) && s->fmt >= 4;
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
	for (unsigned i = 0; i < model_nregions; i++)
		free(model_regions[i].p);
	model_nregions = 0;
}

const struct model_cpu *model_cpu(void) { return M.cpu; }
const struct model_stats *model_stats(void) { return &M.st; }

uint64_t model_msr(uint32_t msr)
{
	uint64_t v = 0;
	bool in_pmi = M.in_pmi;

	M.in_pmi = false;	/* test-side peek: no handler-order checks */
	(void)rdmsr_safe(msr, &v);
	M.in_pmi = in_pmi;
	return v;
}

void cpuid_count(uint32_t leaf, uint32_t subleaf, struct cpuid_regs *r)
{
	const struct model_cpu *c = M.cpu;

	(void)subleaf;
	memset(r, 0, sizeof(*r));
	switch (leaf) {
	case 0:
		r->eax = 0x1a;
		memcpy(&r->ebx, "Genu", 4), memcpy(&r->edx, "ineI", 4), memcpy(&r->ecx, "ntel", 4);
		break;
	case 1:
		r->eax = c->signature;
		M.ucode_latch = (uint64_t)c->microcode << 32;	/* SDM Vol. 3A 10.11.7 */
		r->ecx = (c->dtes64 ? 1u << 2 : 0) | (c->pdcm ? 1u << 15 : 0) |
			 (c->hypervisor ? 1u << 31 : 0);
		r->edx = (1u << 4) | (1u << 5) | (1u << 9) | (c->ds ? 1u << 21 : 0);
		break;
	case 7:
		r->edx = c->core_type ? 1u << 15 : 0;
		break;
	case 0xa:
		if (!c->version)
			break;
		r->eax = c->version | (uint32_t)c->n_gp << 8 | (uint32_t)c->gp_width << 16 | 7u << 24;
		r->edx = c->n_fixed | (uint32_t)c->fixed_width << 5;
		break;
	case 0x1a:
		r->eax = (uint32_t)c->core_type << 24;
		break;
	case 0x40000000:
		memcpy(&r->ebx, "TCGT", 4), memcpy(&r->ecx, "CGTC", 4), memcpy(&r->edx, "GTCG", 4);
		break;
	case 0x80000000:
		r->eax = 0x80000008;
		break;
	case 0x80000001:
		r->edx = (1u << 20) | (1u << 29);
		break;
	case 0x80000008:
		r->eax = 46;
		break;
	}
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

bool model_mapped(uint64_t addr, uint64_t bytes)
{
	for (unsigned i = 0; i < model_nregions; i++) {
		uint64_t b = (uint64_t)(uintptr_t)model_regions[i].p;

		if (addr >= b && addr + bytes <= b + model_regions[i].bytes)
			return true;
	}
	return false;
}

/* apic/ stand-ins: LVTPC mask and EOI as one rearm step (apic.h contract). */
void apic_set_pmi_handler(irq_handler_fn fn) { model_pmi_handler = fn; }

void apic_pmi_rearm(void)
{
	const uint64_t *ds = (const uint64_t *)(uintptr_t)M.ds_area;

	if (M.in_pmi && (M.global_status & GLOBAL_STATUS_OVF_BUF))
		model_violate("LVTPC unmasked before GLOBAL_STATUS[62] was acked");
	if (M.in_pmi && ds && model_mapped(M.ds_area, 0x40) && ds[5] >= ds[7] && ds[7])
		model_violate("PMI re-armed with the PEBS index still at the threshold");
	M.lvtpc_masked = false;
	if (M.in_pmi)
		model_logf("rearm");
}

static void deliver(void)
{
	struct trap_frame f;

	memset(&f, 0, sizeof(f));
	f.vector = APIC_VEC_PMI;
	M.pending = false;
	M.lvtpc_masked = true;	/* delivery masks LVTPC */
	M.in_pmi = true;
	M.pmi_disabled_first = false;
	M.st.pmis_delivered++;
	M.tsc += M.pmi_ticks;
	if (model_pmi_handler)
		model_pmi_handler(&f);
	M.in_pmi = false;
	if (M.lvtpc_masked)
		model_violate("PMI handler returned with LVTPC masked");
}

void model_raise(void)
{
	M.st.pmis_raised++;
	if (M.delivery && !M.lvtpc_masked && !M.in_pmi)
		deliver();
	else
		M.pending = true;
}

void model_raise_pmi(void) { model_raise(); }
void model_pmi_delivery(bool on) { M.delivery = on; }

void model_pmi_flush(void)
{
	if (M.pending && !M.lvtpc_masked)
		deliver();
}

int model_reset_slot(bool fixed, unsigned i)
{
	unsigned ngp = M.fmt >= 5 ? 32 : 8;

	return fixed ? (int)(ngp + i) : (int)i;
}

unsigned model_record_size(unsigned i)
{
	static const unsigned legacy[] = { 0x90, 0xb0, 0xc0, 0xc8 };
	uint64_t cfg = M.data_cfg;
	unsigned size = 32;

	if (!M.baseline)
		return M.fmt < 4 ? legacy[M.fmt] : 32;
	if (!(M.evtsel[i] & EVTSEL_ADAPTIVE))
		return 32;
	size += cfg & PEBS_DATACFG_MEMINFO ? 32 : 0;
	size += cfg & PEBS_DATACFG_GP ? 144 : 0;
	size += cfg & PEBS_DATACFG_XMMS ? 256 : 0;
	if (cfg & PEBS_DATACFG_LBRS)
		size += (unsigned)(((cfg >> 24) & 0xff) + 1) * 24;
	return size;
}

static void put(uint8_t *rec, unsigned off, uint64_t v) { memcpy(rec + off, &v, 8); }

static void write_record(uint8_t *rec, unsigned size, unsigned i, const struct model_load *ld)
{
	bool ll = M.cpu->ll_event && EVTSEL_CODE(M.evtsel[i]) == M.cpu->ll_event;
	struct model_load z = { 0, 0, 0, 0x401000 };

	if (!ld)
		ld = &z;
	memset(rec, 0, size);
	if (!M.baseline) {
		put(rec, 0x00, 0x202);
		put(rec, 0x08, ld->ip + 3);	/* trap-like: next instruction */
		if (M.fmt >= 1) {
			put(rec, 0x90, M.fmt >= 3 ? 1ull << i : M.global_status | 1ull << i);
			put(rec, 0x98, ld->addr);
			put(rec, 0xa0, ld->dsrc);
			put(rec, 0xa8, ll ? ld->lat : 0);
		}
		if (M.fmt >= 2)
			put(rec, 0xb0, ld->ip);
		if (M.fmt >= 3)
			put(rec, 0xc0, M.tsc);
		return;
	}
	put(rec, 0x00, (M.evtsel[i] & EVTSEL_ADAPTIVE ? (M.data_cfg & 0xffffffff) : 0) |
		       (uint64_t)size << 48);
	put(rec, 0x08, ld->ip);
	put(rec, 0x10, 1ull << i);
	put(rec, 0x18, M.tsc);
	if (size > 32 && (M.data_cfg & PEBS_DATACFG_MEMINFO)) {
		put(rec, 0x20, ld->addr);
		put(rec, 0x28, ld->dsrc);
		put(rec, 0x30, !ll ? 0 : M.cpu->split_latency ? ld->lat << 32 | (ld->lat & 0xffff) :
			       ld->lat);
	}
}

/* The assist for counter i (armed): a record, or a drop at the absolute maximum. */
static void assist(unsigned i, const struct model_load *ld)
{
	uint64_t *ds = (uint64_t *)(uintptr_t)M.ds_area;
	unsigned size = model_record_size(i);

	M.st.assists++;
	M.tsc += M.assist_ticks;
	M.armed[i] = false;
	if (!ds || !model_mapped(M.ds_area, 0x40) || ds[5] + size > ds[6] ||
	    !model_mapped(ds[5], size)) {
		M.st.dropped++;		/* nothing written, nothing signalled, no reload */
		M.pmc[i] = (M.pmc[i] + 1) & M.gp_mask;
		return;
	}
	write_record((uint8_t *)(uintptr_t)ds[5], size, i, ld);
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
	if (M.pebs_enable & (1ull << i)) {
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
	}
}
