/*
 * pmu_model_hostile.c: the hostile knobs of the PMU model (pmu_model_hostile.h) and the
 * per-CPU rules that go with them. Sources, rule by rule:
 *  - firmware-owned counters, writes dropped: Linux arch/x86/events/core.c check_hw_exists();
 *  - LD_LAT writes ignored: Linux arch/x86/events/intel/core.c check_msr();
 *  - cross-mapped counters: kvm-unit-tests x86/pmu_pebs.c ("Known reasons for none PEBS
 *    records": the guest counter "has not yet overflowed or been cross-mapped by the host");
 *  - reserved bits #GP: SDM Vol. 4 Table 2-2 IA32_PERF_GLOBAL_OVF_CTRL (390H, perfmon
 *    v2-v3: PMCn, FIXED_CTRn, [61] Uncore, [62] OvfBuf, [63] CondChgd) and
 *    IA32_PERF_GLOBAL_STATUS_RESET (390H, v4+: adds [48] PerfMetrics, [55] ToPA, [58] LBR_Frz,
 *    [59] CTR_Frz, [60] ASCI); IA32_FIXED_CTR_CTRL (38DH: 4 bits per fixed counter, [32+4j]
 *    adaptive PEBS on baseline parts, Linux ICL_FIXED_0_ADAPTIVE); IA32_PERFEVTSELx[33:32]
 *    IN_TX/IN_TXCP only on parts with RTM (SDM Vol. 3B 20.3.6.5 "Performance Monitoring and
 *    Intel TSX"), [34] adaptive on baseline parts (SDM Vol. 3B 20.2 "Architectural
 *    Performance Monitoring");
 *  - minimum periods (docs/hardware.md §7.1): Nehalem 32 (Linux nhm_limit_period), Haswell 32
 *    and INST_RETIRED.ALL 128 (hsw_limit_period, HSW11), Broadwell INST_RETIRED.ALL >= 128
 *    and a multiple of 64 (bdw_limit_period, BDM11/BDM55);
 *  - PMC3 on TSX_FORCE_ABORT parts only with MSR_TSX_FORCE_ABORT[0] (Linux
 *    tfa_get_event_constraints);
 *  - BJ122/BV98/HSD29: an event 0xD0-0xD3 and a counter of the same index on the SMT sibling
 *    (modelled CPUs 2k and 2k+1) must not run together (Linux intel_ht_bug).
 */
#include "model/pmu_model_int.h"
#include "pebs/msr.h"

#include <string.h>

#define GP 13
#define INST_RETIRED_ALL 0x01c0

static bool in(uint32_t msr, uint32_t base, unsigned n, unsigned *i)
{
	if (msr < base || msr >= base + n)
		return false;
	*i = msr - base;
	return true;
}

/* The MSRs a hypervisor without a usable vPMU swallows. */
static bool pmu_msr(uint32_t msr)
{
	unsigned i;

	return in(msr, MSR_IA32_PMC(0), M_GP, &i) || in(msr, MSR_IA32_A_PMC(0), M_GP, &i) ||
	       in(msr, MSR_IA32_PERFEVTSEL(0), M_GP, &i) || in(msr, MSR_IA32_FIXED_CTR(0), M_FIX, &i) ||
	       msr == MSR_IA32_FIXED_CTR_CTRL || msr == MSR_IA32_PERF_GLOBAL_STATUS ||
	       msr == MSR_IA32_PERF_GLOBAL_CTRL || msr == MSR_IA32_PERF_GLOBAL_OVF_CTRL ||
	       msr == MSR_IA32_PEBS_ENABLE || msr == MSR_IA32_DS_AREA ||
	       msr == MSR_PEBS_DATA_CFG || msr == MSR_PEBS_LD_LAT_THRESHOLD;
}

void model_hostile(const struct model_hostile *h)
{
	M.h = *h;
	if (!M.h.fw_evtsel)
		M.h.fw_evtsel = 0x43003c;	/* UnHalted Core Cycles, OS+USR, INT, EN */
	for (unsigned i = 0; i < M.cpu->n_gp && i < M_GP; i++)
		if (h->fw_gp & (1u << i)) {
			M.evtsel[i] = M.h.fw_evtsel;
			M.global_ctrl |= 1ull << i;
		}
	M.fixed_ctrl = h->fw_fixed_ctrl;
}

void model_hostile_seed(uint64_t seed, unsigned n_gp, struct model_hostile *h)
{
	uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;
	uint32_t all = (1u << n_gp) - 1;

	memset(h, 0, sizeof(*h));
	for (unsigned k = 0; k < 6; k++) {
		unsigned pick;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		pick = (unsigned)(x >> 32);
		switch (k) {
		case 0: h->fw_gp = (pick & 3) ? 0 : (pick >> 8) & all; break;
		case 1: h->drop_writes = (pick & 7) == 0; break;
		case 2: h->ldlat_ignores_writes = (pick & 3) == 0; break;
		case 3: h->xmap_gp = (pick & 3) ? 0 : (pick >> 8) & all; break;
		case 4: h->fw_fixed_ctrl = (pick & 3) ? 0 : 0x30; break;	/* fixed 1: OS+USR */
		default: break;
		}
	}
}

/* Writes to firmware's counters (Linux check_hw_exists(): left alone). */
static void fw_overwrite(uint32_t msr, uint64_t v)
{
	unsigned i;

	if ((in(msr, MSR_IA32_PERFEVTSEL(0), M_GP, &i) || in(msr, MSR_IA32_PMC(0), M_GP, &i) ||
	     in(msr, MSR_IA32_A_PMC(0), M_GP, &i)) && (M.h.fw_gp & (1u << i)))
		model_violate("firmware-owned counter %u overwritten (MSR 0x%x <- 0x%llx; "
			      "IA32_PERFEVTSEL%u was 0x%llx before the kernel)", i, msr,
			      (unsigned long long)v, i, (unsigned long long)M.h.fw_evtsel);
	for (unsigned j = 0; j < M_FIX; j++) {
		uint64_t nib = 0xfull << (4 * j);

		if (!(M.h.fw_fixed_ctrl & nib))
			continue;
		if ((msr == MSR_IA32_FIXED_CTR_CTRL && ((v ^ M.h.fw_fixed_ctrl) & nib)) ||
		    msr == MSR_IA32_FIXED_CTR(j))
			model_violate("firmware-owned fixed counter %u overwritten (MSR 0x%x <- "
				      "0x%llx)", j, msr, (unsigned long long)v);
	}
}

bool model_hostile_rdmsr(uint32_t msr, uint64_t *v, int *vec)
{
	*vec = 0;
	if (msr == MSR_TSX_FORCE_ABORT) {
		if (!M.cpu->tfa)
			*vec = GP;
		*v = M.tfa_msr;
		return true;
	}
	if ((M.h.drop_writes && pmu_msr(msr)) ||
	    (M.h.ldlat_ignores_writes && msr == MSR_PEBS_LD_LAT_THRESHOLD)) {
		*v = 0;
		return true;
	}
	return false;
}

bool model_hostile_wrmsr(uint32_t msr, uint64_t v, int *vec)
{
	*vec = 0;
	if (msr == MSR_TSX_FORCE_ABORT) {
		if (!M.cpu->tfa || (v & ~7ull))	/* [0] RTM_FORCE_ABORT, [1], [2] */
			*vec = GP;
		else
			M.tfa_msr = v;
		return true;
	}
	if ((M.h.drop_writes && pmu_msr(msr)) ||
	    (M.h.ldlat_ignores_writes && msr == MSR_PEBS_LD_LAT_THRESHOLD))
		return true;	/* accepted, dropped */
	fw_overwrite(msr, v);
	return false;
}

bool model_hostile_xmapped(unsigned i)
{
	return i < 32 && (M.h.xmap_gp & (1u << i));
}

uint64_t model_ovf_ctrl_valid(void)
{
	const struct model_cpu *c = M.cpu;
	uint64_t v = ((1ull << c->n_gp) - 1) | GLOBAL_STATUS_OVF_BUF | GLOBAL_STATUS_COND_CHGD;

	v |= (uint64_t)((1u << c->n_fixed) - 1) << 32;
	if (c->version >= 3)
		v |= GLOBAL_STATUS_UNC_OVF;
	if (c->version >= 4)
		v |= GLOBAL_STATUS_TOPA | GLOBAL_STATUS_LBR_FRZ | GLOBAL_STATUS_CTR_FRZ |
		     GLOBAL_STATUS_ASIF;
	if (c->perf_cap & PERF_CAP_PERF_METRICS)
		v |= 1ull << 48;
	if (c->arch_caps)
		v |= GLOBAL_STATUS_ARCH_PEBS;
	return v;
}

uint64_t model_fixed_ctrl_valid(void)
{
	uint64_t v = 0;

	for (unsigned j = 0; j < M.cpu->n_fixed; j++) {
		v |= 0xfull << (4 * j);
		if (M.baseline)
			v |= FIXED_CTRL_ADAPTIVE(j);
	}
	return v;
}

uint64_t model_evtsel_hi_valid(void)
{
	return (M.cpu->tsx ? EVTSEL_IN_TX | EVTSEL_IN_TXCP : 0) |
	       (M.baseline ? EVTSEL_ADAPTIVE : 0);
}

/* The period a PEBS counter reloads with from its DS reset slot. */
static void period_check(unsigned i)
{
	const uint64_t *ds = (const uint64_t *)(uintptr_t)M.ds_area;
	uint16_t ev = EVTSEL_CODE(M.evtsel[i]);
	uint64_t p;

	if (M.cpu->period == PERIOD_ANY || M.fmt == 0xF || !ds ||
	    !model_mapped(M.ds_area, 8 * (9 + (unsigned)model_reset_slot(false, i))))
		return;
	p = (0 - ds[8 + model_reset_slot(false, i)]) & M.gp_mask;
	if (!p)
		return;	/* reload 0: a full 2^width period */
	if (M.cpu->period == PERIOD_NHM && p < 32)
		model_violate("PEBS period %llu on counter %u below the Nehalem minimum 32",
			      (unsigned long long)p, i);
	if (M.cpu->period == PERIOD_HSW && p < (ev == INST_RETIRED_ALL ? 128u : 32u))
		model_violate("PEBS period %llu on counter %u below the Haswell minimum %u (HSW11)",
			      (unsigned long long)p, i, ev == INST_RETIRED_ALL ? 128u : 32u);
	if (M.cpu->period == PERIOD_BDW && ev == INST_RETIRED_ALL && (p < 128 || (p & 0x3f)))
		model_violate("INST_RETIRED.ALL period %llu on counter %u: Broadwell needs >= 128, "
			      "a multiple of 64 (BDM11, BDM55)", (unsigned long long)p, i);
}

static bool counting(const struct model_state *s, unsigned i)
{
	return (s->global_ctrl & (1ull << i)) && (s->evtsel[i] & EVTSEL_EN);
}

static bool ht_excl(const struct model_state *s, unsigned i)
{
	unsigned ev = (unsigned)(s->evtsel[i] & 0xff);

	return counting(s, i) && ev >= 0xd0 && ev <= 0xd3;
}

void model_hostile_check(void)
{
	unsigned me = model_current(), sib = me ^ 1u;

	for (unsigned i = 0; i < M.cpu->n_gp; i++) {
		if (model_pebs_active(i))
			period_check(i);
		if (M.cpu->tfa && i == 3 && counting(&M, 3) && !(M.h.fw_gp & 0x8) &&
		    !(M.tfa_msr & TFA_RTM_FORCE_ABORT))	/* firmware's own use is not ours */
			model_violate("PMC3 enabled on a TSX_FORCE_ABORT part without "
				      "MSR_TSX_FORCE_ABORT[0]: the microcode uses it");
		if (M.cpu->ht_erratum && sib < model_ncpus &&
		    ((ht_excl(&M, i) && counting(&model_state_of[sib], i)) ||
		     (counting(&M, i) && ht_excl(&model_state_of[sib], i))))
			model_violate("BJ122/BV98/HSD29: counter %u on CPU %u and its SMT sibling %u "
				      "with an event 0xD0-0xD3", i, me, sib);
	}
}
