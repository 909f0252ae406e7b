/*
 * xcore_cpus.c: the CPUs of the cross-core load kernels (loads/xcore.h). Which AP helps the
 * boot CPU: another core of its package first (a snoop or HITM answered inside the package,
 * SDM Vol. 3A 12.4 "Cache Control Protocol"), then another package, an SMT sibling of the
 * boot CPU last (it shares the L1D: no cross-core transfer, Vol. 3A 9.6 "Intel Hyper-
 * Threading Technology Architecture"). And which CPUs still run their side of an earlier run:
 * a call that did not finish within its bound (xcore_step_ms per line; smp/smp.h
 * smp_call_wait, SMP_CALL_TIMEOUT)
 * still reads the handshake and the lines, a late measurer still writes its run, so xcore.c
 * prepares nothing over them until their calls have ended.
 */
#include "loads/xcore.h"
#include "kernel/cpu.h"
#include "smp/smp.h"

uint64_t xcore_step_ms(void)
{
	return cpu_timing_unjudgeable(&cpu) ? XCORE_STEP_EMU_MS : XCORE_STEP_MS;
}

int xcore_pick_helper(void)
{
	const struct percpu *b = smp_cpu(0);
	int best = -1, rank = 99;

	for (unsigned i = 1; i < smp_cpu_count(); i++) {
		const struct percpu *p = smp_cpu(i);
		int r;

		if (p->state != CPU_ONLINE)
			continue;
		if (p->topo.package == b->topo.package)
			r = p->topo.core != b->topo.core ? 0 : 2;
		else
			r = 1;
		if (r < rank) {
			rank = r;
			best = (int)i;
		}
	}
	return best;
}

/* CPUs whose side of an earlier run did not finish within its bound: [0] a measurer, [1] a
 * helper; 0: none. */
static unsigned late[2];

void xcore_note_late(unsigned side, unsigned who, int rc)
{
	if (rc == SMP_CALL_TIMEOUT)
		late[side] = who;
}

unsigned xcore_still_late(void)
{
	for (unsigned k = 0; k < 2; k++)
		if (late[k] && smp_call_wait(late[k], 0) != SMP_CALL_TIMEOUT)
			late[k] = 0;
	return late[0] ? late[0] : late[1];
}
