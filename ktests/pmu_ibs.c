/*
 * pmu_ibs.c: the AMD subtests of test `pmu` (called from ktests/pmu.c on AMD CPUs): a short IBS
 * op-sampling run over a pointer chase in a buffer of known address. Checks that samples
 * arrive through the extended-LVT interrupt and are re-armed, that load samples carry a valid
 * linear address inside the buffer, and that IBS_OP_CTL and the LVT entry are as found
 * afterwards. SKIPs with the probe's exact reason (ibs/ibs_caps.h), e.g. under QEMU:
 * "CPUID 8000_0001H:ECX[10] (IBS) = 0: no Instruction-Based Sampling". APM Vol. 2 "IBS";
 * docs/ibs.md.
 */
#include "ktests/tests.h"
#include "apic/apic_eilvt.h"
#include "kernel/hw.h"
#include "kernel/idt.h"
#include "kernel/mm.h"
#include "ibs/ibs.h"
#include "ibs/ibs_regs.h"

#define BUF_BYTES (1u << 20)
#define BUF_LINES (BUF_BYTES / 64)
#define STEP 4099u		/* odd: one cycle through all lines */
#define LOADS 2000000u

struct tally {
	uintptr_t lo, hi;
	uint64_t samples, loads, in_buf;
};

static void count(void *ctx, const struct ibs_sample *s)
{
	struct tally *k = ctx;
	uint64_t d3 = s->w[IBS_W_DATA3];

	k->samples++;
	if (!(d3 & IBS_DATA3_LD_OP))
		return;
	k->loads++;
	if ((d3 & IBS_DATA3_DC_LIN_ADDR_VALID) && s->w[IBS_W_LINADDR] >= k->lo &&
	    s->w[IBS_W_LINADDR] < k->hi)
		k->in_buf++;
}

void pmu_ibs_subtests(struct ktest *t)
{
	static volatile uint64_t *buf;
	const struct ibs_caps *c = ibs_caps_init();
	struct ibs_config cfg = { .period = 4096, .sink = count };
	static struct ibs_session s;
	struct tally k = { 0 };
	uint64_t fl, ctl_after = 0, p = 0;
	uint32_t lvt_after = 0;
	const char *why;

	why = ibs_unavailable(c);
	if (why) {
		kt_skip_sub(t, "ibs_op_samples", "%s", why);
		kt_skip_sub(t, "ibs_restored", "%s", why);
		return;
	}
	if (!buf)
		buf = kalloc(BUF_BYTES, 4096);
	if (!buf) {
		kt_check(t, false, "ibs_op_samples # out of memory");
		return;
	}
	for (uint64_t l = 0; l < BUF_LINES; l++)
		buf[l * 8] = (l + STEP) % BUF_LINES * 8;
	k.lo = (uintptr_t)buf;
	k.hi = k.lo + BUF_BYTES;
	cfg.sink_ctx = &k;
	cfg.seed = rdtsc();
	if (ibs_start(&s, c, &cfg)) {
		kt_check(t, false, "ibs_op_samples # %s", s.err);
		return;
	}
	fl = irq_save();
	irq_enable();
	for (unsigned i = 0; i < LOADS; i++)
		p = buf[p];
	irq_restore(fl);
	ibs_stop(&s);
	(void)rdmsr_safe(MSR_IBS_OP_CTL, &ctl_after);
	(void)apic_eilvt_read(c->lvt_offset, &lvt_after);
	kt_check(t, k.samples > 0 && k.in_buf > 0 && s.st.rearms > 0,
		 "ibs_op_samples # %llu samples, %llu loads, %llu in the buffer, %llu re-arms, "
		 "%llu spurious", (unsigned long long)k.samples, (unsigned long long)k.loads,
		 (unsigned long long)k.in_buf, (unsigned long long)s.st.rearms,
		 (unsigned long long)s.st.spurious);
	kt_check(t, ctl_after == s.ctl_found && lvt_after == s.lvt_found,
		 "ibs_restored # IBS_OP_CTL 0x%llx (found 0x%llx), LVT %u 0x%x (found 0x%x)",
		 (unsigned long long)ctl_after, (unsigned long long)s.ctl_found, c->lvt_offset,
		 lvt_after, s.lvt_found);
}
