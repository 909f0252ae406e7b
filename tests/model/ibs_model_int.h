/*
 * ibs_model_int.h: state shared by the IBS model's files (tests/model/ibs_model*.c).
 */
#ifndef TESTS_MODEL_IBS_MODEL_INT_H
#define TESTS_MODEL_IBS_MODEL_INT_H

#include "model/ibs_model.h"
#include "kernel/idt.h"

#define IM_MAX_VIOL 32
#define IM_XAPIC_BASE 0xfee00000ull

struct ibs_model_state {
	const struct ibs_model_cpu *cpu;
	enum apic_mode mode;
	enum pmi_delivery pmi;
	uint64_t op_ctl, op_ctl_init;
	uint64_t op_ctl2;		/* IBS_OP_CTL2 (IBS_CAPS_CTL2 rows) */
	uint64_t rip, data, data2, data3, linaddr, physaddr;
	uint64_t cur;			/* ops counted towards the max count */
	uint64_t rng;			/* the hardware's random low count bits (xorshift) */
	uint32_t eilvt[4], eilvt_init[4];
	irq_handler_fn handler;
	bool in_irq, pending, delivery;
	uint64_t op_ticks, irq_ticks;
	uint64_t handler_ops, tail_ops;	/* knobs: the handler's own ops (ibs_model_hostile) */
	unsigned irq_at;		/* knob: deliver after this many more accesses */
	uint64_t no_progress;		/* deliveries since the workload's last op */
	bool (*pending_fn)(void);	/* the driver's apic_set_pmi_pending test */
	uint64_t pmc_sel[4], pmc_base[4], pmc_t0[4];	/* ibs_model_pmc.c */
	unsigned core_x100;		/* core clocks per TSC tick, x100 */
	struct ibs_model_stats st;
	char viol[IM_MAX_VIOL][128];
	unsigned nviol;
};

extern struct ibs_model_state IM;

void im_violate(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A write to IBS_OP_CTL after the reserved-bit check: the rules, then the new value. */
void im_op_ctl_write(uint64_t v);
/* Period (ops) the current IBS_OP_CTL holds. */
uint64_t im_period(void);
/* The core counters and APERF (ibs_model_pmc.c): -1 when msr is none of theirs, else 0 or
 * the #GP vector. */
int im_pmc_read(uint32_t msr, uint64_t *v);
int im_pmc_write(uint32_t msr, uint64_t v);
void im_pmc_reset(void);
/* After every register access (ibs_model.c): the handler's ops, a placed interrupt. */
void im_access(void);

#define IM_HANDLER_ADDR 0xffff800000ff0f00ull	/* the handler's loads (its stack) */
#define IM_HANDLER_RIP  0xffffffff80200000ull
#define IM_LIVELOCK     1000u	/* deliveries with no workload op: an interrupt livelock */

#endif
