/*
 * safe_model.c: see safe_model.h. The accessor's steps follow kernel/hw.c rdmsr_safe: RBX
 * <- 0, RDMSR (an entry of the fixup table the model hands to extable_fixup_frame), RBX
 * read at the continuation. A faulting RDMSR delivers #GP (SDM Vol. 3A 6.15 interrupt 13,
 * RDMSR of an unimplemented MSR) through trap_dispatch on a copy of the register file, which
 * the IRET then loads back, as the hardware does.
 */
#include "model/safe_model.h"
#include "kernel/extable.h"
#include "kernel/traps.h"

#include <string.h>

#define RIP_RDMSR 0x100000u	/* the model's RDMSR and its continuation */
#define RIP_AFTER 0x100002u

static const struct extable_entry table[] = {
	{ .insn = RIP_RDMSR, .fixup = RIP_AFTER, .kind = EXTABLE_KIND_ACCESS },
};

struct sm_cpu sm_cpus[SM_CPUS];
void (*sm_hook)(struct sm_cpu *c, enum sm_point p);

bool extable_fixup(struct trap_frame *f, uint64_t cr2)
{
	return extable_fixup_frame(table, table + 1, f, cr2);
}

void sm_reset(void)
{
	memset(sm_cpus, 0, sizeof(sm_cpus));
	for (unsigned i = 0; i < SM_CPUS; i++)
		sm_cpus[i].id = i;
	sm_hook = NULL;
}

static void at(struct sm_cpu *c, enum sm_point p)
{
	if (sm_hook)
		sm_hook(c, p);
}

int sm_rdmsr_safe(struct sm_cpu *c, uint32_t msr, uint64_t *val)
{
	c->accesses++;
	c->busy = true;
	c->regs.rbx = 0;
	c->regs.rip = RIP_RDMSR;
	at(c, SM_BEFORE_INSN);
	if (msr & SM_MSR_GP) {
		struct trap_frame f = c->regs;	/* exception delivery pushes the context */

		c->faults++;
		f.vector = VEC_GP;
		f.error_code = 0;
		trap_dispatch(&f);
		c->regs = f;			/* IRET */
		c->regs.rax = c->regs.rdx = 0;
	} else {
		c->regs.rax = msr;
		c->regs.rdx = 0;
		c->regs.rip = RIP_AFTER;
	}
	at(c, SM_BEFORE_READ);
	*val = ((uint64_t)(uint32_t)c->regs.rdx << 32) | (uint32_t)c->regs.rax;
	c->busy = false;
	return (int)(uint32_t)c->regs.rbx;
}

void sm_interrupt(struct sm_cpu *c, void (*handler)(struct sm_cpu *c, void *ctx), void *ctx)
{
	struct trap_frame saved = c->regs;
	bool busy = c->busy;

	c->depth++;
	c->busy = false;	/* the handler is a new context */
	handler(c, ctx);
	c->busy = busy;
	c->depth--;
	c->regs = saved;
}
