/*
 * ibs.c: the IBS op-sampling driver (see ibs.h). The handshake (APM Vol. 2 "Instruction-Based
 * Sampling"): when the op counter reaches its max count the next op is tagged; at its retire
 * the hardware fills IBS_OP_RIP/DATA/DATA2/DATA3/DC_LINADDR/DC_PHYSADDR, sets IbsOpVal and
 * raises the interrupt; no new op is tagged while IbsOpVal is set. So the handler reads the
 * sample registers first and re-arms last, writing IbsOpVal = 0 with IbsOpEn and a new max
 * count (Linux perf_ibs_handle_irq(): rdmsr the registers, then perf_ibs_enable_event()).
 * The max count is drawn anew at every re-arm, uniform in [period*7/8, period*9/8] in steps
 * of 16 ops, at least IBS_PERIOD_MIN, and where IbsOpCurCnt is writable (CPUID 8000_001BH:EAX[3]
 * RdWrOpCnt) the count starts at a random 0..127 (Linux keeps the hardware's random low 7 bits
 * the same way, IBS_OP_CUR_CNT_RAND), never leaving fewer than IBS_PERIOD_MIN ops, so the
 * sample point walks through the chain and the loop instead of aliasing with their lengths.
 * The handler's own ops count too (IbsOpCntCtl counts every dispatched op): a re-arm that left
 * a few ops would tag one in the handler's tail and find the interrupt pending at its IRET;
 * the budget of IBS_IRQS_PER_TICK interrupts per tick bounds that (Linux throttles the same
 * way). Stop (Linux perf_ibs_stop() marks the event stopped before touching the hardware):
 * the handler's session is detached first, so a late interrupt never reads the sample stop
 * reads (H17). Where IBS_OP_CTL2 exists (Zen 6, CPUID 8000_001BH:EAX[16:13]), a value left
 * in it (op sampling disabled, kernel RIPs excluded, streaming stores only) is cleared for the
 * session and restored at stop (Linux tip e267b4178134). The LVT entry
 * routes to APIC_VEC_PMI (fixed, or NMI with pmi=nmi) so apic/'s PMI dispatcher runs the
 * handler and the EOI; the entry is checked free (masked) before it is taken.
 * Disarm (ibs_disarm_undo, ibs_disarm_here): a test abandoned inside the session (watchdog,
 * exception: the runner's undo, kernel/ktap_undo.h, held from start to stop) or an AP that
 * faulted with IbsOpEn set leaves no sampling armed: IBS_OP_CTL as the stop writes it, _safe
 * accessors only, from what the driver kept at start, never the session's memory.
 */
#include "ibs/ibs.h"
#include "ibs/ibs_regs.h"
#include "apic/apic.h"
#include "apic/apic_eilvt.h"
#include "kernel/fmt.h"
#include "kernel/hw.h"
#include "kernel/ktap_undo.h"

#include <string.h>

static struct ibs_session *irq_session;
/* What the boot CPU's session changed, for ibs_disarm_undo (the driver's memory) */
static struct {
	bool on;
	unsigned lvt_offset, lvt_found;
	uint64_t ctl_found, ctl2_found;
} armed;

/* IBS_OP_CTL with sampling off: IbsOpEn, the count and IbsOpVal cleared in one write */
static uint64_t ctl_off(uint64_t ctl)
{
	return ctl & ~(IBS_OP_MAX_CNT | IBS_OP_MAX_CNT_EXT | IBS_OP_VAL | IBS_OP_EN |
		       IBS_OP_LDLAT_EN);
}

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
	uint64_t p = ibs_next_period(&s->rng, s->period_min, s->period_max), room;

	s->ctl = ibs_op_ctl_value(s->caps, p, s->cnt_ops) | s->filter | IBS_OP_EN;
	p = ibs_op_ctl_period(s->caps, s->ctl);		/* as clamped */
	room = p - IBS_PERIOD_MIN;			/* ops the random start may take */
	if ((s->caps->flags & IBS_CAPS_RDWROPCNT) && room)	/* start part-way: low bits random */
		s->ctl |= (s->rng >> 40) % (room < 128 ? room : 128) << IBS_OP_CUR_CNT_SHIFT;
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
	if (!s->active)
		return;
	if (++s->tick_irqs > IBS_IRQS_PER_TICK) {
		if (!s->throttled)
			s->st.throttled++;
		s->throttled = true;
		wrmsr(MSR_IBS_OP_CTL, 0);	/* off (the sample is read) until the tick */
		return;
	}
	arm(s);
	s->st.rearms++;
}

void ibs_tick(struct ibs_session *s)
{
	s->tick_irqs = 0;
	if (s->throttled && s->active) {
		s->throttled = false;
		arm(s);
		s->st.rearms++;
	}
}

static void irq_handler(struct trap_frame *f)
{
	struct ibs_session *s = __atomic_load_n(&irq_session, __ATOMIC_ACQUIRE);

	(void)f;
	if (s)
		ibs_irq(s);
}

/* pmi=nmi: was this NMI IBS's? (a valid sample waits: apic/apic_pmi.c asks) */
static bool irq_pending(void)
{
	uint64_t ctl = 0;

	return !rdmsr_safe(MSR_IBS_OP_CTL, &ctl) && (ctl & IBS_OP_VAL);
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
	uint64_t p;
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
	if (cfg->ldlat && !(c->flags & IBS_CAPS_OPLDLAT)) {
		fmt_snprintf(s->err, sizeof(s->err), "CPUID 8000_001BH:EAX[12] (OpLdLat) = 0: no "
			     "IBS load-latency filter");
		return -1;
	}
	s->filter = ibs_ldlat_bits(c, cfg->ldlat);
	s->ctl2 = c->flags & IBS_CAPS_CTL2;
	vec = s->ctl2 ? rdmsr_safe(MSR_IBS_OP_CTL2, &s->ctl2_found) : 0;
	if (!vec && s->ctl2_found)	/* Dis, a RIP[63] or streaming-store filter: off */
		vec = wrmsr_safe(MSR_IBS_OP_CTL2, 0);
	if (vec) {
		fmt_snprintf(s->err, sizeof(s->err), "IBS_OP_CTL2 (MSRC001_103E): fault (vector "
			     "%d)", vec);
		return -1;
	}
	s->cnt_ops = c->flags & IBS_CAPS_OPCNT;
	s->rng = cfg->seed;
	p = cfg->period > IBS_PERIOD_MIN ? cfg->period : IBS_PERIOD_MIN;
	s->period_min = p - p / 8 > IBS_PERIOD_MIN ? p - p / 8 : IBS_PERIOD_MIN;
	s->period_max = p + p / 8;	/* a spread even at the minimum: no aliasing */
	armed.lvt_offset = c->lvt_offset;
	armed.lvt_found = s->lvt_found;
	armed.ctl_found = s->ctl_found;
	armed.ctl2_found = s->ctl2_found;
	armed.on = kt_undo_push(ibs_disarm_undo, NULL);	/* boot CPU; full table: no undo */
	irq_session = s;
	apic_set_pmi_handler(irq_handler);
	apic_set_pmi_pending(irq_pending);
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
	/* H17: detach the handler first; an interrupt from here on finds no session and leaves
	 * the sample to us (one reader), one before here has re-armed already */
	__atomic_store_n(&irq_session, NULL, __ATOMIC_RELEASE);
	ctl = rdmsr(MSR_IBS_OP_CTL);
	if (ctl & IBS_OP_VAL)
		read_sample(s, ctl);	/* the last sample: nothing is tagged while Val is set */
	/* one write: the count-first order of erratum 420 is family 10h's (docs/ibs.md) */
	wrmsr(MSR_IBS_OP_CTL, ctl_off(ctl));
	apic_eilvt_write(s->caps->lvt_offset, s->lvt_found);
	wrmsr(MSR_IBS_OP_CTL, s->ctl_found);
	if (s->ctl2_found)
		wrmsr(MSR_IBS_OP_CTL2, s->ctl2_found);
	apic_set_pmi_handler(NULL);
	apic_set_pmi_pending(NULL);
	kt_undo_drop(ibs_disarm_undo, NULL);
	armed.on = false;
}

void ibs_disarm_here(void)
{
	uint64_t ctl = 0;

	if (!rdmsr_safe(MSR_IBS_OP_CTL, &ctl) && (ctl & IBS_OP_EN))
		(void)wrmsr_safe(MSR_IBS_OP_CTL, ctl_off(ctl));
}

void ibs_disarm_undo(void *arg)
{
	(void)arg;
	__atomic_store_n(&irq_session, NULL, __ATOMIC_RELEASE);	/* H17: detached first */
	ibs_disarm_here();
	if (!armed.on)
		return;
	armed.on = false;
	(void)apic_eilvt_write(armed.lvt_offset, armed.lvt_found);
	(void)wrmsr_safe(MSR_IBS_OP_CTL, armed.ctl_found);
	if (armed.ctl2_found)
		(void)wrmsr_safe(MSR_IBS_OP_CTL2, armed.ctl2_found);
	apic_set_pmi_handler(NULL);
	apic_set_pmi_pending(NULL);
}
