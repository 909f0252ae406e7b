/*
 * trust.c: the per-test trust signals (see trust.h). Sources: MSR_SMI_COUNT 0x34 (SDM Vol. 4,
 * the model tables from Nehalem on; the model list is Linux arch/x86/events/msr.c
 * test_intel(), PERF_MSR_SMI), IA32_THERM_STATUS (present when CPUID.01H:EDX.ACPI[22]),
 * IA32_PACKAGE_THERM_STATUS (CPUID.06H:EAX.PTM[6]), their R/WC0 log bits cleared by writing 0
 * (Linux arch/x86/kernel/cpu/mce/therm_throt.c clear_therm_status_log writes 0 to the bit it
 * clears), IA32_MPERF/IA32_APERF (CPUID.06H:ECX[0], SDM Vol. 3B 15.2 "P-State Hardware
 * Coordination": only the ratio of their increments is meaningful), and the machine-check
 * architecture (CPUID.01H:EDX.MCE[7] and MCA[14], IA32_MCG_CAP Count[7:0], IA32_MCi_STATUS
 * VAL[63]; SDM Vol. 3B 16.3 "Machine-Check MSRs").
 */
#include "kernel/trust.h"
#include "kernel/cpu.h"
#include "kernel/fmt.h"
#include "kernel/hw.h"
#include "kernel/msr_platform.h"

#include <string.h>

struct trust_state trust;

/* Family 6 models with MSR_SMI_COUNT (Linux arch/x86/events/msr.c test_intel, PERF_MSR_SMI):
 * Nehalem, Westmere, Sandy Bridge, Ivy Bridge, Haswell, Broadwell, Skylake and its client
 * successors to Meteor Lake, Ice Lake server, Sapphire/Emerald/Granite Rapids, the Atoms
 * from Silvermont to Tremont and Gracemont, Xeon Phi. */
static const uint8_t smi_count_models[] = {
	0x1e, 0x1f, 0x1a, 0x2e, 0x25, 0x2c, 0x2f, 0x2a, 0x2d, 0x3a, 0x3e, 0x3c, 0x3f, 0x45,
	0x46, 0x3d, 0x47, 0x4f, 0x56, 0x8f, 0xcf, 0xad, 0xae, 0x37, 0x4d, 0x4c, 0x5c, 0x5f,
	0x7a, 0x86, 0x96, 0x9c, 0x57, 0x85, 0x4e, 0x5e, 0x55, 0x8e, 0x9e, 0xa5, 0xa6, 0x7e,
	0x7d, 0x6a, 0x6c, 0x8c, 0x8d, 0xa7, 0x97, 0x9a, 0xbe, 0xb7, 0xba, 0xbf, 0xac, 0xaa,
};

static bool has_smi_count(const struct cpu_info *ci)
{
	if (ci->vendor != VENDOR_INTEL || ci->family != 6)
		return false;
	for (unsigned i = 0; i < sizeof(smi_count_models); i++)
		if (smi_count_models[i] == ci->model)
			return true;
	return false;
}

static uint8_t apic_id_now(void)
{
	struct cpuid_regs r;

	cpuid_count(1, 0, &r);
	return (uint8_t)(r.ebx >> 24);
}

/* Read a signal's MSR: its vector (-1 when the CPU lacks it), *v on success. */
static int probe(bool present, uint32_t msr, uint64_t *v)
{
	*v = 0;
	if (!present)
		return -1;
	return rdmsr_safe(msr, v);
}

static void clear_logs(void)
{
	if (trust.therm)
		(void)wrmsr_safe(MSR_IA32_THERM_STATUS, 0);
	if (trust.pkg_therm)
		(void)wrmsr_safe(MSR_IA32_PACKAGE_THERM_STATUS, 0);
}

static unsigned ratio_pct(uint64_t da, uint64_t dm)
{
	if (dm < TRUST_MIN_MPERF)
		return 0;
	return (unsigned)(da / (dm / 100 ? dm / 100 : 1));
}

static void start_ratio(uint64_t window)
{
	uint64_t a0, m0, a1, m1, t0;

	if (rdmsr_safe(MSR_IA32_MPERF, &m0) || rdmsr_safe(MSR_IA32_APERF, &a0))
		return;
	t0 = rdtsc();
	while (rdtsc() - t0 < window)
		;
	if (rdmsr_safe(MSR_IA32_MPERF, &m1) || rdmsr_safe(MSR_IA32_APERF, &a1))
		return;
	trust.start_pct = ratio_pct(a1 - a0, m1 - m0);
	if (!trust.start_pct) {
		trust.aperf = false;	/* MPERF does not count: nothing to compare */
		trust.mperf_still = true;
	}
}

uint64_t trust_mce_scan(void)
{
	uint64_t valid = 0, v;

	for (unsigned i = 0; i < trust.mce_banks; i++)
		if (!rdmsr_safe(MSR_IA32_MC0_STATUS + 4 * i, &v) && (v & MCI_STATUS_VAL))
			valid |= 1ull << i;
	return valid;
}

void trust_init(uint64_t window)
{
	struct cpuid_regs r1, r6 = { 0 };
	uint64_t v;

	memset(&trust, 0, sizeof(trust));
	trust.swallowed = msr_platform_swallows();
	cpuid_count(1, 0, &r1);
	if (cpu.max_leaf >= 6)
		cpuid_count(6, 0, &r6);
	trust.smi_vec = probe(cpu.msr && has_smi_count(&cpu), MSR_SMI_COUNT, &trust.smi_start);
	trust.therm_vec = probe(cpu.msr && (r1.edx & (1u << 22)), MSR_IA32_THERM_STATUS,
				&trust.therm_start);
	trust.pkg_vec = probe(cpu.msr && (r6.eax & (1u << 6)), MSR_IA32_PACKAGE_THERM_STATUS,
			      &trust.pkg_start);
	trust.aperf_vec = probe(cpu.msr && (r6.ecx & 1), MSR_IA32_MPERF, &v);
	trust.mce_vec = probe(cpu.msr && (r1.edx & (1u << 7)) && (r1.edx & (1u << 14)),
			      MSR_IA32_MCG_CAP, &v);
	trust.smi = !trust.smi_vec;
	trust.therm = !trust.therm_vec;
	trust.pkg_therm = !trust.pkg_vec;
	trust.aperf = !trust.aperf_vec;
	if (!trust.mce_vec)
		trust.mce_banks = MCG_CAP_COUNT(v) < TRUST_MCE_BANKS ? MCG_CAP_COUNT(v)
			: TRUST_MCE_BANKS;
	clear_logs();
	if (trust.aperf)
		start_ratio(window);
	trust.mce_at_start = trust_mce_scan();
}

const char *trust_emulation_hint(void)
{
	if (trust.aperf_vec > 0)
		return "IA32_MPERF #GPs though CPUID.06H:ECX[0]=1";
	if (trust.mperf_still)
		return "IA32_MPERF does not count though CPUID.06H:ECX[0]=1";
	if (trust.therm_vec > 0)
		return "IA32_THERM_STATUS #GPs though CPUID.01H:EDX[22]=1";
	if (trust.pkg_vec > 0)
		return "IA32_PACKAGE_THERM_STATUS #GPs though CPUID.06H:EAX[6]=1";
	return NULL;
}

void trust_begin(void)
{
	clear_logs();
	trust.active = true;
	trust.apic_id = apic_id_now();
	if (trust.smi && rdmsr_safe(MSR_SMI_COUNT, &trust.smi0))
		trust.smi0 = 0;
	if (trust.aperf && (rdmsr_safe(MSR_IA32_MPERF, &trust.mperf0) ||
			    rdmsr_safe(MSR_IA32_APERF, &trust.aperf0)))
		trust.mperf0 = trust.aperf0 = 0;
}

void trust_moved_now(struct trust_moved *m)
{
	uint64_t v, a, mp;

	memset(m, 0, sizeof(*m));
	if (!trust.active || apic_id_now() != trust.apic_id)
		return;
	if (trust.smi && !rdmsr_safe(MSR_SMI_COUNT, &v))
		m->smis = (uint32_t)((uint32_t)v - (uint32_t)trust.smi0);	/* 32-bit count */
	if (trust.therm && !rdmsr_safe(MSR_IA32_THERM_STATUS, &v))
		m->therm_log = v & THERM_LOG_THROTTLE;
	if (trust.pkg_therm && !rdmsr_safe(MSR_IA32_PACKAGE_THERM_STATUS, &v))
		m->pkg_log = v & PKG_THERM_LOG_THROTTLE;
	if (trust.aperf && trust.mperf0 && !rdmsr_safe(MSR_IA32_MPERF, &mp) &&
	    !rdmsr_safe(MSR_IA32_APERF, &a)) {
		m->freq_pct = ratio_pct(a - trust.aperf0, mp - trust.mperf0) * 100 /
			trust.start_pct;
		m->freq_moved = m->freq_pct && (m->freq_pct > 100 + TRUST_FREQ_TOLERANCE_PCT ||
						m->freq_pct < 100 - TRUST_FREQ_TOLERANCE_PCT);
	}
}

bool trust_moved_text(const struct trust_moved *m, char *b, size_t n)
{
	size_t at = 0;

	b[0] = 0;
#define ADD(...) do { if (at < n) at += (size_t)fmt_snprintf(b + at, n - at, __VA_ARGS__); } \
	while (0)
	if (m->smis)
		ADD("%s%llu SMI%s (MSR_SMI_COUNT)", at ? "; " : "", (unsigned long long)m->smis,
		    m->smis == 1 ? "" : "s");
	if (m->therm_log)
		ADD("%sthrottled (IA32_THERM_STATUS log 0x%llx)", at ? "; " : "",
		    (unsigned long long)m->therm_log);
	if (m->pkg_log)
		ADD("%sthrottled (IA32_PACKAGE_THERM_STATUS log 0x%llx)", at ? "; " : "",
		    (unsigned long long)m->pkg_log);
	if (m->freq_moved)
		ADD("%score clock %u%% of the run's start (APERF/MPERF)", at ? "; " : "",
		    m->freq_pct);
#undef ADD
	return at != 0;
}

const char *trust_spoiled(void)
{
	static char why[200];
	struct trust_moved m;
	char t[160];

	trust_moved_now(&m);
	if (!trust_moved_text(&m, t, sizeof(t)))
		return NULL;
	fmt_snprintf(why, sizeof(why), "not trusted: %s during this test", t);
	return why;
}

bool trust_end(char *b, size_t n)
{
	struct trust_moved m;
	bool moved;

	trust_moved_now(&m);
	trust.active = false;
	moved = trust_moved_text(&m, b + 7, n - 7);
	if (moved)
		memcpy(b, "trust: ", 7);
	return moved;
}
