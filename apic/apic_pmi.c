/*
 * apic_pmi.c: the PMI's way through the local APIC (SDM Vol. 3A 11.5.1 LVTPC; Vol. 3B 20.x
 * "Generic PMI": delivery of a PMI sets LVTPC's mask bit, the handler unmasks it, then EOI
 * for a fixed vector, none for an NMI) and the NMI hook of pmi=nmi.
 * Per CPU (H8): every CPU's PMU raises its PMI through its own LVTPC into the one shared
 * vector, so the dispatcher's state (which entry is being handled, whether the handler
 * re-armed already, the count) lives in a slot of the CPU it runs on, found by its local
 * APIC id; a slot is taken once per CPU at its APIC bring-up (take: compare-and-swap, then
 * the id, then ready), a lookup never writes. Nesting (an NMI inside a vector entry on the
 * same CPU) saves and restores the slot's state around the inner dispatch.
 * pmi=nmi: every NMI reaches the hook; it is the PMU's when LVTPC is masked (the delivery
 * masked it: SDM "Generic PMI"; KVM emulates this for Intel-compatible guests,
 * arch/x86/kvm/lapic.c kvm_apic_local_deliver()), when the PMI source's own test says so
 * (IBS: IbsOpVal, apic_set_pmi_pending) or, with a handler installed and no such test, when
 * IA32_PERF_GLOBAL_STATUS (Vol. 3B 20.2.2) has a bit set (older KVM leaves LVTPC unmasked).
 * Any other NMI is left to kernel/nmi.c as unknown (Linux perf_event_nmi_handler() returns
 * "not handled" the same way, and unknown_nmi_error() reports it).
 */
#include "apic/apic_pmi.h"
#include "apic/apic_enc.h"
#include "apic/apic_ops.h"
#include "apic/apic_regs.h"
#include "kernel/hw.h"

#include <stdbool.h>
#include <string.h>

#define PMI_CPUS 256
#define MSR_IA32_PERF_GLOBAL_STATUS 0x38eu	/* SDM Vol. 4 Table 2-2 */

enum { SLOT_FREE, SLOT_TAKING, SLOT_READY };

struct pmi_cpu {
	int state;		/* SLOT_* */
	uint32_t id;		/* local APIC id */
	bool rearmed;		/* the handler of the dispatch in progress re-armed */
	bool entry_vector;	/* the dispatch in progress came through the vector */
	uint64_t pmis;
};

static struct pmi_cpu cpus[PMI_CPUS], spare;
static irq_handler_fn pmi_handler;
static bool (*pmi_pending)(void);
static bool enabled, via_nmi;	/* an APIC; pmi=nmi (apic_pmi_init) */

static struct pmi_cpu *find(uint32_t id)
{
	for (unsigned i = 0; i < PMI_CPUS; i++)
		if (__atomic_load_n(&cpus[i].state, __ATOMIC_ACQUIRE) == SLOT_READY &&
		    cpus[i].id == id)
			return &cpus[i];
	return NULL;
}

static struct pmi_cpu *take(uint32_t id)
{
	struct pmi_cpu *c = find(id);

	for (unsigned i = 0; !c && i < PMI_CPUS; i++) {
		int free_ = SLOT_FREE;

		if (__atomic_compare_exchange_n(&cpus[i].state, &free_, SLOT_TAKING, false,
						__ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
			cpus[i].id = id;
			cpus[i].rearmed = false;
			cpus[i].entry_vector = !via_nmi;
			cpus[i].pmis = 0;
			__atomic_store_n(&cpus[i].state, SLOT_READY, __ATOMIC_RELEASE);
			c = &cpus[i];
		}
	}
	return c ? c : &spare;	/* more CPUs than slots: they share one (counted) */
}

static struct pmi_cpu *this_cpu(void)
{
	return take(enabled ? apic_ops_current()->id() : 0);
}

void apic_pmi_init(bool apic_enabled, enum pmi_delivery d)
{
	memset(cpus, 0, sizeof(cpus));
	memset(&spare, 0, sizeof(spare));
	spare.entry_vector = d == PMI_FIXED_VECTOR;
	pmi_pending = NULL;
	enabled = apic_enabled;
	via_nmi = d == PMI_NMI;
	if (enabled)
		apic_pmi_cpu_setup();
}

void apic_pmi_cpu_setup(void)
{
	(void)this_cpu();
}

static void rearm(struct pmi_cpu *c)
{
	if (!enabled)
		return;
	apic_write(APIC_LVTPC, apic_read(APIC_LVTPC) & ~APIC_LVT_MASKED);
	/* an entry through the vector (a fixed-mode PMI, or a self-IPI on APIC_VEC_PMI even
	 * with pmi=nmi) is in service and needs the EOI; an NMI entry does not */
	if (c->entry_vector)
		apic_write(APIC_EOI, 0);
	c->rearmed = true;
}

void apic_pmi_rearm(void)
{
	rearm(this_cpu());
}

static void dispatch(struct trap_frame *f, bool via_vector)
{
	struct pmi_cpu *c = this_cpu();
	irq_handler_fn h = pmi_handler;
	bool outer = c->entry_vector, outer_rearmed = c->rearmed;

	__atomic_fetch_add(&c->pmis, 1, __ATOMIC_RELAXED);
	c->rearmed = false;
	c->entry_vector = via_vector;
	if (h)
		h(f);
	if (!c->rearmed)
		rearm(c);
	/* an NMI may have nested in a vector entry: give the outer dispatch its state back */
	c->entry_vector = outer;
	c->rearmed = outer_rearmed;
}

void apic_pmi_vector_isr(struct trap_frame *f)
{
	dispatch(f, true);
}

static bool pmu_raised_nmi(void)
{
	uint64_t st = 0;

	if (apic_lvt_masked(apic_read(APIC_LVTPC)))
		return true;
	if (pmi_pending)
		return pmi_pending();
	return pmi_handler && !rdmsr_safe(MSR_IA32_PERF_GLOBAL_STATUS, &st) && st;
}

bool apic_pmi_nmi_hook(struct trap_frame *f)
{
	if (!enabled || !pmu_raised_nmi())
		return false;	/* not the PMU's: an unknown NMI (kernel/nmi.c) */
	dispatch(f, false);
	return true;
}

void apic_set_pmi_handler(irq_handler_fn fn)
{
	pmi_handler = fn;
}

void apic_set_pmi_pending(bool (*fn)(void))
{
	pmi_pending = fn;
}

uint64_t apic_pmi_count(void)
{
	uint64_t n = spare.pmis;

	for (unsigned i = 0; i < PMI_CPUS; i++)
		n += __atomic_load_n(&cpus[i].pmis, __ATOMIC_RELAXED);
	return n;
}
