/*
 * ibs_model_run.c: the IBS model's behaviour (see ibs_model.h): the op counter, tagging at the
 * max count, the sample registers filled from the fed op, IbsOpVal, the interrupt through the
 * extended LVT entry into apic/'s handler, the rules on IBS_OP_CTL writes, the virtual clock.
 * The DataSrc encoding of a level is written out here per table (APM/PPR IBS_OP_DATA2,
 * docs/ibs.md "DataSrc"), independently of ibs/ibs_tables.c, so the decoder is tested
 * against it rather than against itself.
 */
#include "model/ibs_model_int.h"
#include "model/vclock.h"
#include "model/violations.h"
#include "apic/apic_eilvt.h"
#include "apic/apic_ops.h"
#include "pebs/datasrc.h"
#include "ibs/ibs_regs.h"

#include <string.h>

uint64_t im_period(void)
{
	uint64_t cnt = IM.op_ctl & IBS_OP_MAX_CNT;

	cnt |= ((IM.op_ctl & IBS_OP_MAX_CNT_EXT) >> IBS_OP_MAX_CNT_EXT_SHIFT) << 16;
	return cnt << 4;
}

static void check_lvt(void)
{
	unsigned off = (unsigned)(IM.cpu->ibs_ctl & IBS_CTL_LVT_OFFSET);
	uint32_t e = IM.eilvt[off & 3];
	unsigned mt = (e >> 8) & 7;

	if (!(IM.cpu->ibs_ctl & IBS_CTL_LVT_OFFSET_VALID)) {
		im_violate("IbsOpEn without a valid IBS_CTL LVT offset");
		return;
	}
	if (e & APIC_EILVT_MASKED)
		im_violate("IbsOpEn while extended LVT %u is masked: the interrupt is lost", off);
	else if ((e & 0xff) != APIC_VEC_PMI && mt == APIC_EILVT_MSG_FIX)
		im_violate("extended LVT %u vector 0x%x, not the PMI vector", off, e & 0xff);
	else if (mt != (IM.pmi == PMI_NMI ? APIC_EILVT_MSG_NMI : APIC_EILVT_MSG_FIX))
		im_violate("extended LVT %u message type %u, PMIs go by %s", off, mt,
			   IM.pmi == PMI_NMI ? "NMI" : "fixed vector");
}

void im_op_ctl_write(uint64_t v)
{
	if (v & IBS_OP_EN) {
		uint64_t p;

		if (v & IBS_OP_VAL)
			im_violate("IBS_OP_CTL armed with IbsOpVal set (no re-arm while valid)");
		IM.op_ctl = v;
		p = im_period();
		if (!p)
			im_violate("IbsOpMaxCnt 0 with IbsOpEn (max-count bounds)");
		if ((v & IBS_OP_LDLAT_EN) && !(v & IBS_OP_L3MISSONLY) && IM.cpu->erratum_1606)
			im_violate("erratum 1606: IbsOpLdLatEn without IbsOpL3MissOnly");
		check_lvt();
		IM.st.arms++;
		if (!IM.st.periods_min || p < IM.st.periods_min)
			IM.st.periods_min = p;
		if (p > IM.st.periods_max)
			IM.st.periods_max = p;
		IM.cur = (v & IBS_OP_CUR_CNT) >> IBS_OP_CUR_CNT_SHIFT;
	}
	IM.op_ctl = v;
}

/* DataSrc codes of a level, per table (docs/ibs.md "DataSrc"). */
static uint64_t data2_of(const struct ibs_model_op *op)
{
	unsigned code = 0;
	bool ext = IM.cpu->ext_dsrc;

	switch (op->level) {
	case PEBS_LVL_L3: code = ext ? 1 : 2; break;		/* local L3 / CCX */
	case PEBS_LVL_ANY_CACHE: code = ext ? 2 : 4; break;	/* another CCX */
	case PEBS_LVL_RAM: code = 3; break;
	case PEBS_LVL_CXL: code = ext ? 8 : 0; break;
	default: code = 0; break;
	}
	return (code & 7) | (uint64_t)(code >> 3) << IBS_DATA2_SRC_HI_SHIFT |
	       IBS_DATA2_CACHE_HIT_ST |
	       (op->remote && op->level == PEBS_LVL_RAM &&
		(IM.cpu->flags & IBS_CAPS_STRMST_RMTSOCKET) ? IBS_DATA2_RMT_SOCKET : 0) |
	       (op->remote && op->level != PEBS_LVL_ANY_CACHE ? IBS_DATA2_RMT_NODE : 0);
}

static void feed(const struct ibs_model_op *op, uint64_t n);

static const struct ibs_model_op handler_op = { .load = true, .addr = IM_HANDLER_ADDR,
						.level = PEBS_LVL_L1 };

static void handler_feed(uint64_t n)
{
	IM.st.handler_ops += n;
	feed(&handler_op, n);
}

/* The interrupt, and again while one is pending at the IRET (the handler's own ops) */
static void deliver(void)
{
	struct trap_frame f;

	do {
		if (++IM.no_progress > IM_LIVELOCK) {
			if (!IM.st.livelock)
				im_violate("interrupt livelock: %u IBS interrupts without an op of "
					   "the workload", IM_LIVELOCK);
			IM.st.livelock = true;
			IM.pending = false;
			return;
		}
		memset(&f, 0, sizeof(f));
		f.vector = APIC_VEC_PMI;
		IM.pending = false;
		IM.in_irq = true;
		if (IM.handler)
			IM.handler(&f);
		if (IM.tail_ops)
			handler_feed(IM.tail_ops);	/* dispatcher tail, EOI, IRET */
		IM.in_irq = false;
		IM.st.irqs_delivered++;
		vclock_advance(IM.irq_ticks);
	} while (IM.pending && IM.delivery);
}

void im_access(void)
{
	if (IM.in_irq && IM.handler_ops)
		handler_feed(IM.handler_ops);
	if (IM.irq_at && --IM.irq_at == 0 && IM.pending && !IM.in_irq)
		deliver();
}

static void tag(const struct ibs_model_op *op)
{
	unsigned off = (unsigned)(IM.cpu->ibs_ctl & IBS_CTL_LVT_OFFSET) & 3;

	IM.st.tagged++;
	IM.st.handler_tagged += IM.in_irq;
	IM.rip = IM.in_irq ? IM_HANDLER_RIP : 0xffffffff80100000ull + (IM.st.tagged & 0xff) * 4;
	IM.data = (uint64_t)(op->lat + 20) << IBS_OP_DATA_TAG_TO_RET_SHIFT | 2;
	IM.data2 = 0;
	IM.data3 = 0;
	IM.linaddr = IM.physaddr = 0;
	if (op->load) {
		IM.data3 = IBS_DATA3_LD_OP | IBS_DATA3_DC_LIN_ADDR_VALID |
			   IBS_DATA3_DC_PHY_ADDR_VALID | 3ull << 22;	/* 8-byte access */
		IM.linaddr = IM.physaddr = op->addr;
		if (op->stlb_miss)	/* a miss in the L2 DTLB missed the L1 DTLB first (APM Vol. 2
					 * "IBS Op Data 3 Register": IbsDcL1TlbMiss, IbsDcL2TlbMiss) */
			IM.data3 |= IBS_DATA3_DC_L1TLB_MISS | IBS_DATA3_DC_L2TLB_MISS;
		if (op->level != PEBS_LVL_L1) {
			IM.data3 |= IBS_DATA3_DC_MISS | (uint64_t)op->lat << IBS_DATA3_DC_MISS_LAT_SHIFT;
			if (op->level == PEBS_LVL_LFB)
				IM.data3 |= IBS_DATA3_DC_MISS_NO_MAB_ALLOC | IBS_DATA3_L2_MISS;
			else if (op->level != PEBS_LVL_L2)
				IM.data3 |= IBS_DATA3_L2_MISS;
			IM.data2 = data2_of(op);
		}
	}
	IM.op_ctl |= IBS_OP_VAL;
	IM.cur = 0;
	IM.st.irqs_raised++;
	if (IM.eilvt[off] & APIC_EILVT_MASKED)
		IM.st.lost_irqs++;
	else if (IM.delivery && !IM.in_irq)
		deliver();
	else
		IM.pending = true;
}

/* Does the op at the max count get tagged under IBS_OP_CTL's filters? */
static bool qualifies(const struct ibs_model_op *op)
{
	bool l3miss = op->load && op->level != PEBS_LVL_L1 && op->level != PEBS_LVL_LFB &&
		      op->level != PEBS_LVL_L2 && op->level != PEBS_LVL_L3;	/* local L3 */
	unsigned thr = (unsigned)((IM.op_ctl & IBS_OP_LDLAT_THRSH) >> IBS_OP_LDLAT_THRSH_SHIFT);

	if (IM.op_ctl2 & (IBS_OP2_DIS | IBS_OP2_EXCL_RIP_63_EQ_1 | IBS_OP2_STRM_ST_FILTER))
		return false;	/* every op fed runs at a kernel RIP and is no streaming store */
	if ((IM.op_ctl & IBS_OP_L3MISSONLY) && !l3miss)
		return false;
	if (!(IM.op_ctl & IBS_OP_LDLAT_EN))
		return true;
	if (IM.cpu->erratum_1606 && !(IM.op_ctl & IBS_OP_L3MISSONLY))
		return op->load;	/* the erratum: the latency filter does not hold */
	return op->load && op->level != PEBS_LVL_L1 && op->lat > (thr + 1) * IBS_LDLAT_MIN;
}

static void count(uint64_t k)
{
	IM.st.ops += k;
	vclock_advance(IM.op_ticks * k);
}

void ibs_model_feed(const struct ibs_model_op *op, uint64_t n)
{
	if (!IM.in_irq && n)
		IM.no_progress = 0;	/* the workload runs */
	feed(op, n);
}

static void feed(const struct ibs_model_op *op, uint64_t n)
{
	while (n) {
		uint64_t p = im_period(), before;

		if (!(IM.op_ctl & IBS_OP_EN) || (IM.op_ctl & IBS_OP_VAL) || !p) {
			count(n);	/* nothing is tagged while disabled or a sample is valid */
			return;
		}
		before = p - 1 > IM.cur ? p - 1 - IM.cur : 0;	/* ops before the tagged one */
		if (before >= n) {
			count(n);
			IM.cur += n;
			return;
		}
		count(before + 1);
		n -= before + 1;
		if (qualifies(op)) {
			tag(op);
		} else {	/* filtered out: not tagged, the count starts over with the
				 * hardware's random low 7 bits (Linux IBS_OP_CUR_CNT_RAND) */
			IM.rng ^= IM.rng << 13;
			IM.rng ^= IM.rng >> 7;
			IM.rng ^= IM.rng << 17;
			IM.cur = IM.rng & 0x7f;
		}
	}
}

void ibs_model_init(const struct ibs_model_cpu *cpu, enum apic_mode mode, enum pmi_delivery pmi)
{
	memset(&IM, 0, sizeof(IM));
	IM.cpu = cpu;
	IM.mode = mode;
	IM.pmi = pmi;
	IM.delivery = true;
	IM.op_ticks = 1;
	IM.rng = 0x2545f4914f6cdd1dull;
	IM.op_ctl2 = cpu->op_ctl2;
	for (unsigned i = 0; i < 4; i++)
		IM.eilvt[i] = IM.eilvt_init[i] = APIC_EILVT_MASKED;
	apic_ops_select(mode, IM_XAPIC_BASE);
	im_pmc_reset();
}

const struct ibs_model_cpu *ibs_model_cpu(void) { return IM.cpu; }
void ibs_model_set_costs(uint64_t op_ticks, uint64_t irq_ticks)
{
	IM.op_ticks = op_ticks;
	IM.irq_ticks = irq_ticks;
}

void ibs_model_hostile(uint64_t handler_ops, uint64_t tail_ops)
{
	IM.handler_ops = handler_ops;
	IM.tail_ops = tail_ops;
}

void ibs_model_irq_at(unsigned accesses) { IM.irq_at = accesses; }
void ibs_model_set_pending(bool (*fn)(void)) { IM.pending_fn = fn; }
bool ibs_model_pending(void) { return IM.pending_fn && IM.pending_fn(); }

void ibs_model_irq_delivery(bool on)
{
	IM.delivery = on;
	if (on && IM.pending)
		deliver();
}

const struct ibs_model_stats *ibs_model_stats(void) { return &IM.st; }
uint64_t ibs_model_op_ctl(void) { return IM.op_ctl; }
uint32_t ibs_model_eilvt(unsigned n) { return n < 4 ? IM.eilvt[n] : 0; }

bool ibs_model_restored(void)
{
	return IM.op_ctl == IM.op_ctl_init && IM.op_ctl2 == IM.cpu->op_ctl2 &&
	       !memcmp(IM.eilvt, IM.eilvt_init, sizeof(IM.eilvt));
}

unsigned ibs_model_violation_count(void) { return IM.nviol; }
const char *ibs_model_violation(unsigned i) { return i < IM.nviol ? IM.viol[i] : ""; }

bool ibs_model_has_violation(const char *substr)
{
	return viol_has(IM.viol[0], sizeof(IM.viol[0]), IM.nviol, substr);
}

/* apic/'s PMI calls, for the hw.h binding (ibs_model_hw.c) or model-log's dispatch. */
void ibs_model_set_handler(irq_handler_fn fn) { IM.handler = fn; }
enum pmi_delivery ibs_model_pmi_delivery(void) { return IM.pmi; }
enum apic_mode ibs_model_apic_mode(void) { return IM.mode; }
