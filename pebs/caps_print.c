/*
 * caps_print.c: struct pebs_caps as KTAP header diagnostics ("# pmu: ..."), compact enough for a
 * 11 KB/s serial line: six lines, then a `# warning:` line for each thing the probe found and
 * worked around (pebs/probe.c). Field names follow the SDM (CPUID.0AH, IA32_PERF_CAPABILITIES,
 * IA32_MISC_ENABLE); docs/hardware.md §1.9, §1.10, §2.
 */
#include "pebs/caps.h"
#include "kernel/console.h"
#include "kernel/fmt.h"
#include "pebs/msr.h"
#include "kernel/ktap_detail.h"

static const char *fault_str(int fault)
{
	return fault == 0 ? "" : fault < 0 ? " (not read)" : " (rdmsr fault)";
}

bool pebs_caps_line(const struct pebs_caps *c, unsigned i, char *b, size_t n)
{
	const char *why;

	switch (i) {
	case 0:
		fmt_snprintf(b, n, "pmu: cpu %s %02X_%02XH stepping %u \"%s\" microcode 0x%x%s%s%s"
			     "%s%s%s", cpu_vendor_name(c->vendor), c->family, c->model, c->stepping,
			     c->brand,
			     c->microcode, fault_str(c->microcode_fault), c->hybrid ? " hybrid " : "",
			     c->hybrid ? cpu_core_type_name(c->core_type) : "",
			     c->hypervisor ? " hypervisor \"" : "", c->hypervisor ? c->hv_sig : "",
			     c->hypervisor ? "\"" : "");
		return true;
	case 1:
		if (!c->uarch) {
			fmt_snprintf(b, n, "pmu: uarch unknown");
			return true;
		}
		fmt_snprintf(b, n, "pmu: uarch %s pebs_gp 0x%x ll_event 0x%04x/0x%x store "
			     "0x%04x/0x%x aux 0x%04x dsrc %s quirks 0x%x", c->uarch->name,
			     pebs_caps_pebs_gp(c), c->uarch->ll_event, c->uarch->ll_gp,
			     c->uarch->st_event, c->uarch->st_gp, c->uarch->aux_event,
			     pebs_dsrc_name(c->uarch->dsrc), c->uarch->quirks);
		return true;
	case 2:
		fmt_snprintf(b, n, "pmu: CPUID.0AH version %u gp %ux%u fixed %ux%u fixed_mask 0x%x "
			     "events_unavail 0x%x/%u anythread_deprecated %u", c->version, c->n_gp,
			     c->gp_width, c->n_fixed, c->fixed_width, c->fixed_mask,
			     c->arch_events_unavail, c->ebx_len, c->anythread_deprecated);
		return true;
	case 3:
		fmt_snprintf(b, n, "pmu: CPUID.1 ds %u dtes64 %u pdcm %u; IA32_MISC_ENABLE 0x%llx%s "
			     "emon[7] %u pebs_unavail[12] %u", c->ds, c->dtes64, c->pdcm,
			     (unsigned long long)c->misc_enable, fault_str(c->misc_fault), c->emon,
			     c->pebs_unavail);
		return true;
	case 4:
		fmt_snprintf(b, n, "pmu: IA32_PERF_CAPABILITIES 0x%llx%s pebs_fmt %u trap %u "
			     "arch_reg %u freeze_smm %u fw_write %u baseline %u metrics %u pebs_pt %u "
			     "timing %u lbr_fmt %u", (unsigned long long)c->perf_cap,
			     fault_str(c->perf_cap_fault), c->pebs_fmt, c->pebs_trap,
			     c->pebs_arch_reg, c->freeze_smm, c->fw_write, c->baseline,
			     c->perf_metrics, c->pebs_pt, c->timing_info, c->lbr_fmt);
		return true;
	case 5: {
		const char *ll_why;	/* pebs_caps_pebs_ok below must not overwrite it */

		if (pebs_caps_ll_ok(c, &ll_why))
			fmt_snprintf(b, n, "pmu: pebs usable, load latency usable");
		else if (pebs_caps_pebs_ok(c, &why))
			fmt_snprintf(b, n, "pmu: pebs usable; load latency: %s", ll_why);
		else
			fmt_snprintf(b, n, "pmu: pebs: %s", why);
		return true;
	}
	default:
		return false;
	}
}

/* The warnings that apply, in a fixed order; false past the last. */
bool pebs_caps_warning(const struct pebs_caps *c, unsigned i, char *b, size_t n)
{
	bool emon = c->vendor == VENDOR_INTEL && c->version && !c->misc_fault && !c->emon;
	bool fw = c->fw_gp || c->fw_fixed;

	if (emon && i-- == 0) {
		fmt_snprintf(b, n, "IA32_MISC_ENABLE[7] = 0 (performance monitoring unavailable) "
			     "but CPUID.0AH reports perfmon version %u: trusted, as Linux does",
			     c->version);
		return true;
	}
	if (fw && i-- == 0) {
		char reg[24] = "IA32_FIXED_CTR_CTRL";

		if (c->fw_msr != MSR_IA32_FIXED_CTR_CTRL)
			fmt_snprintf(reg, sizeof(reg), "IA32_PERFEVTSEL%u",
				     c->fw_msr - MSR_IA32_PERFEVTSEL(0));
		fmt_snprintf(b, n, "%s = 0x%llx: counters enabled before this kernel (GP 0x%x, "
			     "fixed 0x%x) belong to firmware and are left alone", reg,
			     (unsigned long long)c->fw_val, c->fw_gp, c->fw_fixed);
		return true;
	}
	return false;
}

bool pebs_caps_line_shown(const struct pebs_caps *c, unsigned i)
{
	/* without a PMU, lines 2-4 (CPUID.0AH, CPUID.1/MISC_ENABLE, PERF_CAPABILITIES) are
	 * all zero: the default log stays compact (issue 7); on AMD only the cpu line: the
	 * `# pmu: amd` lines (ibs/ibs_caps.c) say what runs there; under a hypervisor line 0
	 * restates the `# cpu:` and `# hypervisor:` lines with a microcode revision the
	 * hypervisor made up: log=full only (docs/output.md "Log budget") */
	if (i == 0 && c->hypervisor && !c->hybrid && !log_full())
		return false;
	if (c->vendor == VENDOR_AMD)
		return i == 0;
	return pebs_caps_pmu_ok(c, NULL) || i < 2 || i > 4;
}

void pebs_caps_print(const struct pebs_caps *c)
{
	char b[200];

	for (unsigned i = 0; pebs_caps_line(c, i, b, sizeof(b)); i++)
		if (pebs_caps_line_shown(c, i))
			kprintf("# %s\n", b);
	for (unsigned i = 0; pebs_caps_warning(c, i, b, sizeof(b)); i++)
		kprintf("# warning: %s\n", b);
}
