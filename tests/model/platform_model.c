/*
 * platform_model.c: the platform model (see platform_model.h): MSRs through kernel/hw.h's
 * _safe accessors, with the rules and knobs listed there.
 */
#include "tests/model/platform_model.h"
#include "tests/model/vclock.h"
#include "tests/host/fake_cpuid.h"
#include "kernel/hw.h"
#include "kernel/memtype.h"
#include "kernel/trust.h"

#include <string.h>

#define GP 13

struct platform_model pm;

void pm_cpuid(void)
{
	uint32_t edx1 = (1u << 4) | (1u << 5);	/* TSC, MSR */

	edx1 |= pm.has_mca ? (1u << 7) | (1u << 14) : 0;
	edx1 |= pm.has_mtrr ? 1u << 12 : 0;
	edx1 |= pm.has_pat ? 1u << 16 : 0;
	edx1 |= pm.has_therm ? 1u << 22 : 0;
	fake_cpuid_clear();
	fake_cpuid_set(0, 0, 0x16, 0x756e6547, 0x6c65746e, 0x49656e69);	/* GenuineIntel */
	fake_cpuid_set(1, 0, 0x000506e3, (uint32_t)pm.apic_id << 24, 0, edx1);
	fake_cpuid_set(6, 0, pm.has_pkg_therm ? 1u << 6 : 0, 0, pm.has_aperf ? 1 : 0, 0);
	fake_cpuid_set(0x80000000, 0, 0x80000008, 0, 0, 0);
	fake_cpuid_set(0x80000008, 0, 39, 0, 0, 0);
}

void pm_reset(void)
{
	memset(&pm, 0, sizeof(pm));
	pm.has_smi = pm.has_therm = pm.has_pkg_therm = pm.has_aperf = true;
	pm.has_mca = pm.has_mtrr = pm.has_pat = true;
	pm.ratio_pct = pm.drift_pct = 100;
	pm.mce_banks = 10;
	pm.mtrr_cap = 0x500 | 10;		/* WC, FIX, 10 variable ranges */
	pm.mtrr_def = MTRR_DEF_E | MTRR_DEF_FE | MT_UC;	/* firmware's usual: default UC */
	pm.mtrr_base[0] = MT_WB;		/* 0..2 GiB WB */
	pm.mtrr_mask[0] = (((1ull << 39) - 1) & ~((2ull << 30) - 1)) | MTRR_MASK_VALID;
	pm.pat = 0x0007040600070406ull;		/* power-up value */
	pm.cr0 = 0x80010033;			/* PG WP NE ET MP PE */
	pm_cpuid();
	vclock_reset(0, 1000);
}

/* splitmix64 (Steele et al.): the seeded schedule's draws */
static uint64_t mix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void pm_seed(uint64_t seed, uint64_t from, uint64_t to)
{
	uint64_t s = seed, span = to > from ? to - from : 1;

	pm.n_smi = (unsigned)(mix(&s) % 3);
	for (unsigned i = 0; i < pm.n_smi; i++)
		pm.smi_at[i] = from + mix(&s) % span;
	if (mix(&s) & 1) {
		pm.therm_at = from + mix(&s) % span;
		pm.therm_bits = (1ull << 1) << (2 * (mix(&s) % 3));	/* bit 1, 3 or 5 */
	}
	if (mix(&s) & 1) {
		pm.drift_at = from + mix(&s) % span;
		pm.drift_pct = 50 + (unsigned)(mix(&s) % 40);
	}
	if (mix(&s) & 1) {
		pm.mce_at = from + mix(&s) % span;
		pm.mce_bank = (unsigned)(mix(&s) % pm.mce_banks);
		pm.mce_status = MCI_STATUS_VAL | (1ull << 61) | 0x0150;
	}
}

/* What happened by vclock.now: latch the log bits and the machine check. */
static void advance(void)
{
	if (pm.therm_at && !pm.therm_fired && vclock.now >= pm.therm_at) {
		pm.therm_log |= pm.therm_bits;
		pm.therm_fired = true;
	}
	if (pm.pkg_at && !pm.pkg_fired && vclock.now >= pm.pkg_at) {
		pm.pkg_log |= pm.pkg_bits;
		pm.pkg_fired = true;
	}
	if (pm.mce_at && !pm.mce_fired && vclock.now >= pm.mce_at) {
		pm.mc_status[pm.mce_bank] = pm.mce_status;
		pm.mce_fired = true;
	}
}

static uint64_t smi_count(void)
{
	uint64_t n = pm.smi_base;

	for (unsigned i = 0; i < pm.n_smi; i++)
		n += pm.smi_at[i] <= vclock.now;
	return n & 0xffffffffull;
}

static uint64_t aperf(void)
{
	uint64_t t = vclock.now;

	if (!pm.drift_at || t < pm.drift_at)
		return t * pm.ratio_pct / 100;
	return pm.drift_at * pm.ratio_pct / 100 + (t - pm.drift_at) * pm.drift_pct / 100;
}

/* The register, or NULL when the modelled CPU lacks it (mtrr: *var set for MTRR/PAT). */
static int msr_read(uint32_t msr, uint64_t *v)
{
	advance();
	if (msr == MSR_SMI_COUNT && pm.has_smi)
		*v = smi_count();
	else if (msr == MSR_IA32_THERM_STATUS && pm.has_therm)
		*v = pm.therm_log;
	else if (msr == MSR_IA32_PACKAGE_THERM_STATUS && pm.has_pkg_therm)
		*v = pm.pkg_log;
	else if (msr == MSR_IA32_MPERF && pm.has_aperf)
		*v = pm.mperf_still ? 0 : vclock.now;
	else if (msr == MSR_IA32_APERF && pm.has_aperf)
		*v = pm.mperf_still ? 0 : aperf();
	else if (msr == MSR_IA32_MCG_CAP && pm.has_mca)
		*v = pm.mce_banks;
	else if (msr >= MSR_IA32_MC0_STATUS && msr < MSR_IA32_MC0_STATUS + 4 * pm.mce_banks &&
		 (msr - MSR_IA32_MC0_STATUS) % 4 == 0 && pm.has_mca)
		*v = pm.mc_status[(msr - MSR_IA32_MC0_STATUS) / 4];
	else if (msr == MSR_IA32_MTRRCAP && pm.has_mtrr)
		*v = pm.mtrr_cap;
	else if (msr == MSR_IA32_MTRR_DEF_TYPE && pm.has_mtrr)
		*v = pm.mtrr_def;
	else if (msr >= 0x200 && msr < 0x200 + 2 * (pm.mtrr_cap & 0xff) && pm.has_mtrr)
		*v = (msr & 1) ? pm.mtrr_mask[(msr - 0x200) / 2] : pm.mtrr_base[(msr - 0x200) / 2];
	else if ((msr == 0x250 || msr == 0x258 || msr == 0x259 || (msr >= 0x268 && msr <= 0x26f))
		 && pm.has_mtrr && (pm.mtrr_cap & MTRR_CAP_FIX))	/* the fixed ranges */
		*v = pm.mtrr_fixed[msr == 0x250 ? 0 : msr == 0x258 ? 1 : msr == 0x259 ? 2
				   : 3 + msr - 0x268];
	else if (msr == MSR_IA32_PAT_MT && pm.has_pat)
		*v = pm.pat;
	else if (pm.pf_msr && msr == pm.pf_msr)
		*v = pm.pf_val;
	else if (msr == 0x1b)	/* IA32_APIC_BASE: 0xFEE00000, BSP[8], EN[11] (SDM Vol. 3A 11.4.4) */
		*v = 0xfee00900;
	else
		return GP;
	return 0;
}

int rdmsr_safe(uint32_t msr, uint64_t *val)
{
	pm.reads++;
	if (!msr_read(msr, val))
		return 0;
	*val = 0;
	if (pm.ignore_msrs)
		return 0;
	pm.gp++;
	return GP;
}

/* R/WC0 log bits: 0 clears, 1 keeps; a 1 anywhere else is a #GP. */
static int write_log(uint64_t *log, uint64_t writable, uint64_t val)
{
	if (val & ~writable) {
		pm.violations++;
		return GP;
	}
	*log &= val | ~writable;
	return 0;
}

int wrmsr_safe(uint32_t msr, uint64_t val)
{
	int r = GP;

	pm.writes++;
	advance();
	if (msr == MSR_IA32_THERM_STATUS && pm.has_therm)
		r = write_log(&pm.therm_log, 0xaaaaull, val);	/* log bits 1..15 odd */
	else if (msr == MSR_IA32_PACKAGE_THERM_STATUS && pm.has_pkg_therm)
		r = write_log(&pm.pkg_log, 0x0aaaull, val);	/* log bits 1..11 odd */
	else if (msr == MSR_SMI_COUNT && pm.has_smi)
		pm.violations++;	/* read-only */
	else if (msr == MSR_IA32_PAT_MT && pm.has_pat)
		pm.pat = val, r = 0;
	else if (pm.pf_msr && msr == pm.pf_msr && (val & ~pm.pf_rw))
		pm.violations++;	/* a reserved bit */
	else if (pm.pf_msr && msr == pm.pf_msr)
		pm.pf_val = pm.pf_drop ? pm.pf_val : val, r = 0;
	else if (pm.ignore_msrs)
		r = 0;
	if (r)
		pm.gp++;
	return r;
}

uint64_t read_cr0(void)
{
	return pm.cr0;
}
