/*
 * pmu_model_msr.c: kernel/hw.h over the model's register file. Reserved bits and absent MSRs
 * #GP (vector 13) as on hardware; a #GP through the non-safe accessor, or a model-specific MSR
 * touched without _safe, is a violation (the kernel would crash / the house rule says _safe).
 * Sources: docs/hardware.md §1.1-§1.10, §7.2, §8.3, §8.4.
 */
#include "model/pmu_model_int.h"
#include "kernel/hw.h"
#include "pebs/msr.h"

#define GP 13

static bool in(uint32_t msr, uint32_t base, unsigned n, unsigned *i)
{
	if (msr < base || msr >= base + n)
		return false;
	*i = msr - base;
	return true;
}

static bool model_specific(uint32_t msr)
{
	unsigned i;

	return msr == MSR_PEBS_DATA_CFG || msr == MSR_PEBS_LD_LAT_THRESHOLD ||
	       msr == MSR_IA32_PERF_CAPABILITIES || msr == MSR_IA32_MISC_ENABLE ||
	       msr == MSR_IA32_BIOS_SIGN_ID || msr == MSR_IA32_DEBUGCTL ||
	       msr == MSR_IA32_PEBS_ENABLE || msr == MSR_IA32_DS_AREA ||
	       in(msr, MSR_IA32_A_PMC(0), M_GP, &i);
}

static void pmi_entry_check(uint32_t msr, bool is_ctrl_zero)
{
	if (!M.in_pmi || M.pmi_disabled_first)
		return;
	if (is_ctrl_zero)
		M.pmi_disabled_first = true;
	else
		model_violate("PMI handler touched MSR 0x%x before GLOBAL_CTRL <- 0", msr);
}

static int msr_read(uint32_t msr, uint64_t *v)
{
	const struct model_cpu *c = M.cpu;
	unsigned i;
	int vec;

	pmi_entry_check(msr, false);
	if (model_hostile_rdmsr(msr, v, &vec) || model_arch_rdmsr(msr, v, &vec))
		return vec;
	if (msr == MSR_IA32_BIOS_SIGN_ID)
		*v = M.ucode_latch;
	else if (msr == MSR_IA32_MISC_ENABLE)
		*v = c->misc_enable;
	else if (msr == MSR_IA32_PERF_CAPABILITIES && c->pdcm)
		*v = c->perf_cap;
	else if (msr == MSR_IA32_DEBUGCTL)
		*v = M.debugctl;
	else if (c->version && in(msr, MSR_IA32_PMC(0), c->n_gp, &i))
		*v = M.pmc[i];
	else if (c->version && M.fw_write && in(msr, MSR_IA32_A_PMC(0), c->n_gp, &i))
		*v = M.pmc[i];
	else if (c->version && in(msr, MSR_IA32_PERFEVTSEL(0), c->n_gp, &i))
		*v = M.evtsel[i];
	else if (c->version >= 2 && in(msr, MSR_IA32_FIXED_CTR(0), c->n_fixed, &i))
		*v = M.fixed[i];
	else if (c->version >= 2 && msr == MSR_IA32_FIXED_CTR_CTRL)
		*v = M.fixed_ctrl;
	else if (c->version >= 2 && msr == MSR_IA32_PERF_GLOBAL_STATUS) {
		*v = M.global_status;
		model_logf("status");
	} else if (c->version >= 2 && msr == MSR_IA32_PERF_GLOBAL_CTRL)
		*v = M.global_ctrl;
	else if (c->ds && msr == MSR_IA32_PEBS_ENABLE)
		*v = M.pebs_enable;
	else if (M.baseline && msr == MSR_PEBS_DATA_CFG)
		*v = M.data_cfg;
	else if (c->ll_event && !c->ldlat_faults && msr == MSR_PEBS_LD_LAT_THRESHOLD)
		*v = M.ldlat;
	else if (c->ds && msr == MSR_IA32_DS_AREA)
		*v = M.ds_area;
	else
		return GP;
	return 0;
}

static uint64_t pebs_enable_valid(const struct model_cpu *c)
{
	uint64_t v = c->pebs_gp;

	if (c->version < 5)
		v |= (uint64_t)c->pebs_gp << 32;	/* LL_EN (§1.5) */
	else if (M.baseline)
		v |= (uint64_t)((1u << c->n_fixed) - 1) << 32;
	if (c->ps_en_store)
		v |= PEBS_PS_EN;
	return v;
}

static void write_pmc(unsigned i, uint64_t v, const char *what)
{
	model_no_write_while_active(i, what);
	M.pmc[i] = v & M.gp_mask;
	M.armed[i] = false;
}

static void write_global_ctrl(uint64_t v)
{
	uint64_t old = M.global_ctrl;

	M.global_ctrl = v;
	if (M.in_pmi) {
		if (v && M.lvtpc_masked)
			model_violate("GLOBAL_CTRL re-enabled before LVTPC unmask (apic_pmi_rearm)");
		model_logf(v ? "ctrl=on" : "ctrl=0");
	}
	if (M.cpu->nhm_reset && (v & 0xf) == 0xf && !(old & 0xf) && M.evtsel[0] == 0x4300b5 &&
	    M.evtsel[1] == 0x4300d2 && M.evtsel[2] == 0x4300b1 && M.evtsel[3] == 0x4300b1) {
		/* AAK100 step 2: the magic events run on cleared PMCs (Linux core.c
		 * intel_pmu_nhm_workaround, "clear the corresponding PMCx") */
		bool clear = true;

		for (unsigned i = 0; i < 4; i++)
			if (M.pmc[i]) {
				model_violate("AAK100: magic events run with PMC%u = 0x%llx, not "
					      "cleared first", i, (unsigned long long)M.pmc[i]);
				clear = false;
			}
		M.nhm_reset_seen |= clear;
	}
}

static int msr_write(uint32_t msr, uint64_t v)
{
	const struct model_cpu *c = M.cpu;
	uint64_t cnt_mask = ((1ull << c->n_gp) - 1) | ((uint64_t)((1u << c->n_fixed) - 1) << 32);
	unsigned i;
	int vec;

	pmi_entry_check(msr, msr == MSR_IA32_PERF_GLOBAL_CTRL && v == 0);
	if (model_hostile_wrmsr(msr, v, &vec))
		return vec;
	if (model_arch_wrmsr(msr, v, &vec)) {
		if (!vec)
			model_check_active();
		return vec;
	}
	if (msr == MSR_IA32_BIOS_SIGN_ID) {
		M.ucode_latch = v;
	} else if (msr == MSR_IA32_MISC_ENABLE) {
		/* writable bits are not modelled: ignore */
	} else if (msr == MSR_IA32_DEBUGCTL) {
		if ((v & DEBUGCTL_FREEZE_WHILE_SMM) && !(c->perf_cap & PERF_CAP_FREEZE_SMM))
			return GP;
		M.debugctl = v;
	} else if (c->version && in(msr, MSR_IA32_PMC(0), c->n_gp, &i)) {
		if (v >> 32 && v >> 31 != 0x1ffffffffull)
			model_violate("legacy IA32_PMC%u write of 0x%llx wider than 32 bits", i,
				      (unsigned long long)v);
		write_pmc(i, (uint64_t)(int64_t)(int32_t)(uint32_t)v, "IA32_PMC");
	} else if (c->version && in(msr, MSR_IA32_A_PMC(0), c->n_gp, &i)) {
		if (!M.fw_write || (v & ~M.gp_mask))
			return GP;
		write_pmc(i, v, "IA32_A_PMC");
	} else if (c->version && in(msr, MSR_IA32_PERFEVTSEL(0), c->n_gp, &i)) {
		if (v & ~0xffffffffull & ~model_evtsel_hi_valid())
			return GP;	/* [33:32] TSX only, [34] baseline only (hostile.c) */
		model_no_write_while_active(i, "IA32_PERFEVTSEL");
		M.evtsel[i] = v;
	} else if (c->version >= 2 && in(msr, MSR_IA32_FIXED_CTR(0), c->n_fixed, &i)) {
		M.fixed[i] = v & ((1ull << c->fixed_width) - 1);
	} else if (c->version >= 2 && msr == MSR_IA32_FIXED_CTR_CTRL) {
		if (v & ~model_fixed_ctrl_valid())
			return GP;
		M.fixed_ctrl = v;
	} else if (c->version >= 2 && msr == MSR_IA32_PERF_GLOBAL_CTRL) {
		if (v & ~cnt_mask)
			return GP;
		write_global_ctrl(v);
	} else if (c->version >= 2 && msr == MSR_IA32_PERF_GLOBAL_OVF_CTRL) {
		if (v & ~model_ovf_ctrl_valid())
			return GP;
		M.global_status &= ~v;
		if (M.in_pmi)
			model_logf("ack");
	} else if (c->ds && msr == MSR_IA32_PEBS_ENABLE) {
		if (v & ~pebs_enable_valid(c)) {
			if (v & 0xffffffffull & ~(uint64_t)c->pebs_gp)
				model_violate("PEBS_ENABLE 0x%llx: PEBS on a counter that cannot "
					      "PEBS (0x%x)", (unsigned long long)v, c->pebs_gp);
			return GP;
		}
		for (i = 0; i < c->n_gp; i++)
			if ((M.pebs_enable & ~v & (1ull << i)) && (M.global_ctrl & (1ull << i)) &&
			    (M.evtsel[i] & EVTSEL_EN))
				model_violate("PEBS_ENABLE cleared while counter %u still enabled "
					      "in GLOBAL_CTRL (teardown order)", i);
		M.pebs_enable = v;
	} else if (M.baseline && msr == MSR_PEBS_DATA_CFG) {
		if (model_any_pebs_active())
			model_violate("PEBS_DATA_CFG changed while PEBS enabled");
		if (M.fmt < 6 && (v & (PEBS_DATACFG_CNTR | PEBS_DATACFG_METRICS | ~0xffffffffull)))
			return GP;	/* counter-snapshot groups: format 6 only (§4.3) */
		M.data_cfg = v;
	} else if (c->ll_event && !c->ldlat_faults && msr == MSR_PEBS_LD_LAT_THRESHOLD) {
		if (v & ~PEBS_LD_LAT_MASK)
			return GP;
		if (v < 3)
			model_violate("MSR_PEBS_LD_LAT_THRESHOLD <- %llu: below the minimum 3",
				      (unsigned long long)v);
		M.ldlat = v;
	} else if (c->ds && msr == MSR_IA32_DS_AREA) {
		if (model_any_pebs_active())
			model_violate("DS_AREA changed while PEBS enabled (teardown order)");
		M.ds_area = v;
	} else {
		return GP;
	}
	model_check_active();
	return 0;
}

int rdmsr_safe(uint32_t msr, uint64_t *val)
{
	int r;

	model_tick(true);	/* a held or late PMI lands before the access */
	r = msr_read(msr, val);

	if (r)
		*val = 0;
	return r;
}

int wrmsr_safe(uint32_t msr, uint64_t val)
{
	model_tick(true);
	return msr_write(msr, val);
}

uint64_t rdmsr(uint32_t msr)
{
	uint64_t v = 0;

	model_tick(true);
	if (model_specific(msr))
		model_violate("model-specific MSR 0x%x read without rdmsr_safe", msr);
	if (msr_read(msr, &v))
		model_violate("rdmsr 0x%x #GP through the non-safe accessor", msr);
	return v;
}

void wrmsr(uint32_t msr, uint64_t val)
{
	model_tick(true);
	if (model_specific(msr))
		model_violate("model-specific MSR 0x%x written without wrmsr_safe", msr);
	if (msr_write(msr, val))
		model_violate("wrmsr 0x%x <- 0x%llx #GP through the non-safe accessor", msr,
			      (unsigned long long)val);
}

int rdpmc_safe(uint32_t counter, uint64_t *val)
{
	unsigned i = counter & 0x3fffffff;

	if (!M.cpu->version)
		return GP;
	if (counter & (1u << 30)) {
		if (i >= M.cpu->n_fixed)
			return GP;
		*val = M.fixed[i];
	} else {
		if (i >= M.cpu->n_gp)
			return GP;
		*val = M.pmc[i];
	}
	return 0;
}

uint8_t inb(uint16_t port) { (void)port; return 0xff; }
void outb(uint16_t port, uint8_t val) { (void)port; (void)val; }
uint32_t mmio_read32(uintptr_t addr) { (void)addr; return 0; }
void mmio_write32(uintptr_t addr, uint32_t val) { (void)addr; (void)val; }
uint8_t mmio_read8(uintptr_t addr) { (void)addr; return 0; }
void mmio_write8(uintptr_t addr, uint8_t val) { (void)addr; (void)val; }
