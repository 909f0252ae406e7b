/*
 * ibs_model.h: a host model of AMD IBS op sampling (Zen 3 and Zen 4 rows) and of the extended
 * local-APIC LVT it interrupts through, standing in for kernel/hw.h (MSRs, CPUID, xAPIC MMIO,
 * x2APIC MSRs) and for apic/'s PMI calls. It
 *  (a) records every programming the APM/PPR (or this project's rules) forbid as a violation
 *      naming the rule: re-arming with IbsOpVal set, a max count of 0 or wider than CPUID
 *      allows (reserved bits #GP), arming while the IBS LVT entry is masked or not on the PMI
 *      vector, reading a sample register while IbsOpVal is clear, writing a sample register;
 *  (b) behaves like the hardware: counts ops while IbsOpEn, tags the op at the max count, fills
 *      the sample registers from the fed op (its address, and a DataSrc/L2Miss/DcMiss encoding
 *      of the op's level for the modelled family), sets IbsOpVal, stops tagging until it is
 *      cleared, and raises the interrupt through the LVT entry into the installed handler.
 *  (c) filters as the hardware does: IbsOpL3MissOnly (Zen 4+) tags only ops that missed the
 *      L3, IbsOpLdLatEn (Zen 5+, OpLdLat) only loads whose IbsDcMissLat is above
 *      (IbsOpLatThrsh + 1) * 128; an op that does not qualify is not tagged and the count
 *      starts over (PPR 1Ah MSRC001_1033). On a row with erratum 1606, LdLatEn without
 *      L3MissOnly is a violation and the latency filter does not hold (every load qualifies).
 *      IBS_OP_CTL2 (Zen 6): Dis, ExclRip63Eq1 (the workload runs at kernel RIPs) or
 *      StrmStFilter (no streaming store is fed) left set: nothing is tagged.
 * Sources: APM Vol. 2 "Instruction-Based Sampling", "Extended Interrupts"; docs/ibs.md.
 * The CPUID values of the rows are modelled from the PPR feature lists, not read from a part.
 */
#ifndef TESTS_MODEL_IBS_MODEL_H
#define TESTS_MODEL_IBS_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "apic/apic.h"

struct ibs_model_cpu {
	const char *name;
	uint32_t signature;	/* CPUID.1:EAX */
	bool ibs;		/* CPUID 8000_0001H:ECX[10] */
	uint32_t flags;		/* CPUID 8000_001BH:EAX */
	bool ext_dsrc;		/* encode DataSrc[4:0] (Zen 4) rather than [2:0] */
	uint64_t ibs_ctl;	/* MSRC001_103A as firmware left it */
	unsigned ext_lvt_count;	/* APIC 400h ExtLvtCount */
	bool hypervisor;
	/* core clocks (ibs_model_pmc.c) */
	uint8_t fw_pmc;		/* legacy counters firmware left enabled (bit i: PerfEvtSel i) */
	bool pmc_swallowed;	/* counter MSRs read 0 and drop writes (no vPMU) */
	bool aperf;		/* CPUID 06H:ECX[0], IA32_APERF */
	/* erratum 1606 (Revision Guide 1Ah M00h-0Fh; Linux perf_ibs_init(), 898138efc990):
	 * IbsOpLdLatEn without IbsOpL3MissOnly: the latency filter does not hold */
	bool erratum_1606;
	uint64_t op_ctl2;	/* IBS_OP_CTL2 as firmware left it (rows with IBS_CAPS_CTL2) */
};

extern const struct ibs_model_cpu ibs_model_zen3, ibs_model_zen4, ibs_model_zen5,
	ibs_model_zen6, ibs_model_qemu_epyc, ibs_model_zen3_no_lvt;

/* One op fed to the model: a load at addr served from `level` (enum pebs_level, remote for
 * another CCX / node) with a miss latency, or (load false) any other op. */
struct ibs_model_op {
	bool load;
	uint64_t addr;
	uint8_t level;
	bool remote;
	bool stlb_miss;		/* missed the L1 and the L2 DTLB (IbsDcL1TlbMiss, IbsDcL2TlbMiss) */
	uint16_t lat;
};

struct ibs_model_stats {
	uint64_t ops, tagged, irqs_raised, irqs_delivered, lost_irqs, arms;
	uint64_t handler_ops, handler_tagged;	/* the handler's own (ibs_model_hostile) */
	bool livelock;				/* IM_LIVELOCK deliveries, no workload op */
	uint64_t periods_min, periods_max;	/* range of the periods armed */
};

/* Start over: cpu, APIC mode (xAPIC or x2APIC), PMI delivery. */
void ibs_model_init(const struct ibs_model_cpu *cpu, enum apic_mode mode,
		    enum pmi_delivery pmi);
const struct ibs_model_cpu *ibs_model_cpu(void);
/* Feed n copies of op; each advances the virtual clock (tests/model/vclock.h) by op_ticks,
 * each delivered interrupt by irq_ticks. */
void ibs_model_feed(const struct ibs_model_op *op, uint64_t n);
void ibs_model_set_costs(uint64_t op_ticks, uint64_t irq_ticks);
/* Interrupt delivery on/off (off: a raised interrupt waits, as with IF = 0). */
void ibs_model_irq_delivery(bool on);
/* Hostile knobs. The handler's own ops (IbsOpCntCtl counts every dispatched op, APM Vol. 2
 * "IBS Op Sampling"): handler_ops per register access inside the handler and tail_ops after
 * it returns (the dispatcher's tail, EOI, IRET), each an L1 load at IM_HANDLER_ADDR with its
 * RIP in the handler: they advance IbsOpCurCnt and can be tagged; a tag inside the handler
 * leaves the interrupt pending at its IRET, delivered at once (IM_LIVELOCK of those in a row
 * without a workload op is a violation: livelock). irq_at: a pending interrupt is delivered
 * after that many more register accesses, whatever the delivery switch (an interrupt at an
 * exact instruction boundary, to sweep a window). */
void ibs_model_hostile(uint64_t handler_ops, uint64_t tail_ops);
void ibs_model_irq_at(unsigned accesses);
void ibs_model_set_pending(bool (*fn)(void));
bool ibs_model_pending(void);
const struct ibs_model_stats *ibs_model_stats(void);
/* Core clocks per virtual TSC tick, x100 (default 110: model-log's `time` lines). */
void ibs_model_set_core_ratio(unsigned x100);
uint64_t ibs_model_pmc_sel(unsigned i);

/* Register state for assertions. */
uint64_t ibs_model_op_ctl(void);
uint32_t ibs_model_eilvt(unsigned n);
/* True when IBS_OP_CTL and every extended LVT entry hold what init put there. */
bool ibs_model_restored(void);

unsigned ibs_model_violation_count(void);
const char *ibs_model_violation(unsigned i);
bool ibs_model_has_violation(const char *substr);

/* The model's kernel/hw.h and apic/ entry points under their own names (ibs_model_hw.c binds
 * them to the real names; tools/model-log dispatches). */
struct cpuid_regs;
uint64_t ibs_model_rdmsr(uint32_t msr);
void ibs_model_wrmsr(uint32_t msr, uint64_t val);
int ibs_model_rdmsr_safe(uint32_t msr, uint64_t *val);
int ibs_model_wrmsr_safe(uint32_t msr, uint64_t val);
int ibs_model_rdpmc_safe(uint32_t counter, uint64_t *val);
void ibs_model_cpuid(uint32_t leaf, uint32_t subleaf, struct cpuid_regs *r);
uint32_t ibs_model_mmio_read32(uintptr_t addr);
void ibs_model_mmio_write32(uintptr_t addr, uint32_t val);
void ibs_model_set_handler(irq_handler_fn fn);
enum pmi_delivery ibs_model_pmi_delivery(void);
enum apic_mode ibs_model_apic_mode(void);

#endif
