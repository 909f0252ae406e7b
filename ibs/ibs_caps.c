/*
 * ibs_caps.c: the IBS probe (see ibs_caps.h). Order of the checks, each a SKIP reason naming
 * the register and bit that decided: vendor, CPUID.01H MSR, CPUID 8000_0001H:ECX[10] IBS,
 * 8000_001BH:EAX[2] OpSam (the leaf absent or EAX[0] IBSFFV clear: the Linux default flags
 * FetchSam|OpSam, __get_ibs_caps()), a decoder row for the family (ibs/ibs_tables.c), then
 * IBS_CTL: rdmsr through the _safe accessor, LvtOffsetVal[8] must be set (firmware assigns the
 * offset; Linux ibs_eilvt_valid() reports "invalid IBS interrupt offset" as a firmware bug and
 * does not use IBS; we SKIP the same way). APM Vol. 2 "IBS"; docs/ibs.md.
 */
#include "ibs/ibs_caps.h"
#include "ibs/amd_zen.h"
#include "ibs/ibs_regs.h"
#include "kernel/console.h"
#include "kernel/fmt.h"
#include "kernel/hw.h"
#include "kernel/ktap_detail.h"

#include <string.h>

#define WHY(...) fmt_snprintf(c->why, IBS_REASON_LEN, __VA_ARGS__)

static struct ibs_caps ibs_caps;

static void reason(struct ibs_caps *c)
{
	if (c->vendor != VENDOR_AMD)
		WHY("CPU vendor %s: IBS is AMD's (Intel parts use PEBS)", cpu_vendor_name(c->vendor));
	else if (!c->msr)
		WHY("CPUID.01H:EDX[5] (MSR) = 0: no RDMSR/WRMSR");
	else if (c->max_ext_leaf < IBS_CPUID_EXT_FEATURES)
		WHY("CPUID 8000_0000H: max extended leaf 0x%x, no 8000_0001H", c->max_ext_leaf);
	else if (!c->cpuid_ibs)
		WHY("CPUID 8000_0001H:ECX[10] (IBS) = 0: no Instruction-Based Sampling");
	else if (!(c->flags & IBS_CAPS_OPSAM))
		WHY("CPUID 8000_001BH:EAX[2] (OpSam) = 0: no IBS op sampling (EAX 0x%x)", c->flags);
	else if (!c->fam)
		WHY("family %02XH model %02XH: no IBS decoder row (docs/ibs.md \"Families\")",
		    c->family, c->model);
	else if (c->ibs_ctl_fault < 0)		/* an offline probe (pebs-preflight) */
		WHY("IBS_CTL (MSRC001_103A): not read");
	else if (c->ibs_ctl_fault)
		WHY("IBS_CTL (MSRC001_103A): rdmsr fault (vector %d)", c->ibs_ctl_fault);
	else if (!(c->ibs_ctl & IBS_CTL_LVT_OFFSET_VALID))
		WHY("IBS_CTL (MSRC001_103A) = 0x%llx: LvtOffsetVal[8] = 0, firmware assigned no "
		    "APIC LVT offset", (unsigned long long)c->ibs_ctl);
	else if (!c->ext_apic)
		WHY("CPUID 8000_0001H:ECX[3] (ExtApicSpace) = 0: no extended LVT for the IBS "
		    "interrupt");
}

void ibs_caps_probe(struct ibs_caps *c, const struct cpu_info *ci)
{
	struct cpuid_regs r;

	memset(c, 0, sizeof(*c));
	c->vendor = ci->vendor;
	c->family = ci->family;
	c->model = ci->model;
	c->msr = ci->msr;
	c->hypervisor = ci->hypervisor;
	c->max_ext_leaf = ci->max_ext_leaf;
	c->ibs_ctl_fault = -1;
	if (c->vendor == VENDOR_AMD && c->max_ext_leaf >= IBS_CPUID_EXT_FEATURES) {
		cpuid_count(IBS_CPUID_EXT_FEATURES, 0, &r);
		c->cpuid_ibs = r.ecx & IBS_CPUID_ECX_IBS;
		c->ext_apic = r.ecx & (1u << 3);
	}
	if (c->cpuid_ibs) {
		c->flags = IBS_CAPS_AVAIL | IBS_CAPS_FETCHSAM | IBS_CAPS_OPSAM;
		if (c->max_ext_leaf >= IBS_CPUID_FEATURES) {
			cpuid_count(IBS_CPUID_FEATURES, 0, &r);
			if (r.eax & IBS_CAPS_AVAIL) {
				c->flags = r.eax;
				c->flags_read = true;
			}
		}
		c->fam = ibs_family_lookup(c->family, c->model);
		c->ext_dsrc = c->flags & IBS_CAPS_ZEN4;
	}
	if (c->cpuid_ibs && c->msr && (c->flags & IBS_CAPS_OPSAM) && c->fam) {
		c->ibs_ctl_fault = rdmsr_safe(MSR_IBS_CTL, &c->ibs_ctl);
		c->lvt_offset = (unsigned)(c->ibs_ctl & IBS_CTL_LVT_OFFSET);
	}
	reason(c);
}

const struct ibs_caps *ibs_caps_init(void)
{
	static bool done;

	if (!done) {
		ibs_caps_probe(&ibs_caps, &cpu);
		done = true;
	}
	return &ibs_caps;
}

bool ibs_caps_ok(const struct ibs_caps *c, const char **why)
{
	if (why)
		*why = c->why;
	return !c->why[0];
}

uint64_t ibs_caps_max_period(const struct ibs_caps *c)
{
	uint64_t cnt = IBS_OP_MAX_CNT;

	if (c->flags & IBS_CAPS_OPCNTEXT)
		cnt |= IBS_OP_MAX_CNT_EXT >> (IBS_OP_MAX_CNT_EXT_SHIFT - 16);
	return cnt << 4;
}

bool ibs_caps_line(const struct ibs_caps *c, unsigned i, char *b, size_t n)
{
	const char *why;
	const struct amd_zen *z;

	switch (i) {
	case 0:	/* the generation, from family/model alone: printed with or without IBS */
		z = amd_zen_lookup(c->family, c->model);
		if (z)
			fmt_snprintf(b, n, "pmu: amd core %s (family %02XH model %02XH; %s)", z->name,
				     c->family, c->model, z->source);
		else
			fmt_snprintf(b, n, "pmu: amd core family %02XH model %02XH: no Zen generation "
				     "known (ibs/amd_zen.c)", c->family, c->model);
		return true;
	case 1:
		fmt_snprintf(b, n, "pmu: amd path: IBS op sampling; CPUID 8000_0001H:ECX[10] %u "
			     "8000_001BH:EAX 0x%x%s opcnt %u opcntext %u ripinvalidchk %u zen4 %u "
			     "ldlat %u", c->cpuid_ibs, c->flags, c->flags_read ? "" : " (default)",
			     !!(c->flags & IBS_CAPS_OPCNT), !!(c->flags & IBS_CAPS_OPCNTEXT),
			     !!(c->flags & IBS_CAPS_RIPINVALIDCHK), !!(c->flags & IBS_CAPS_ZEN4),
			     !!(c->flags & IBS_CAPS_OPLDLAT));
		return true;
	case 2:
		fmt_snprintf(b, n, "pmu: amd ibs family %s dsrc %s IBS_CTL 0x%llx%s lvt_offset %u",
			     c->fam ? c->fam->name : "unknown",
			     ibs_dsrc_table_name(c->ext_dsrc ? IBS_DS_EXT : IBS_DS_LEGACY),
			     (unsigned long long)c->ibs_ctl,
			     c->ibs_ctl_fault < 0 ? " (not read)" : c->ibs_ctl_fault ?
			     " (rdmsr fault)" : "", c->lvt_offset);
		return true;
	case 3:
		if (ibs_caps_ok(c, &why))
			fmt_snprintf(b, n, "pmu: amd ibs usable (op sampling, the load kernels' ibs_* subtests)");
		else
			fmt_snprintf(b, n, "pmu: amd ibs: %s", why);
		return true;
	default:
		return false;
	}
}

void ibs_caps_print(const struct ibs_caps *c)
{
	char b[200];

	for (unsigned i = 0; ibs_caps_line(c, i, b, sizeof(b)); i++) {
		if (!c->cpuid_ibs && i == 2)	/* the IBS family line only with IBS */
			continue;
		/* without IBS the probe's fields are zeros the next line explains: log=full */
		if (!c->cpuid_ibs && i == 1 && !log_full())
			b[sizeof("pmu: amd path: IBS op sampling") - 1] = '\0';
		kprintf("# %s\n", b);
	}
}
