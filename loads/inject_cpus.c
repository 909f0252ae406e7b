/*
 * inject_cpus.c: the injector CPUs' start and stop (loads/inject_cpus.h). The TSC bounds
 * every wait (SDM Vol. 3B 18.17); a deadline is taken once per start or stop and each CPU
 * gets what is left of it, so k silent CPUs cost one bound, not k.
 */
#include "loads/inject_cpus.h"
#include "kernel/extable.h"
#include "kernel/hw.h"
#include "kernel/ktap_undo.h"
#include "kernel/tsc.h"
#include "smp/smp.h"

static uint64_t ms_ticks(uint32_t ms)
{
	return (tsc_hz ? tsc_hz : 1000000000ull) / 1000 * ms;
}

/* Milliseconds left until t0 + lim (0 once past: one look, no wait). */
static uint32_t left_ms(uint64_t t0, uint64_t lim)
{
	uint64_t el = rdtsc() - t0, per = ms_ticks(1);

	return el >= lim ? 0 : (uint32_t)((lim - el + per - 1) / per);
}

/* On the injector's CPU. */
static void on_cpu(void *arg)
{
	write_cr3(read_cr3());	/* TLB entries of buffers the boot CPU mapped since */
	inject_run(arg);
}

static void undo_stop(void *arg)
{
	inject_cpus_stop(arg);
}

bool inject_cpus_start(struct inject_group *g, uint64_t delay)
{
	uint64_t lim = ms_ticks(g->start_ms), t0;
	bool ok = true;

	kt_undo_drop(undo_stop, g);
	kt_undo_push(undo_stop, g);	/* full table: the test still stops them itself */
	for (unsigned k = 0; k < g->n; k++) {
		struct inject_cpu *c = &g->inj[k];

		inject_job_arm(&c->job, delay, ms_ticks(g->step_ms));
		c->call = smp_call_start(c->cpu, on_cpu, &c->job) ? 0 : SMP_CALL_NOT_ONLINE;
	}
	t0 = rdtsc();
	for (unsigned k = 0; k < g->n; k++) {
		struct inject_cpu *c = &g->inj[k];

		while (!c->call && !__atomic_load_n(&c->job.running, __ATOMIC_ACQUIRE) &&
		       rdtsc() - t0 < lim)
			__builtin_ia32_pause();
		ok &= c->job.running != 0;
	}
	return ok;
}

bool inject_cpus_stop(struct inject_group *g)
{
	uint64_t lim = ms_ticks(g->start_ms) + ms_ticks(g->step_ms), t0;
	bool ok = true;

	for (unsigned k = 0; k < g->n; k++)
		__atomic_store_n(&g->inj[k].job.stop, 1, __ATOMIC_RELEASE);
	t0 = rdtsc();
	for (unsigned k = 0; k < g->n; k++) {
		struct inject_cpu *c = &g->inj[k];

		if (!c->call)
			c->call = smp_call_wait(c->cpu, left_ms(t0, lim));
		ok &= c->call == SMP_CALL_DONE && c->job.res.stopped;
	}
	return ok;
}

void inject_cpus_done(struct inject_group *g)
{
	kt_undo_drop(undo_stop, g);
}
