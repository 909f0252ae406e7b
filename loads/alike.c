/*
 * alike.c: the likely cause when cache levels time alike (see alike.h). Order: caches off
 * (CR0.CD, SDM Vol. 3A 12.5.1 Table 12-5) and a memory type other than WB for the buffer
 * (12.5.2.2 Table 12-7: UC and WC are not cached, WT and WP do not allocate on writes but the
 * chase only reads, so only WB and WT/WP reads hit) explain it on any machine; a platform
 * whose unknown MSRs do not #GP (kernel/msr_platform.h), that shows another sign of emulation
 * (an advertised MSR that faults, an MPERF that stands still: kernel/trust.h
 * trust_emulation_hint), or a hypervisor decides the timing
 * itself (emulation, or the host's memory type, which a guest cannot read), so the verdict
 * SKIPs there; on bare metal with WB memory and caches on, nothing the kernel reads explains
 * it, and it stays a FAIL saying so.
 */
#include "loads/alike.h"
#include "kernel/fmt.h"

bool levels_alike(uint64_t a_x100, uint64_t b_x100)
{
	uint64_t hi = a_x100 > b_x100 ? a_x100 : b_x100, lo = a_x100 > b_x100 ? b_x100 : a_x100;

	return hi && (hi - lo) * 100 <= hi * ALIKE_PCT;
}

static bool cached_read(uint8_t t)
{
	return t == MT_WB || t == MT_WT || t == MT_WP;
}

bool alike_cause(const struct alike_facts *f, char *b, size_t n)
{
	char mt[96] = "memory type not read";
	const char *platform = f->swallowed ? "unknown MSRs do not #GP"
		: f->emu_hint ? f->emu_hint : f->hv && f->hv[0] ? f->hv : NULL;
	bool skip = platform != NULL;

	if (f->have_mt)
		memtype_describe(&f->mt, mt, sizeof(mt));
	else if (f->mt_fault)
		fmt_snprintf(mt, sizeof(mt), "memory type not read (MTRR/PAT rdmsr vector %d)",
			     f->mt_fault);
	if (f->have_mt && (f->mt.cd || !cached_read(f->mt.eff)))
		fmt_snprintf(b, n, "buffer at 0x%llx uncached: %s%s%s",
			     (unsigned long long)f->pa, mt, platform ? "; platform: " : "",
			     platform ? platform : "");
	else if (f->swallowed)
		fmt_snprintf(b, n, "buffer %s, yet no cache effect: emulation likely (unknown "
			     "MSRs do not #GP)", mt);
	else if (f->emu_hint)
		fmt_snprintf(b, n, "buffer %s, yet no cache effect: emulation likely (%s)", mt,
			     f->emu_hint);
	else if (platform)
		fmt_snprintf(b, n, "buffer %s, yet no cache effect: under hypervisor %s, the "
			     "host's memory type and caching are beyond a guest's reach", mt, f->hv);
	else
		fmt_snprintf(b, n, "buffer %s, caches on, no hypervisor bit: no cause the kernel "
			     "can read", mt);
	return skip;
}
