/*
 * prefetch.c: the prefetcher-control rows and their use (kernel/prefetch.h). Sources per row:
 * Intel, "Disclosure of H/W prefetcher control on some Intel processors" (MSR 1A4H bits 0-3 on
 * the Westmere..Broadwell cores); the SDM Vol. 4 tables that list MSR_MISC_FEATURE_CONTROL
 * (1A4H) for a model; Intel's pepc (pepclibs/msr/MiscFeatureControl.py: which models have all
 * four bits, which only L2 + DCU, Xeon Phi's other bit numbers); Linux arch/x86/kernel/cpu/
 * resctrl/pseudo_lock.c get_prefetch_disable_bits() (0xF on Broadwell-X, bits 0 and 2 on
 * Goldmont / Goldmont Plus); AMD PPR for family 19h MSRC000_0108 PrefetchControl (bits 0
 * L1Stream, 1 L1Stride, 2 L1Region, 3 L2Stream, 5 UpDown; as LIKWID src/sysFeatures_amd.c
 * uses them). A model no row names is left alone, with the reason.
 */
#include "kernel/prefetch.h"
#include "kernel/fmt.h"
#include "kernel/hw.h"

#include <string.h>

#define MSR_MISC_FEATURE_CONTROL 0x1a4u
#define MSR_AMD_PREFETCH_CONTROL 0xc0000108u

#define CORE4 "L2 HW, L2 adjacent line, DCU, DCU IP"
#define SRC_CORE "Intel disclosure of H/W prefetcher control; SDM Vol. 4 MSR 1A4H; pepc MiscFeatureControl.py"

static const struct prefetch_row rows[] = {
	{ .name = "Westmere", .vendor = VENDOR_INTEL, .family = 6,
	  .models = { 0x25, 0x2c, 0x2f }, .msr = MSR_MISC_FEATURE_CONTROL, .bits = 0xf,
	  .bit_names = CORE4, .src = SRC_CORE },
	{ .name = "Sandy Bridge/Ivy Bridge", .vendor = VENDOR_INTEL, .family = 6,
	  .models = { 0x2a, 0x2d, 0x3a, 0x3e }, .msr = MSR_MISC_FEATURE_CONTROL, .bits = 0xf,
	  .bit_names = CORE4, .src = SRC_CORE },
	{ .name = "Haswell/Broadwell", .vendor = VENDOR_INTEL, .family = 6,
	  .models = { 0x3c, 0x3f, 0x45, 0x46, 0x3d, 0x47, 0x4f, 0x56 },
	  .msr = MSR_MISC_FEATURE_CONTROL, .bits = 0xf, .bit_names = CORE4,
	  .src = SRC_CORE "; Linux pseudo_lock.c get_prefetch_disable_bits (4FH)" },
	{ .name = "Skylake..Comet Lake", .vendor = VENDOR_INTEL, .family = 6,
	  .models = { 0x4e, 0x5e, 0x55, 0x8e, 0x9e, 0xa5, 0xa6, 0x66 },
	  .msr = MSR_MISC_FEATURE_CONTROL, .bits = 0xf, .bit_names = CORE4,
	  .src = "SDM Vol. 4 MSR 1A4H; pepc MiscFeatureControl.py" },
	{ .name = "Ice Lake..Rocket Lake", .vendor = VENDOR_INTEL, .family = 6,
	  .models = { 0x7d, 0x7e, 0x6a, 0x6c, 0x8c, 0x8d, 0xa7 },
	  .msr = MSR_MISC_FEATURE_CONTROL, .bits = 0xf, .bit_names = CORE4,
	  .src = "pepc MiscFeatureControl.py" },
	{ .name = "Alder Lake..Granite Rapids", .vendor = VENDOR_INTEL, .family = 6,
	  .models = { 0x97, 0x9a, 0xb7, 0xba, 0xbf, 0x8f, 0xcf, 0xaa, 0xac, 0xad, 0xae },
	  .msr = MSR_MISC_FEATURE_CONTROL, .bits = 0xf, .bit_names = CORE4,
	  .src = "pepc MiscFeatureControl.py" },
	{ .name = "Atom (Silvermont-D..Crestmont)", .vendor = VENDOR_INTEL, .family = 6,
	  .models = { 0x4d, 0x5c, 0x5f, 0x7a, 0x86, 0x96, 0x9c, 0xaf, 0xb6 },
	  .msr = MSR_MISC_FEATURE_CONTROL, .bits = 0x5, .bit_names = "L2 HW (0), DCU (2)",
	  .src = "pepc MiscFeatureControl.py; Linux pseudo_lock.c (5CH, 7AH: 0x5)" },
	{ .name = "Xeon Phi", .vendor = VENDOR_INTEL, .family = 6, .models = { 0x57, 0x85 },
	  .msr = MSR_MISC_FEATURE_CONTROL, .bits = 0x3, .bit_names = "DCU (0), L2 HW (1)",
	  .src = "pepc MiscFeatureControl.py (Xeon Phi bit numbers)" },
	{ .name = "AMD family 19h", .vendor = VENDOR_AMD, .family = 0x19,
	  .msr = MSR_AMD_PREFETCH_CONTROL, .bits = 0x2f,
	  .bit_names = "L1Stream, L1Stride, L1Region, L2Stream, UpDown",
	  .src = "AMD PPR family 19h MSRC000_0108 PrefetchControl; LIKWID sysFeatures_amd.c" },
};

enum prefetch_req prefetch_req_parse(const char *s)
{
	if (!s)
		return PREFETCH_KEEP;
	if (!strcmp(s, "off"))
		return PREFETCH_OFF;
	if (!strcmp(s, "on"))
		return PREFETCH_ON;
	return PREFETCH_BAD;
}

static bool model_in(const struct prefetch_row *r, uint32_t model)
{
	if (!r->models[0])
		return true;
	for (unsigned i = 0; i < PREFETCH_MAX_MODELS && r->models[i]; i++)
		if (r->models[i] == model)
			return true;
	return false;
}

const struct prefetch_row *prefetch_lookup(const struct cpu_info *ci, char *b, size_t n)
{
	for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (rows[i].vendor == ci->vendor && rows[i].family == ci->family &&
		    model_in(&rows[i], ci->model))
			return &rows[i];
	fmt_snprintf(b, n, "no documented prefetcher control for %s %02X_%02XH (kernel/prefetch.c)",
		     ci->vendor_str[0] ? ci->vendor_str : "this vendor", ci->family, ci->model);
	return NULL;
}

static int fail(struct prefetch_cpu *c, const char *what, uint32_t msr, int vec)
{
	fmt_snprintf(c->why, sizeof(c->why), "%s MSR %XH: #%s (vector %d)", what, msr,
		     vec == 13 ? "GP" : "fault", vec);
	return -1;
}

/* Write v, read it back; 0 when the row's bits read back as written. */
static int write_check(const struct prefetch_row *r, uint64_t v, struct prefetch_cpu *c)
{
	uint64_t rb;
	int vec = wrmsr_safe(r->msr, v);

	if (vec)
		return fail(c, "wrmsr", r->msr, vec);
	vec = rdmsr_safe(r->msr, &rb);
	if (vec)
		return fail(c, "rdmsr after wrmsr", r->msr, vec);
	c->after = rb;
	if ((rb & r->bits) != (v & r->bits)) {
		fmt_snprintf(c->why, sizeof(c->why), "MSR %XH: wrote 0x%llx, reads back 0x%llx "
			     "(write dropped)", r->msr, (unsigned long long)v, (unsigned long long)rb);
		return -1;
	}
	return 0;
}

int prefetch_set(const struct prefetch_row *r, bool off, struct prefetch_cpu *c)
{
	uint64_t want;
	int vec;

	*c = (struct prefetch_cpu){ 0 };
	vec = rdmsr_safe(r->msr, &c->before);
	if (vec)
		return fail(c, "rdmsr", r->msr, vec);
	want = off ? c->before | r->bits : c->before & ~r->bits;
	c->after = c->before;
	if (want == c->before)
		return 0;			/* already so: nothing to write or restore */
	if (write_check(r, want, c)) {
		if (c->after != c->before)	/* half applied: put it back */
			(void)wrmsr_safe(r->msr, c->before);
		return -1;
	}
	c->changed = true;
	return 0;
}

int prefetch_restore(const struct prefetch_row *r, struct prefetch_cpu *c)
{
	if (!c->changed)
		return 0;
	if (write_check(r, c->before, c))
		return -1;
	c->changed = false;
	return 0;
}
