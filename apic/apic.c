/*
 * apic.c: local APIC bring-up and its interrupt paths (SDM Vol. 3A ch. 11): mode from
 * IA32_APIC_BASE (11.4.4, 11.12.1; firmware-locked x2APIC kept as is), legacy 8259 PIC masked
 * (11.3 note on the 8259 in virtual-wire mode), task priority 0 (11.8.3.1), spurious vector
 * and APIC software enable (11.9), error LVT with ESR reporting (11.5.3), LVTPC on its own
 * vector or as NMI (11.5.1; the PMI's dispatch, per CPU, in apic_pmi.c), LINT1 as NMI on the
 * boot CPU (platform NMIs: kernel/nmi.h reports them), self-IPI through the ICR (11.6.1). The
 * timer lives in apic_timer.c, the watchdog in apic_watchdog.c.
 */
#include "apic/apic.h"
#include "apic/apic_enc.h"
#include "apic/apic_ops.h"
#include "apic/apic_regs.h"
#include "apic/apic_timer.h"
#include "kernel/cmdline.h"
#include "kernel/console.h"
#include "kernel/cpu.h"
#include "kernel/fmt.h"
#include "kernel/hw.h"
#include "kernel/mm.h"

#include <string.h>

static enum apic_mode mode = APIC_DISABLED;
static enum pmi_delivery pmi_mode = PMI_FIXED_VECTOR;
static bool x2apic_locked;
static unsigned max_lvt;
static struct apic_stats stats;

static void pic_mask_all(void)
{
	/* Remap the 8259s off the exception vectors (ICW1..ICW4: 0x20/0x28, cascade on IR2,
	 * 8086 mode) so a spurious IRQ7/15 cannot pose as #DF/#GP, then mask every line. */
	outb(PIC1_CMD, 0x11);
	outb(PIC2_CMD, 0x11);
	outb(PIC1_DATA, 0x20);
	outb(PIC2_DATA, 0x28);
	outb(PIC1_DATA, 0x04);
	outb(PIC2_DATA, 0x02);
	outb(PIC1_DATA, 0x01);
	outb(PIC2_DATA, 0x01);
	outb(PIC1_DATA, 0xff);
	outb(PIC2_DATA, 0xff);
}

static void spurious_isr(struct trap_frame *f)
{
	(void)f;
	stats.spurious++;	/* no EOI for the spurious vector (11.9) */
}

/* A vector nobody installed (idt_set_default_handler): traps.c counts it; acknowledge it if
 * the APIC has it in service, or it would block every vector of its priority class and below
 * (the watchdog timer among them) for the rest of the run (SDM 11.8.4, ISR and EOI). */
static void stray_isr(struct trap_frame *f)
{
	if (apic_vector_in_service((uint8_t)f->vector))
		apic_eoi();
}

static void error_isr(struct trap_frame *f)
{
	char names[96];
	uint32_t esr;

	(void)f;
	apic_write(APIC_ESR, 0);	/* write first: latches the errors into the ESR */
	esr = apic_read(APIC_ESR);
	stats.errors++;
	stats.last_esr = esr;
	kprintf("# apic: error interrupt, ESR=0x%x (%s)\n", esr,
		apic_esr_describe(esr, names, sizeof(names)));
	apic_eoi();
}

static uint32_t lvtpc_value(void)
{
	return apic_lvt_pack(APIC_VEC_PMI, pmi_mode == PMI_NMI ? APIC_DM_NMI : APIC_DM_FIXED,
			     false, 0);
}

static bool select_mode(void)
{
	enum apic_request req = APIC_REQ_AUTO;
	const char *arg = cmdline_get(&kcmdline, "apic");
	uint64_t base;
	int vec;

	if (!apic_request_parse(arg, &req))
		kprintf("# warning: apic=%s: expected auto|xapic|x2apic, using auto\n", arg);
	vec = rdmsr_safe(MSR_IA32_APIC_BASE, &base);
	if (vec) {
		kprintf("# apic: reading IA32_APIC_BASE faulted (vector %d): no APIC\n", vec);
		return false;
	}
	for (int step = 0; step < 3; step++) {
		struct apic_plan p = apic_plan_mode(base, cpu.apic, cpu.x2apic, req);

		if (p.note)
			kprintf("# apic: %s\n", p.note);
		if (!p.write_base || p.new_base == base)
			break;
		vec = wrmsr_safe(MSR_IA32_APIC_BASE, p.new_base);
		if (vec)
			kprintf("# apic: IA32_APIC_BASE <- 0x%llx faulted (vector %d)\n",
				(unsigned long long)p.new_base, vec);
		if (rdmsr_safe(MSR_IA32_APIC_BASE, &base) || vec)
			break;
	}
	mode = apic_base_invalid(base) ? APIC_DISABLED : apic_mode_of_base(base);
	if (mode == APIC_X2APIC) {
		uint64_t cap = 0, st = 0;

		if (!rdmsr_safe(MSR_IA32_ARCH_CAPABILITIES, &cap) &&
		    (cap & ARCH_CAP_XAPIC_DISABLE_STATUS) &&
		    !rdmsr_safe(MSR_IA32_XAPIC_DISABLE_STATUS, &st))
			x2apic_locked = st & LEGACY_XAPIC_DISABLED;
		apic_ops_select(APIC_X2APIC, 0);
	} else if (mode == APIC_XAPIC) {
		void *va = mm_map_mmio(base & APIC_BASE_ADDR_MASK, APIC_MMIO_SIZE);

		if (!va) {
			kprintf("# apic: cannot map the xAPIC page at 0x%llx: no APIC\n",
				(unsigned long long)(base & APIC_BASE_ADDR_MASK));
			mode = APIC_DISABLED;
			return false;
		}
		apic_ops_select(APIC_XAPIC, (uintptr_t)va);
	}
	return mode != APIC_DISABLED;
}

bool apic_init(void)
{
	const char *pmi = cmdline_get(&kcmdline, "pmi");

	mode = APIC_DISABLED;
	pmi_mode = PMI_FIXED_VECTOR;
	apic_pmi_init(false, pmi_mode);
	x2apic_locked = false;
	memset(&stats, 0, sizeof(stats));
	pic_mask_all();
	if (!select_mode())
		return false;
	if (pmi && !strcmp(pmi, "nmi"))
		pmi_mode = PMI_NMI;
	else if (pmi && strcmp(pmi, "vector"))
		kprintf("# warning: pmi=%s: expected vector|nmi, using vector\n", pmi);

	max_lvt = (apic_read(APIC_LVR) >> APIC_LVR_MAXLVT_SHIFT) & APIC_LVR_MAXLVT_MASK;
	apic_write(APIC_TASKPRI, 0);
	/* every LVT masked until it has a handler; LINT0 (8259 ExtINT) stays masked, LINT1 NMI */
	apic_write(APIC_LVTT, apic_lvt_pack(APIC_VEC_TIMER, APIC_DM_FIXED, true, 0));
	apic_write(APIC_LVT0, apic_lvt_pack(0, APIC_DM_EXTINT, true, 0));
	apic_write(APIC_LVT1, apic_lvt_pack(0, APIC_DM_NMI, false, 0));
	if (max_lvt >= 4)
		apic_write(APIC_LVTPC, apic_lvt_pack(APIC_VEC_PMI, APIC_DM_FIXED, true, 0));
	if (max_lvt >= 5)
		apic_write(APIC_LVTTHMR, apic_lvt_pack(0, APIC_DM_FIXED, true, 0));
	if (max_lvt >= 6)
		apic_write(APIC_LVTCMCI, apic_lvt_pack(0, APIC_DM_FIXED, true, 0));

	idt_set_handler(APIC_VEC_SPURIOUS, spurious_isr);
	idt_set_default_handler(stray_isr);
	idt_set_handler(APIC_VEC_ERROR, error_isr);
	apic_pmi_init(true, pmi_mode);
	idt_set_handler(APIC_VEC_PMI, apic_pmi_vector_isr);
	apic_timer_install();
	apic_write(APIC_SPIV, APIC_SPIV_APIC_ENABLED | APIC_VEC_SPURIOUS);
	apic_write(APIC_LVTERR, apic_lvt_pack(APIC_VEC_ERROR, APIC_DM_FIXED, false, 0));
	/* clear errors latched before we owned the APIC (back-to-back writes, 11.5.3) */
	apic_write(APIC_ESR, 0);
	apic_write(APIC_ESR, 0);
	stats.last_esr = apic_read(APIC_ESR);

	if (max_lvt >= 4) {
		if (pmi_mode == PMI_NMI)
			idt_set_nmi_hook(apic_pmi_nmi_hook);
		apic_write(APIC_LVTPC, lvtpc_value());
	}
	apic_timer_calibrate();
	return true;
}

enum apic_mode apic_mode(void)
{
	return mode;
}

uint32_t apic_id(void)
{
	return mode == APIC_DISABLED ? 0 : apic_ops_current()->id();
}

void apic_eoi(void)
{
	if (mode != APIC_DISABLED)
		apic_write(APIC_EOI, 0);
}

enum pmi_delivery apic_pmi_delivery(void)
{
	return pmi_mode;
}

void apic_lvtpc_setup(void)
{
	unsigned lvts;

	if (mode == APIC_DISABLED)
		return;
	lvts = (apic_read(APIC_LVR) >> APIC_LVR_MAXLVT_SHIFT) & APIC_LVR_MAXLVT_MASK;
	if (lvts >= 4)
		apic_write(APIC_LVTPC, lvtpc_value());
	apic_pmi_cpu_setup();	/* this CPU's PMI state (apic_pmi.c) */
}

uint32_t apic_lvtpc_read(void)
{
	return mode == APIC_DISABLED || max_lvt < 4 ? 0 : apic_read(APIC_LVTPC);
}

void apic_self_ipi(uint8_t vector)
{
	if (mode == APIC_DISABLED)
		return;
	apic_icr_write(apic_icr_encode(mode, vector, APIC_DM_FIXED, APIC_DEST_SELF, 0));
}

void apic_send_nmi(uint32_t dest)
{
	if (mode == APIC_DISABLED)
		return;
	apic_icr_write(apic_icr_encode(mode, 0, APIC_DM_NMI, APIC_DEST_NOSHORT, dest));
}

void apic_self_nmi(void)
{
	apic_send_nmi(apic_id());
}

bool apic_vector_in_service(uint8_t vector)
{
	if (mode == APIC_DISABLED)
		return false;
	return apic_read(APIC_ISR + APIC_VECTOR_REG_OFF(vector)) & APIC_VECTOR_BIT(vector);
}

const struct apic_stats *apic_stats(void)
{
	stats.timer_irqs = apic_timer_irqs();
	stats.pmis = apic_pmi_count();
	return &stats;
}

bool apic_x2apic_locked(void)
{
	return x2apic_locked;
}

void apic_print_header(bool full)
{
	const struct apic_calib *c = apic_timer_calib();
	char tm[96];

	if (mode == APIC_DISABLED) {
		kprintf("# apic: disabled (no usable local APIC): PMI and watchdog unavailable\n");
		return;
	}
	if (!full) {	/* log=brief: one line; the apic test checks the LVTPC */
		if (c->hz)
			fmt_snprintf(tm, sizeof(tm), "timer %llu Hz (bus/%u), watchdog %s",
				     (unsigned long long)c->hz, APIC_TIMER_DIVISOR,
				     c->tsc_deadline ? "TSC-deadline" : "one-shot");
		else
			fmt_snprintf(tm, sizeof(tm), "timer not calibrated: %s",
				     c->why_not ? c->why_not : "?");
		kprintf("# apic: %s%s id %u version 0x%x max LVT %u; PMI %s; %s\n",
			apic_mode_name(mode), x2apic_locked ? " (locked by firmware)" : "",
			apic_id(), apic_read(APIC_LVR) & APIC_LVR_VERSION_MASK, max_lvt,
			pmi_mode == PMI_NMI ? "NMI" : "fixed", tm);
		return;
	}
	kprintf("# apic: %s%s id %u version 0x%x max LVT %u\n", apic_mode_name(mode),
		x2apic_locked ? " (locked by firmware)" : "", apic_id(),
		apic_read(APIC_LVR) & APIC_LVR_VERSION_MASK, max_lvt);
	kprintf("# apic: LVTPC vector 0x%x, delivery %s (LVTPC=0x%x)\n", APIC_VEC_PMI,
		pmi_mode == PMI_NMI ? "NMI" : "fixed", apic_lvtpc_read());
	if (c->hz)
		kprintf("# apic timer: %llu Hz (bus/%u), calibrated against TSC over %ux%u us, "
			"spread %llu..%llu Hz; watchdog %s\n",
			(unsigned long long)c->hz, APIC_TIMER_DIVISOR, c->rounds, APIC_CALIB_US,
			(unsigned long long)c->min_hz, (unsigned long long)c->max_hz,
			c->tsc_deadline ? "TSC-deadline" : "one-shot");
	else
		kprintf("# apic timer: not calibrated: %s\n", c->why_not ? c->why_not : "?");
}
