/*
 * ibs.c: the IBS op-sampling driver (see ibs.h). The handshake (APM Vol. 2 "Instruction-Based
 * Sampling"): when the op counter reaches its max count the next op is tagged; at its retire
 * the hardware fills IBS_OP_RIP/DATA/DATA2/DATA3/DC_LINADDR/DC_PHYSADDR, sets IbsOpVal and
 * raises the interrupt; no new op is tagged while IbsOpVal is set. So the handler reads the
 * sample registers first and re-arms last, writing IbsOpVal = 0 with IbsOpEn and a new max
 * count (Linux perf_ibs_handle_irq(): rdmsr the registers, then perf_ibs_enable_event()).
 * The max count is drawn anew at every re-arm, uniform in [period*7/8, period*9/8] in steps
 * of 16 ops, and where IbsOpCurCnt is writable (CPUID 8000_001BH:EAX[3] RdWrOpCnt) the count
 * starts at a random 0..127 (Linux keeps the hardware's random low 7 bits the same way,
 * IBS_OP_CUR_CNT_RAND), so the sample point walks through the chain and the loop instead of
 * aliasing with their lengths. The LVT entry
 * routes to APIC_VEC_PMI (fixed, or NMI with pmi=nmi) so apic/'s PMI dispatcher runs the
 * handler and the EOI; the entry is checked free (masked) before it is taken.
 */
#include "ibs/ibs.h"
#include "ibs/ibs_regs.h"
#include "apic/apic.h"
#include "apic/apic_eilvt.h"
#include "kernel/fmt.h"
#include "kernel/hw.h"

#include <string.h>

static struct ibs_session *irq_session;

uint64_t ibs_next_period(uint64_t *rng, uint64_t min, uint64_t max)
{
	uint64_t x = *rng ? *rng : 0x9e3779b97f4a7c15ull, span;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*rng = x;
	min = (min + 15) & ~15ull;
	max &= ~15ull;
	if (max <= min)
		return min;
	span = (max - min) / 16 + 1;
	return min + (x * 0x2545f4914f6cdd1dull >> 33) % span * 16;
}

uint64_t ibs_op_ctl_value(const struct ibs_caps *c, uint64_t period, bool cnt_ops)
{
	uint64_t max = ibs_caps_max_period(c), cnt;

	if (period > max)
		period = max;
	if (period < IBS_PERIOD_MIN)
		period = IBS_PERIOD_MIN;
	cnt = period >> 4;
	return (cnt & IBS_OP_MAX_CNT) | ((cnt >> 16) << IBS_OP_MAX_CNT_EXT_SHIFT &
					 IBS_OP_MAX_CNT_EXT) | (cnt_ops ? IBS_OP_CNT_CTL : 0);
}

uint64_t ibs_op_ctl_period(const struct ibs_caps *c, uint64_t ctl)
{
	uint64_t cnt = ctl & IBS_OP_MAX_CNT;

	if (c->flags & IBS_CAPS_OPCNTEXT)
		cnt |= ((ctl & IBS_OP_MAX_CNT_EXT) >> IBS_OP_MAX_CNT_EXT_SHIFT) << 16;
	return cnt << 4;
}

static void arm(struct ibs_session *s)
{
	uint64_t p = ibs_next_period(&s->rng, s->period_min, s->period_max);

	s->ctl = ibs_op_ctl_value(s->caps, p, s->cnt_ops) | IBS_OP_EN;
	if (s->caps->flags & IBS_CAPS_RDWROPCNT)	/* start part-way: low bits random */
		s->ctl |= (s->rng >> 40) % (p < 128 ? p : 128) << IBS_OP_CUR_CNT_SHIFT;
	wrmsr(MSR_IBS_OP_CTL, s->ctl);
}

static void read_sample(struct ibs_session *s, uint64_t ctl)
{
	static const uint32_t msr[IBS_NWORDS] = {
		[IBS_W_RIP] = MSR_IBS_OP_RIP, [IBS_W_DATA] = MSR_IBS_OP_DATA,
		[IBS_W_DATA2] = MSR_IBS_OP_DATA2, [IBS_W_DATA3] = MSR_IBS_OP_DATA3,
		[IBS_W_LINADDR] = MSR_IBS_DC_LINADDR, [IBS_W_PHYSADDR] = MSR_IBS_DC_PHYSADDR,
		[IBS_W_DATA4] = MSR_IBS_OP_DATA4,
	};
	struct ibs_sample smp = { .w = { [IBS_W_CTL] = ctl } };

	for (unsigned i = IBS_W_RIP; i < IBS_NWORDS; i++)
		if (i != IBS_W_DATA4 || (s->caps->flags & IBS_CAPS_OPDATA4))
			smp.w[i] = rdmsr(msr[i]);
	s->st.samples++;
	if (s->cfg.sink)
		s->cfg.sink(s->cfg.sink_ctx, &smp);
}

void ibs_irq(struct ibs_session *s)
{
	uint64_t ctl = rdmsr(MSR_IBS_OP_CTL);

	s->st.irqs++;
	if (!(ctl & IBS_OP_VAL)) {
		s->st.spurious++;	/* Linux: NMIs after a stop may carry no sample */
		return;
	}
	read_sample(s, ctl);
	if (s->active) {
		arm(s);
		s->st.rearms++;
	}
}

static void irq_handler(struct trap_frame *f)
{
	(void)f;
	if (irq_session)
		ibs_irq(irq_session);
}

const char *ibs_unavailable(const struct ibs_caps *c)
{
	const char *why;

	if (!ibs_caps_ok(c, &why))
		return why;
	if (apic_mode() == APIC_DISABLED)
		return "no local APIC: no IBS interrupt";
	return NULL;
}

int ibs_start(struct ibs_session *s, const struct ibs_caps *c, const struct ibs_config *cfg)
{
	const char *why;
	unsigned n;
	int vec;

	memset(s, 0, sizeof(*s));
	s->caps = c;
	s->cfg = *cfg;
	if (!ibs_caps_ok(c, &why)) {
		fmt_snprintf(s->err, sizeof(s->err), "%s", why);
		return -1;
	}
	n = apic_eilvt_count();
	if (c->lvt_offset >= n || !apic_eilvt_read(c->lvt_offset, &s->lvt_found)) {
		fmt_snprintf(s->err, sizeof(s->err), "APIC ExtLvtCount %u (offset 400h): no extended "
			     "LVT entry %u for IBS (IBS_CTL LvtOffset)", n, c->lvt_offset);
		return -1;
	}
	if (!(s->lvt_found & APIC_EILVT_MASKED)) {
		fmt_snprintf(s->err, sizeof(s->err), "extended LVT %u (APIC %03Xh) = 0x%x: unmasked, "
			     "in use by someone else", c->lvt_offset, APIC_EILVT(c->lvt_offset),
			     s->lvt_found);
		return -1;
	}
	vec = rdmsr_safe(MSR_IBS_OP_CTL, &s->ctl_found);
	if (vec) {
		fmt_snprintf(s->err, sizeof(s->err), "IBS_OP_CTL: rdmsr fault (vector %d)", vec);
		return -1;
	}
	if (s->ctl_found & IBS_OP_EN) {
		fmt_snprintf(s->err, sizeof(s->err), "IBS_OP_CTL = 0x%llx: IbsOpEn already set",
			     (unsigned long long)s->ctl_found);
		return -1;
	}
	s->cnt_ops = c->flags & IBS_CAPS_OPCNT;
	s->rng = cfg->seed;
	s->period_min = cfg->period - cfg->period / 8;
	s->period_max = cfg->period + cfg->period / 8;
	irq_session = s;
	apic_set_pmi_handler(irq_handler);
	apic_eilvt_write(c->lvt_offset, apic_eilvt_entry(APIC_VEC_PMI,
							 apic_pmi_delivery() == PMI_NMI, false));
	s->active = true;
	arm(s);
	return 0;
}

void ibs_stop(struct ibs_session *s)
{
	uint64_t ctl;

	if (!s->active)
		return;
	s->active = false;
	ctl = rdmsr(MSR_IBS_OP_CTL);
	if (ctl & IBS_OP_VAL)
		read_sample(s, ctl);	/* the last sample: nothing is tagged while Val is set */
	/* one write: the count-first order of erratum 420 is family 10h's (docs/ibs.md) */
	wrmsr(MSR_IBS_OP_CTL, ctl & ~(IBS_OP_MAX_CNT | IBS_OP_MAX_CNT_EXT | IBS_OP_VAL |
				      IBS_OP_EN));
	apic_eilvt_write(s->caps->lvt_offset, s->lvt_found);
	wrmsr(MSR_IBS_OP_CTL, s->ctl_found);
	apic_set_pmi_handler(NULL);
	irq_session = NULL;
}
