/*
 * ibs_model_pmc.c: the core clocks of the modelled AMD part (ibs_model.h): the four legacy core
 * performance counters (PerfEvtSel0-3 MSRC001_0000-3, PerfCtr0-3 MSRC001_0004-7; AMD64 APM
 * Vol. 2 "Performance Monitoring Counters", Figure "Core Performance Event-Select Register":
 * bits 63:42, 39:36, 21 and 19 reserved, a write setting one #GPs) and IA32_APERF (MSR 0E8h,
 * APM Vol. 2 "Effective Frequency Interface", present with CPUID 06H:ECX[0]). Only PMCx076
 * "CPU clocks not halted" (PPR 17h/19h/1Ah) is modelled: with En and Usr or Os it counts core
 * clocks, core_x100/100 per virtual TSC tick (the model never halts); any other event counts
 * nothing. Knobs per CPU row: counters firmware left enabled (fw_pmc), a hypervisor that
 * swallows the counter MSRs (pmc_swallowed: reads 0, writes dropped, as KVM without a vPMU
 * and ignore_msrs), no APERF.
 */
#include "model/ibs_model_int.h"
#include "model/vclock.h"

#define GP 13
#define SEL_RESERVED (~0ull << 42 | 0xfull << 36 | 1ull << 21 | 1ull << 19)
#define SEL_EN (1ull << 22)
#define SEL_RING (3ull << 16)
#define CTR_MASK ((1ull << 48) - 1)

static bool counting(unsigned i)
{
	uint64_t s = IM.pmc_sel[i];

	return (s & SEL_EN) && (s & SEL_RING) && (s & 0xff) == 0x76 && !(s & 0xfull << 32);
}

static uint64_t clocks_since(uint64_t t0)
{
	return (vclock.now - t0) * IM.core_x100 / 100;
}

static uint64_t ctr_now(unsigned i)
{
	return (IM.pmc_base[i] + (counting(i) ? clocks_since(IM.pmc_t0[i]) : 0)) & CTR_MASK;
}

void im_pmc_reset(void)
{
	for (unsigned i = 0; i < 4; i++) {
		IM.pmc_sel[i] = IM.cpu->fw_pmc & 1u << i ? SEL_EN | SEL_RING | 0xc0 : 0;
		IM.pmc_base[i] = 0;
		IM.pmc_t0[i] = vclock.now;
	}
	IM.core_x100 = 110;
}

int im_pmc_read(uint32_t msr, uint64_t *v)
{
	if (msr == 0xe8 && IM.cpu->aperf) {
		*v = clocks_since(0);
		return 0;
	}
	if (msr < 0xc0010000u || msr > 0xc0010007u)
		return -1;
	if (IM.cpu->pmc_swallowed)
		*v = 0;
	else
		*v = msr < 0xc0010004u ? IM.pmc_sel[msr & 3] : ctr_now(msr & 3);
	return 0;
}

int im_pmc_write(uint32_t msr, uint64_t v)
{
	unsigned i = msr & 3;

	if (msr < 0xc0010000u || msr > 0xc0010007u)
		return -1;
	if (IM.cpu->pmc_swallowed)
		return 0;
	if (msr >= 0xc0010004u) {
		IM.pmc_base[i] = v & CTR_MASK;
		IM.pmc_t0[i] = vclock.now;
		return 0;
	}
	if (v & SEL_RESERVED)
		return GP;
	if (IM.cpu->fw_pmc & 1u << i)
		im_violate("PerfEvtSel%u (firmware's, En set at boot) reprogrammed", i);
	IM.pmc_base[i] = ctr_now(i);
	IM.pmc_t0[i] = vclock.now;
	IM.pmc_sel[i] = v;
	return 0;
}

void ibs_model_set_core_ratio(unsigned x100) { IM.core_x100 = x100; }
uint64_t ibs_model_pmc_sel(unsigned i) { return i < 4 ? IM.pmc_sel[i] : 0; }
