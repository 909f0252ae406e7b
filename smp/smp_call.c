/*
 * smp_call.c: the caller's side of a cross-CPU call (smp/smp.h mailbox): post a function in
 * the target's struct percpu, wake it with a fixed IPI on SMP_VEC_WAKE (SDM Vol. 3A 11.6.1
 * "Interrupt Command Register"), and wait, bounded, for its done count to catch up. The
 * target's side (wake handler, the HLT loop that runs the function) is smp/smp_ap.c.
 */
#include "smp/smp.h"
#include "apic/apic.h"
#include "apic/apic_enc.h"
#include "apic/apic_ops.h"
#include "apic/apic_regs.h"
#include "kernel/hw.h"
#include "kernel/tsc.h"

static uint64_t ms_ticks(uint32_t ms)
{
	return tsc_hz ? tsc_hz / 1000 * ms : (uint64_t)ms * 1000000;
}

static bool wait_ticks(struct percpu *pc, uint64_t lim)
{
	uint64_t t0 = rdtsc();

	while (__atomic_load_n(&pc->done, __ATOMIC_ACQUIRE) != pc->posted) {
		if (rdtsc() - t0 > lim)
			return false;
		__builtin_ia32_pause();
	}
	return true;
}

static bool wait_done(struct percpu *pc, uint32_t ms)
{
	return wait_ticks(pc, ms_ticks(ms));
}

unsigned smp_calls_out(uint32_t ms, unsigned *first)
{
	uint64_t t0 = rdtsc(), lim = ms_ticks(ms);
	unsigned out = 0;

	for (unsigned i = 1; i < smp_cpu_count(); i++) {
		struct percpu *pc = smp_cpu(i);
		uint64_t el = rdtsc() - t0;

		if (pc->state != CPU_ONLINE || wait_ticks(pc, el >= lim ? 0 : lim - el))
			continue;
		if (!out++)
			*first = i;
	}
	return out;
}

bool smp_call_start(unsigned i, smp_fn fn, void *arg)
{
	struct percpu *pc = smp_cpu(i);

	if (!pc || i == 0 || pc->state != CPU_ONLINE || pc->done != pc->posted)
		return false;
	pc->fn = fn;
	pc->arg = arg;
	pc->fault_vector = -1;
	__atomic_store_n(&pc->posted, pc->posted + 1, __ATOMIC_RELEASE);
	apic_icr_write(apic_icr_encode(apic_mode(), SMP_VEC_WAKE, APIC_DM_FIXED,
				       APIC_DEST_NOSHORT, pc->apic_id));
	return true;
}

int smp_call_wait(unsigned i, uint32_t timeout_ms)
{
	struct percpu *pc = smp_cpu(i);

	if (!pc || i == 0 || pc->state != CPU_ONLINE)
		return SMP_CALL_NOT_ONLINE;
	if (!wait_done(pc, timeout_ms))
		return SMP_CALL_TIMEOUT;
	return pc->fault_vector >= 0 ? pc->fault_vector : SMP_CALL_DONE;
}

int smp_call(unsigned i, smp_fn fn, void *arg, uint32_t timeout_ms)
{
	if (!smp_call_start(i, fn, arg))
		return smp_cpu(i) && smp_cpu(i)->state == CPU_ONLINE ? SMP_CALL_TIMEOUT
								      : SMP_CALL_NOT_ONLINE;
	return smp_call_wait(i, timeout_ms);
}
