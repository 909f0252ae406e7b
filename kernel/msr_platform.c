/*
 * msr_platform.c: the unimplemented-MSR probe (see msr_platform.h). SDM Vol. 2B RDMSR/WRMSR:
 * "#GP(0) if the value in ECX specifies a reserved or unimplemented MSR address". One read,
 * one write of a pattern and one read back of MSR_UNIMPLEMENTED, all through the _safe
 * accessors; the result decides whether the tests whose answer rests on a #GP
 * (ktests/exceptions.c, the model-specific probes of pebs/caps.c) judge or SKIP.
 */
#include "kernel/msr_platform.h"
#include "kernel/fmt.h"
#include "kernel/hw.h"

static struct msr_platform boot_probe;
static char why[120];

void msr_platform_probe_into(struct msr_platform *p)
{
	*p = (struct msr_platform){ .mode = MSRP_FAULTS };
	p->rd_vec = rdmsr_safe(MSR_UNIMPLEMENTED, &p->first);
	if (p->rd_vec)
		p->first = 0;
	p->wr_vec = wrmsr_safe(MSR_UNIMPLEMENTED, MSR_PROBE_PATTERN);
	if (!p->wr_vec && !p->rd_vec && !rdmsr_safe(MSR_UNIMPLEMENTED, &p->back))
		p->stores = p->back == MSR_PROBE_PATTERN;
	if (!p->rd_vec || !p->wr_vec)
		p->mode = MSRP_SWALLOWS;
	if (p->stores)	/* leave nothing behind on a platform that keeps what it is given */
		(void)wrmsr_safe(MSR_UNIMPLEMENTED, p->first);
}

void msr_platform_set(const struct msr_platform *p)
{
	boot_probe = *p;
	why[0] = 0;
	if (p->mode != MSRP_SWALLOWS)
		return;
	if (!p->rd_vec && !p->wr_vec)
		fmt_snprintf(why, sizeof(why), "unknown MSRs do not #GP here (MSR 0x%x reads 0x%llx,"
			     " writes %s)", MSR_UNIMPLEMENTED, (unsigned long long)p->first,
			     p->stores ? "read back" : "dropped");
	else if (!p->rd_vec)
		fmt_snprintf(why, sizeof(why), "unknown MSRs do not #GP on RDMSR here (MSR 0x%x "
			     "reads 0x%llx; WRMSR vector %d)", MSR_UNIMPLEMENTED,
			     (unsigned long long)p->first, p->wr_vec);
	else
		fmt_snprintf(why, sizeof(why), "unknown MSRs do not #GP on WRMSR here (MSR 0x%x: "
			     "RDMSR vector %d, a write is dropped)", MSR_UNIMPLEMENTED, p->rd_vec);
}

void msr_platform_probe(void)
{
	struct msr_platform p;

	msr_platform_probe_into(&p);
	msr_platform_set(&p);
}

const struct msr_platform *msr_platform_get(void)
{
	return &boot_probe;
}

const char *msr_platform_swallows(void)
{
	return boot_probe.mode == MSRP_SWALLOWS ? why : NULL;
}

bool msr_platform_header_line(char *b, size_t n)
{
	if (boot_probe.mode != MSRP_SWALLOWS)
		return false;
	fmt_snprintf(b, n, "platform: %s; no answer resting on a #GP is trusted", why);
	return true;
}
