/*
 * pmu_model_pmi.c: how the PMU model delivers its PMI (see pmu_model.h): the apic/ stand-ins
 * (LVTPC masked by delivery, re-armed by apic_pmi_rearm, §7.2), the handler rules checked at
 * the re-arm and at the handler's return, the interrupt flag, and the hostile knobs:
 *  - late: a raised PMI is taken only after N more model steps (fed events, MSR accesses,
 *    model_step), while the counters keep counting and the PEBS assist keeps writing records
 *    (nothing freezes them before the handler's GLOBAL_CTRL <- 0: IA32_DEBUGCTL's freeze
 *    bit is not set, SDM Vol. 3B "Performance Monitoring" freeze-on-PMI; a hypervisor
 *    injects a guest's PMI at a later VM entry, Linux arch/x86/kvm/pmu.c kvm_pmu_deliver_pmi);
 *  - hold: the pending PMI is taken just before the k-th MSR access from now, whatever
 *    function makes it (an interrupt is recognised between any two instructions, SDM Vol. 3A
 *    "Interrupts and Exceptions"), so a test can sweep k over every access of a function;
 *  - busy: n events of one kind fed before every MSR access (the workload, or the driver's
 *    own loads, counting on while the driver reprograms the PMU);
 *  - stale GLOBAL_STATUS bits (firmware, an earlier session, INIT-kept AP state).
 * Tests choose the knobs from a seed; nothing reads a wall clock.
 */
#include "model/pmu_model_int.h"
#include "apic/apic.h"
#include "kernel/hw.h"
#include "pebs/msr.h"

#include <string.h>

/* apic/ stand-ins: LVTPC mask and EOI as one rearm step (apic.h contract). */
void apic_set_pmi_handler(irq_handler_fn fn) { model_pmi_handler = fn; }

void apic_pmi_rearm(void)
{
	if (M.in_pmi && (M.global_status & GLOBAL_STATUS_OVF_BUF))
		model_violate("LVTPC unmasked before GLOBAL_STATUS[62] was acked");
	model_arch_rearm_check();
	M.lvtpc_masked = false;
	if (M.in_pmi)
		model_logf("rearm");
}

/* At the handler's return: PEBS counting back on with the index still at the threshold
 * means no further threshold PMI (§3.3). A handler that leaves counting off (a session
 * being stopped, pebs_stop drains) may leave the index where it is. */
static void exit_check(void)
{
	const uint64_t *ds = (const uint64_t *)(uintptr_t)M.ds_area;

	if (!model_any_pebs_active())
		return;
	if (ds && model_mapped(M.ds_area, 0x40) && ds[5] >= ds[7] && ds[7])
		model_violate("PMI re-armed with the PEBS index still at the threshold");
	model_arch_exit_check();
}

/* A PMI taken: through the installed handler, or, with none, as apic/'s dispatcher does
 * (apic.c pmi_dispatch: nothing but the re-arm; no driver rule applies to it). */
void model_deliver(void)
{
	struct trap_frame f;
	bool handler = model_pmi_handler != NULL;

	memset(&f, 0, sizeof(f));
	f.vector = APIC_VEC_PMI;
	M.pending = false;
	M.late_left = 0;
	M.lvtpc_masked = true;	/* delivery masks LVTPC */
	M.in_pmi = handler;
	M.pmi_disabled_first = false;
	M.st.pmis_delivered++;
	M.tsc += M.pmi_ticks;
	if (handler)
		model_pmi_handler(&f);
	else
		apic_pmi_rearm();
	M.in_pmi = false;
	if (M.lvtpc_masked)
		model_violate("PMI handler returned with LVTPC masked");
	if (handler)
		exit_check();
}

/* A PMI raised: taken at once unless interrupts are off, LVTPC is masked, a handler runs,
 * or a hostile knob (below) holds it back. */
void model_raise(void)
{
	M.st.pmis_raised++;
	if (!M.pending && M.late)
		M.late_left = M.late;	/* one LVTPC interrupt pending at a time */
	M.pending = true;
	if (M.delivery && !M.lvtpc_masked && !M.in_pmi && !M.late_left && !M.hold_at)
		model_deliver();
}

void model_raise_pmi(void) { model_raise(); }
void model_pmi_delivery(bool on) { M.delivery = on; }

void model_pmi_flush(void)
{
	if (M.pending && !M.lvtpc_masked && !M.in_pmi && !M.late_left && !M.hold_at)
		model_deliver();
}

/* kernel/hw.h interrupt flag: the selected CPU's PMI delivery (IF=1: delivered at once). */
uint64_t hw_irq_on(void)
{
	uint64_t fl = M.delivery ? 1u << 9 : 0;

	model_pmi_delivery(true);
	model_pmi_flush();
	return fl;
}

void hw_irq_restore(uint64_t flags)
{
	model_pmi_delivery(flags & (1u << 9));
	if (flags & (1u << 9))
		model_pmi_flush();
}

/* Knobs: a test sets them after model_init (which clears them). */
void model_pmi_late(uint64_t steps)
{
	M.late = steps;
	if (M.pending)
		M.late_left = steps;	/* the PMI pending now lands that late too */
}

void model_pmi_hold_until_access(uint64_t k)
{
	M.hold_at = k ? M.accesses + k : 0;
}

void model_busy(uint16_t event, uint64_t n, const struct model_load *ld)
{
	M.busy_event = event;
	M.busy_n = n;
	if (ld)
		M.busy_ld = *ld;
}

uint64_t model_msr_accesses(void) { return M.accesses; }
void model_set_global_status(uint64_t bits) { M.global_status |= bits; }
void model_step(void) { model_tick(false); }

void model_tick(bool access)
{
	if (M.in_pmi || M.stepping)
		return;		/* the handler's own accesses, a test-side peek */
	if (access) {
		M.accesses++;
		if (M.busy_n)	/* each fed event is a step of its own (late delivery) */
			model_feed(M.busy_event, M.busy_n, &M.busy_ld);
		if (M.hold_at && M.accesses >= M.hold_at) {
			M.hold_at = 0;
			M.late_left = 0;
			if (M.pending && M.delivery && !M.lvtpc_masked)
				model_deliver();
			return;
		}
	}
	if (M.late_left && --M.late_left == 0 && M.pending && M.delivery && !M.lvtpc_masked &&
	    !M.hold_at)
		model_deliver();
}
