/*
 * caps.c: the capability probe and its predicates (see caps.h). CPUID leaves per SDM Vol. 2A;
 * microcode revision per SDM Vol. 3A 10.11.7 (write 0 to IA32_BIOS_SIGN_ID, CPUID.1, read);
 * PEBS gates per docs/hardware.md §8.1 and §7.1. Model-specific MSRs are read
 * only through rdmsr_safe; a fault is recorded in the struct and reported, never fatal.
 */
#include "pebs/caps.h"
#include "pebs/msr.h"
#include "kernel/fmt.h"
#include "kernel/hw.h"

#include <string.h>

struct pebs_caps pebs_caps;

static void probe_cpuid(struct pebs_caps *c, const struct cpu_info *ci)
{
	struct cpuid_regs r;

	c->vendor = ci->vendor;
	c->family = ci->family;
	c->model = ci->model;
	c->stepping = ci->stepping;
	c->hybrid = ci->hybrid;
	c->core_type = ci->core_type;
	c->hypervisor = ci->hypervisor;
	memcpy(c->hv_sig, ci->hv_sig, sizeof(c->hv_sig));
	memcpy(c->brand, ci->brand, sizeof(c->brand));
	c->ds = ci->ds;
	c->dtes64 = ci->dtes64;
	c->pdcm = ci->pdcm;
	if (ci->max_leaf >= 7) {	/* TSX_FORCE_ABORT[13] unless RTM_ALWAYS_ABORT[11] (Linux
					 * intel_pmu_init: PMU_FL_TFA) */
		cpuid_count(7, 0, &r);
		c->tfa = (r.edx & (1u << 13)) && !(r.edx & (1u << 11));
	}
	if (ci->hybrid && ci->max_leaf >= 0x1a) {
		cpuid_count(0x1a, 0, &r);
		c->native_model = r.eax & 0xffffff;
	}
	if (ci->max_leaf < 0xa)
		return;
	cpuid_count(0xa, 0, &r);
	c->version = (uint8_t)r.eax;
	c->n_gp = (uint8_t)(r.eax >> 8);
	c->gp_width = (uint8_t)(r.eax >> 16);
	c->ebx_len = (uint8_t)(r.eax >> 24);
	c->arch_events_unavail = r.ebx;
	if (c->version >= 2) {
		c->n_fixed = r.edx & 0x1f;
		c->fixed_width = (uint8_t)((r.edx >> 5) & 0xff);
		c->anythread_deprecated = r.edx & (1u << 15);
	}
	c->fixed_mask = c->n_fixed >= 32 ? ~0u : (1u << c->n_fixed) - 1;
	if (c->version >= 5 && r.ecx)
		c->fixed_mask |= r.ecx;
}

static void probe_msrs(struct pebs_caps *c)
{
	struct cpuid_regs r;
	uint64_t v;

	/* Microcode: IA32_BIOS_SIGN_ID <- 0, CPUID.1, then read bits 63:32. */
	(void)wrmsr_safe(MSR_IA32_BIOS_SIGN_ID, 0);
	cpuid_count(1, 0, &r);
	c->microcode_fault = rdmsr_safe(MSR_IA32_BIOS_SIGN_ID, &v);
	c->microcode = c->microcode_fault ? 0 : (uint32_t)(v >> 32);

	c->misc_fault = rdmsr_safe(MSR_IA32_MISC_ENABLE, &c->misc_enable);
	if (!c->misc_fault) {
		c->emon = c->misc_enable & MISC_ENABLE_EMON;
		c->pebs_unavail = c->misc_enable & MISC_ENABLE_PEBS_UNAVAIL;
	}
	c->perf_cap_fault = -1;
	if (c->pdcm) {
		c->perf_cap_fault = rdmsr_safe(MSR_IA32_PERF_CAPABILITIES, &c->perf_cap);
		if (c->perf_cap_fault)
			c->perf_cap = 0;
	}
	v = c->perf_cap;
	c->lbr_fmt = (uint8_t)PERF_CAP_LBR_FMT(v);
	c->pebs_fmt = (uint8_t)PERF_CAP_PEBS_FMT(v);
	c->pebs_trap = v & PERF_CAP_PEBS_TRAP;
	c->pebs_arch_reg = v & PERF_CAP_PEBS_ARCH_REG;
	c->freeze_smm = v & PERF_CAP_FREEZE_SMM;
	c->fw_write = v & PERF_CAP_FW_WRITE;
	c->baseline = (v & PERF_CAP_PEBS_BASELINE) && c->pebs_fmt >= 4;	/* §1.9: fmt<4 ⇒ off */
	c->perf_metrics = v & PERF_CAP_PERF_METRICS;
	c->pebs_pt = v & PERF_CAP_PEBS_OUTPUT_PT;
	c->timing_info = v & PERF_CAP_PEBS_TIMING_INFO;
}

#define WHY(buf, ...) fmt_snprintf(buf, PEBS_REASON_LEN, __VA_ARGS__)

static void reason_pmu(struct pebs_caps *c, uint32_t max_leaf)
{
	if (c->vendor == VENDOR_AMD)	/* the AMD path samples through IBS (docs/ibs.md) */
		WHY(c->pmu_why, "CPU vendor AMD: an Intel PMU test (AMD samples through IBS)");
	else if (c->vendor != VENDOR_INTEL)
		WHY(c->pmu_why, "CPU vendor %s: only the Intel PMU is supported",
		    cpu_vendor_name(c->vendor));
	else if (max_leaf < 0xa)
		WHY(c->pmu_why, "CPUID.0AH: leaf not supported (max leaf 0x%x)", max_leaf);
	else if (c->version == 0)
		WHY(c->pmu_why, "CPUID.0AH: perfmon version 0");
	else if (c->n_gp == 0 && c->n_fixed == 0)
		WHY(c->pmu_why, "CPUID.0AH: perfmon version %u reports no counters", c->version);
	else if (c->misc_fault)
		WHY(c->pmu_why, "IA32_MISC_ENABLE: rdmsr fault (vector %d)", c->misc_fault);
	else if (c->hw_why[0])	/* the functional probe (pebs/probe.c) */
		WHY(c->pmu_why, "%s", c->hw_why);
	/* IA32_MISC_ENABLE[7] = 0 is a warning only (pebs_caps_warning): Linux enables the core
	 * PMU from CPUID.0AH alone, and KVM set EMON only from commit bef6ecca46ac (2022). */
}

static void reason_pebs(struct pebs_caps *c)
{
	uint32_t need;

	if (c->pmu_why[0])
		WHY(c->pebs_why, "%s", c->pmu_why);
	else if (c->version < 2)
		WHY(c->pebs_why, "CPUID.0AH: perfmon version 1 has no IA32_PERF_GLOBAL_* MSRs");
	else if (c->pdcm && !c->perf_cap_fault && c->pebs_fmt == 0xf)
		pebs_arch_caps_reason(c);	/* no DS area: the 23H gate instead */
	else if (!c->ds)
		WHY(c->pebs_why, "CPUID.1:EDX.DS[21] = 0: no debug store");
	else if (c->pebs_unavail)
		WHY(c->pebs_why, "IA32_MISC_ENABLE[12]: PEBS unavailable");
	else if (!c->dtes64)
		WHY(c->pebs_why, "CPUID.1:ECX.DTES64[2] = 0: 32-bit DS layout not supported");
	else if (!c->pdcm)
		WHY(c->pebs_why, "CPUID.1:ECX.PDCM[15] = 0: no IA32_PERF_CAPABILITIES");
	else if (c->perf_cap_fault)
		WHY(c->pebs_why, "IA32_PERF_CAPABILITIES: rdmsr fault (vector %d)",
		    c->perf_cap_fault);
	else if (c->pebs_fmt > 6)
		WHY(c->pebs_why, "IA32_PERF_CAPABILITIES[11:8] = %u: unknown PEBS record format",
		    c->pebs_fmt);
	else if (!c->uarch)
		WHY(c->pebs_why, "model %02X_%02XH%s%s not in the PEBS table and no PEBS baseline",
		    c->family, c->model, c->core_type ? " " : "",
		    cpu_core_type_name(c->core_type));
	else if ((c->uarch->quirks & Q_NHM_CTR_RESET) && (c->fw_gp & 0xf))
		WHY(c->pebs_why, "IA32_PERFEVTSEL%u = 0x%llx enabled by firmware: the AAK100 "
		    "counter reset would overwrite it", (unsigned)__builtin_ctz(c->fw_gp),
		    (unsigned long long)c->fw_val);
	else if (c->uarch->quirks & Q_PEBS_BROKEN)
		WHY(c->pebs_why, "%s: PEBS disabled (errata AJ67/AJ68/AJ69/AJ106)", c->uarch->name);
	else if ((need = pebs_ucode_min(c->family, c->model, c->stepping)) &&
		 (c->microcode_fault || c->microcode < need))
		WHY(c->pebs_why, "microcode 0x%x < 0x%x: PEBS broken on %02X_%02XH stepping %u",
		    c->microcode, need, c->family, c->model, c->stepping);
	else if (!pebs_caps_pebs_gp(c) && c->fw_gp)
		WHY(c->pebs_why, "%s: every PEBS counter enabled by firmware (IA32_PERFEVTSEL "
		    "mask 0x%x, EN[22])", c->uarch->name, c->fw_gp);
	else if (!pebs_caps_pebs_gp(c))
		WHY(c->pebs_why, "%s: no PEBS-capable GP counter among %u", c->uarch->name,
		    c->n_gp);
}

static void reason_ll(struct pebs_caps *c)
{
	uint32_t gp = c->n_gp >= 32 ? ~0u : (1u << c->n_gp) - 1;

	if (c->pebs_why[0])
		WHY(c->ll_why, "%s", c->pebs_why);
	else if (!c->uarch->ll_event)
		WHY(c->ll_why, "%s: %s", c->uarch->name,
		    c->uarch->no_ll ? c->uarch->no_ll : "no load-latency event");
	else if (!(c->uarch->ll_gp & gp & pebs_caps_pebs_gp(c)) && (c->uarch->ll_gp & c->fw_gp))
		WHY(c->ll_why, "%s: load-latency counters 0x%x enabled by firmware (IA32_PERFEVTSEL "
		    "mask 0x%x, EN[22])", c->uarch->name, c->uarch->ll_gp & gp, c->fw_gp);
	else if (!(c->uarch->ll_gp & gp & pebs_caps_pebs_gp(c)))
		WHY(c->ll_why, "%s: load-latency counters 0x%x not among the %u GP counters",
		    c->uarch->name, c->uarch->ll_gp, c->n_gp);
	else if (c->pebs_fmt == 0xf && !(c->arch_caps & (1u << 30)))
		WHY(c->ll_why, "CPUID.23H.4:EBX[30] = 0: no arch-PEBS AUX group (CFG_C[62])");
	else if (c->pebs_fmt >= 4 && c->pebs_fmt <= 6 && !c->baseline)
		WHY(c->ll_why, "IA32_PERF_CAPABILITIES[14] = 0: no adaptive memory-info group");
	else if (c->ldlat_fault)
		WHY(c->ll_why, "MSR_PEBS_LD_LAT_THRESHOLD: rdmsr fault (vector %d)",
		    c->ldlat_fault);
	else if (c->ldlat_ignored)
		WHY(c->ll_why, "%s", c->ldlat_why);
}

void pebs_caps_probe(struct pebs_caps *c, const struct cpu_info *ci)
{
	memset(c, 0, sizeof(*c));
	probe_cpuid(c, ci);
	if (c->vendor == VENDOR_INTEL && ci->msr)
		probe_msrs(c);
	if (c->vendor == VENDOR_INTEL && ci->msr && c->version && !c->misc_fault)
		pebs_probe_hw(c);	/* before anything of ours is enabled (pebs/probe.c) */
	if (c->vendor == VENDOR_INTEL)
		pebs_arch_caps_probe(c, ci);
	else
		c->misc_fault = c->perf_cap_fault = c->microcode_fault = -1;
	c->uarch = pebs_uarch_find(c->family, c->model, c->core_type, c->native_model);
	if (!c->uarch && c->baseline && c->version >= 5)
		c->uarch = &pebs_uarch_arch;
	reason_pmu(c, ci->max_leaf);
	reason_pebs(c);
	if (!c->pebs_why[0] && c->uarch->ll_event)
		pebs_probe_ldlat(c);	/* write and read back (pebs/probe.c) */
	reason_ll(c);
}

const struct pebs_caps *pebs_caps_init(void)
{
	static bool done;

	if (!done) {
		pebs_caps_probe(&pebs_caps, &cpu);
		done = true;
	}
	return &pebs_caps;
}

static bool verdict(const char *why_buf, const char **why)
{
	if (why)
		*why = why_buf;
	return why_buf[0] == '\0';
}

bool pebs_caps_pmu_ok(const struct pebs_caps *c, const char **why)
{
	return verdict(c->pmu_why, why);
}

bool pebs_caps_pebs_ok(const struct pebs_caps *c, const char **why)
{
	return verdict(c->pebs_why, why);
}

bool pebs_caps_ll_ok(const struct pebs_caps *c, const char **why)
{
	return verdict(c->ll_why, why);
}

unsigned pebs_legacy_record_size(unsigned fmt)
{
	static const unsigned size[] = { 0x90, 0xb0, 0xc0, 0xc8 };	/* §4.1 */

	return fmt < 4 ? size[fmt] : 0;
}

unsigned pebs_caps_write_width(const struct pebs_caps *c)
{
	return c->fw_write ? c->gp_width : 32;
}
