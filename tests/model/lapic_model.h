/*
 * lapic_model.h: a host model of one local APIC standing in for kernel/hw.h (SDM Vol. 3A
 * ch. 11): IA32_APIC_BASE with the mode transitions of Figure 11-27 (and a firmware x2APIC
 * lock), the xAPIC MMIO page, the x2APIC MSR map of Table 11-6 with its #GP rules, IRR/ISR
 * with priority classes and EOI, the LVTPC mask-on-delivery rule, a timer count driven by the
 * virtual TSC (tests/model/vclock.h) and the 8259 ports. Accesses the real hardware would
 * refuse are counted, so tests can assert that apic/ never makes them.
 */
#ifndef MODEL_LAPIC_MODEL_H
#define MODEL_LAPIC_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#define LM_LOG_MAX 512

struct lm_access {		/* one register write, in order */
	bool msr;		/* x2APIC MSR (else MMIO) */
	unsigned reg;		/* xAPIC offset */
	uint64_t val;
};

struct lapic_model {
	/* configuration */
	uint64_t apic_base;		/* IA32_APIC_BASE */
	bool cpuid_x2apic;
	bool arch_cap_xapic_status;	/* ARCH_CAPABILITIES[21] */
	bool locked;			/* XAPIC_DISABLE_STATUS[0] */
	uint32_t id;			/* APIC id (xAPIC shows the low 8 bits in 31:24) */
	uint32_t max_lvt;
	uint64_t tsc_per_count;		/* virtual TSC ticks per timer count; 0: timer frozen */
	uint32_t fault_msr;		/* this MSR #GPs on any access (0: none) */
	uint32_t esr_pending;		/* errors to latch on the next ESR write */
	void (*on_ipi)(uint64_t icr);	/* called for every IPI sent (the other CPUs' side) */
	/* hostile knobs (lapic_model_nmi.c) */
	bool pmi_latch_masked;		/* a PMI raised while LVTPC is masked is latched and
					 * delivered at unmask; false: dropped (KVM) */
	uint64_t nmi_seed;		/* platform NMIs: xorshift state (0: none) */
	unsigned nmi_per_mille;		/* chance of one after each register access */
	void (*on_nmi)(void);		/* the CPU's NMI entry (the test's trap path) */
	/* state */
	uint32_t regs[64];		/* by offset >> 4 */
	uint32_t isr[8], irr[8];
	uint64_t tmict_tsc;		/* virtual TSC when TMICT was written */
	uint64_t tsc_deadline;
	uint8_t pic_mask[2];
	uint8_t pic_icw2[2];
	unsigned pic_writes;
	/* observations */
	unsigned gp_safe;		/* #GPs returned through _safe accessors */
	unsigned gp_unsafe;		/* #GPs a non-safe accessor would have taken */
	unsigned mmio_wrong_mode;	/* MMIO while not in xAPIC mode */
	unsigned mmio_outside;		/* MMIO outside the APIC page */
	unsigned base_writes;
	unsigned eois;
	unsigned icr_sends;
	bool pmi_latched;		/* a masked PMI waiting for the unmask */
	unsigned pmis_dropped, pmis_latched, pmis_delivered;
	bool in_nmi, nmi_latched;	/* NMI blocking (SDM Vol. 3A 6.7.1) and the one latched */
	unsigned platform_nmis;		/* platform NMIs raised by the knob */
	unsigned nmis_merged;		/* NMIs that met one already latched */
	bool fenced;			/* hw_wrmsr_fence ran since the last WRMSR */
	unsigned unfenced_wrmsr;	/* x2APIC ICR / TSC_DEADLINE WRMSRs without it */
	uint64_t last_icr;
	struct lm_access log[LM_LOG_MAX];
	unsigned nlog;
};

extern struct lapic_model lm;

/* A fresh APIC: `base` is IA32_APIC_BASE as firmware left it. */
void lm_reset(uint64_t base, bool cpuid_x2apic, uint32_t id);

/* The highest pending vector that may be delivered (IRR above the ISR class); moves it to
 * ISR and returns it; -1 when none can be delivered. */
int lm_deliver(void);
/* The PMU raises a PMI: if LVTPC is unmasked, sets its mask bit and (fixed delivery) the
 * IRR bit. Returns 1 for a fixed-vector PMI, 2 for NMI, 0 when masked (then latched or
 * dropped per pmi_latch_masked). */
int lm_pmi(void);
/* An NMI to this CPU: runs on_nmi now, or latches one while an NMI is being handled (then
 * on_nmi runs again when the handler returns). */
void lm_nmi(void);
/* Two or more CPUs: lm is the APIC of the CPU running now. lm_clone makes CPU cpu's APIC a
 * copy of this one with APIC id `id` (an AP after apic_ap_init); lm_select switches. */
#define LM_CPUS 4
void lm_clone(unsigned cpu, uint32_t id);
void lm_select(unsigned cpu);
/* lapic_model.c's hooks into lapic_model_nmi.c */
void lm_lvtpc_written(void);
void lm_banks_reset(void);
void lm_access_done(void);
bool lm_isr_set(uint8_t vector);
/* Index in the write log of the last write to `reg`, -1 if none. */
int lm_last_write(unsigned reg);

#endif
