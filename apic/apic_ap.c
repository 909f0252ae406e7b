/*
 * apic_ap.c: the local APIC of an application processor, brought up in the boot CPU's mode
 * (SDM Vol. 3A 11.4.3 "Enabling or Disabling the Local APIC", 11.12.1 "Detecting and Enabling
 * x2APIC Mode") with the LVTs of the boot CPU (apic.c): timer, LINT0 and LINT1 masked (the
 * boot CPU alone takes LINT1 NMIs), the PMI per pmi=, the error LVT with ESR reporting.
 * Firmware may leave an AP's APIC globally disabled (IA32_APIC_BASE.EN = 0): disabled ->
 * x2APIC in one write is an invalid transition that #GPs (11.12.5, Figure 11-27 "Local
 * x2APIC State Transitions"), so the AP enables xAPIC first, then sets EXTD, as the boot CPU
 * does (apic_enc.c apic_plan_mode); every IA32_APIC_BASE access is _safe.
 */
#include "apic/apic.h"
#include "apic/apic_enc.h"
#include "apic/apic_ops.h"
#include "apic/apic_regs.h"
#include "kernel/hw.h"

#include <stdbool.h>

/* IA32_APIC_BASE to `want` (EN, EN|EXTD) one legal step at a time; 0 or the fault vector */
static int enter_mode(bool x2)
{
	uint64_t base;
	int vec = rdmsr_safe(MSR_IA32_APIC_BASE, &base);

	if (!vec && !(base & APIC_BASE_EN)) {
		base = (base & ~APIC_BASE_EXTD) | APIC_BASE_EN;	/* disabled -> xAPIC */
		vec = wrmsr_safe(MSR_IA32_APIC_BASE, base);
	}
	if (!vec && x2 && !(base & APIC_BASE_EXTD))		/* xAPIC -> x2APIC */
		vec = wrmsr_safe(MSR_IA32_APIC_BASE, base | APIC_BASE_EXTD);
	return vec;
}

int apic_ap_init(void)
{
	int vec;

	if (apic_mode() == APIC_DISABLED)
		return 0;
	vec = enter_mode(apic_mode() == APIC_X2APIC);
	if (vec)
		return vec;
	apic_write(APIC_TASKPRI, 0);
	apic_write(APIC_LVTT, apic_lvt_pack(APIC_VEC_TIMER, APIC_DM_FIXED, true, 0));
	apic_write(APIC_LVT0, apic_lvt_pack(0, APIC_DM_EXTINT, true, 0));
	apic_write(APIC_LVT1, apic_lvt_pack(0, APIC_DM_NMI, true, 0));
	apic_write(APIC_SPIV, APIC_SPIV_APIC_ENABLED | APIC_VEC_SPURIOUS);
	apic_lvtpc_setup();	/* this CPU's PMI, as the boot CPU's (vector or NMI) */
	apic_write(APIC_LVTERR, apic_lvt_pack(APIC_VEC_ERROR, APIC_DM_FIXED, false, 0));
	apic_write(APIC_ESR, 0);
	apic_write(APIC_ESR, 0);
	return 0;
}
