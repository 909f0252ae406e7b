/*
 * extable.c: the exception-fixup table (kernel/extable.h): entries the _safe helpers of
 * kernel/hw.c put in section .extable, bounded by __extable_start/__extable_end in
 * linker.ld. A few dozen entries: linear scan. The fixup writes the vector into the frame of
 * the context that faulted (its RBX, the helpers' result register) and moves its RIP to the
 * continuation: the IRET of the trap handler restores both (SDM Vol. 3A 6.12.1, 6.14.2).
 * A fetch fault on call_safe's target (#PF with CR2 = RIP, SDM 6.15 interrupt 14) happens
 * after the CALL pushed its return address: the fixup pops it and resumes there.
 */
#include "kernel/extable.h"

static int result_of(uint64_t vector)
{
	return vector == VEC_DE ? EXTABLE_DE : (int)vector;
}

bool extable_fixup_frame(const struct extable_entry *b, const struct extable_entry *e,
			 struct trap_frame *f, uint64_t cr2)
{
	if (f->vector == VEC_DF || f->vector == VEC_MC)
		return false;
	for (const struct extable_entry *x = b; x < e; x++) {
		if (x->insn == f->rip) {
			f->rbx = (uint64_t)result_of(f->vector);
			f->rip = x->fixup;
			return true;
		}
	}
	if (f->vector != VEC_PF || f->rip != cr2)
		return false;
	uint64_t ret = *(const uint64_t *)(uintptr_t)f->rsp;

	for (const struct extable_entry *x = b; x < e; x++) {
		if (x->kind == EXTABLE_KIND_CALL && x->fixup == ret) {
			f->rbx = (uint64_t)result_of(f->vector);
			f->rip = ret;
			f->rsp += 8;
			return true;
		}
	}
	return false;
}
