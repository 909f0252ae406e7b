/*
 * smp.c: test `smp`: every application processor the MADT lists as enabled came online (SDM
 * Vol. 3A 9.4 "MP Initialization"), reads the APIC ID the MADT gave it from its own local
 * APIC, runs code handed to it and returns the result, every CPU has its own place in the
 * topology (package, core, thread from CPUID 1FH/0BH, whose x2APIC ID is the APIC ID; SDM
 * Vol. 3A 9.9), and an unexpected exception on an AP is reported with its CPU number while the
 * AP and the run go on, and an AP's stack overflow stops at the guard page below its stack (a
 * #DF on its own IST stack, reported likewise) instead of writing over its IDT, and the
 * console lock keeps two CPUs apart. SKIPs with the reason
 * when the machine has one CPU (-smp 1) or no AP could be started.
 */
#include "ktests/tests.h"
#include "apic/apic.h"
#include "kernel/console.h"
#include "kernel/fmt.h"
#include "kernel/hw.h"
#include "kernel/ranges.h"
#include "kernel/traps.h"
#include "smp/smp.h"

#define WORDS 512
#define CALL_MS 1000

struct job {
	const uint32_t *in;
	uint64_t sum;		/* weighted sum of in[] */
	unsigned cpu;		/* smp_this_cpu() as the AP saw it */
	uint32_t apic;		/* apic_id() read on the AP */
	uint64_t tsc;
};

static uint32_t data[WORDS];

static uint64_t weigh(const uint32_t *in)
{
	uint64_t s = 0;

	for (unsigned i = 0; i < WORDS; i++)
		s = s * 31 + in[i];
	return s;
}

static void job_run(void *arg)
{
	struct job *j = arg;

	j->sum = weigh(j->in);
	j->cpu = smp_this_cpu();
	j->apic = apic_id();
	j->tsc = rdtsc();
}

static void job_fault(void *arg)
{
	(void)arg;
	__asm__ volatile("ud2");	/* an unexpected #UD on the AP, on purpose */
}

/* Recursion until the AP's 16 KiB stack runs into its guard page: the #PF cannot be pushed
 * there either, so the CPU raises #DF (SDM Vol. 3A 6.15 interrupt 8, Table 6-5), taken on the
 * #DF IST stack. The volatile depth bound (1 GiB of frames) is never reached. */
static unsigned overflow(volatile unsigned *depth)
{
	volatile char pad[256];

	pad[0] = (char)*depth;
	if (++*depth > (1u << 22))
		return 0;
	return overflow(depth) + (unsigned char)pad[0];
}

static void job_overflow(void *arg)
{
	*(volatile unsigned *)arg = overflow(arg);
}

static bool runs_code(unsigned i, uint64_t want, bool say, struct ktest *t)
{
	struct percpu *pc = smp_cpu(i);
	struct job j = { .in = data };
	int r = smp_call(i, job_run, &j, CALL_MS);
	bool ok = r == SMP_CALL_DONE && j.sum == want && j.cpu == i && j.apic == pc->apic_id &&
		  j.tsc;

	if (!ok && say)
		kt_info(t, "cpu%u: call result %d, sum %s, cpu %u, APIC id %u", i, r,
			j.sum == want ? "right" : "wrong", j.cpu, j.apic);
	return ok;
}

/* The APs not online: one line per reason, CPUs and APIC IDs as ranges. */
static void say_not_online(struct ktest *t)
{
	for (unsigned i = 1; i < smp_cpu_count(); i++) {
		const char *why = smp_cpu(i)->why;
		char cb[96], ib[96];
		struct ranges rc, ri;
		bool first = true;

		if (smp_cpu(i)->state == CPU_ONLINE)
			continue;
		for (unsigned j = 1; j < i && first; j++)
			first = smp_cpu(j)->state == CPU_ONLINE || smp_cpu(j)->why != why;
		if (!first)
			continue;
		ranges_init(&rc, cb, sizeof(cb));
		ranges_init(&ri, ib, sizeof(ib));
		for (unsigned j = i; j < smp_cpu_count(); j++)
			if (smp_cpu(j)->state != CPU_ONLINE && smp_cpu(j)->why == why) {
				ranges_add(&rc, j);
				ranges_add(&ri, smp_cpu(j)->apic_id);
			}
		ranges_end(&rc);
		ranges_end(&ri);
		kt_info(t, "cpu%s%s (APIC id%s %s): %s", rc.count > 1 ? "s " : "", cb,
			ri.count > 1 ? "s" : "", ib, why ? why : "?");
	}
}

/* Every AP: online, reads the APIC ID the MADT gave it, runs code handed to it and returns
 * the result. One subtest per check over all APs (the log stays compact at any count); the
 * CPUs that fail one are named as ranges. */
static void check_cpus(struct ktest *t, uint64_t want)
{
	struct ranges off, idbad, runbad;
	char b1[96], b2[96], b3[96];
	unsigned n = smp_cpu_count() - 1, on;

	ranges_init(&off, b1, sizeof(b1));
	ranges_init(&idbad, b2, sizeof(b2));
	ranges_init(&runbad, b3, sizeof(b3));
	for (unsigned i = 1; i <= n; i++) {
		const struct percpu *pc = smp_cpu(i);

		if (pc->state != CPU_ONLINE) {
			ranges_add(&off, i);
			continue;
		}
		if (pc->apic_id_seen != pc->apic_id) {
			if (!idbad.count)
				kt_info(t, "cpu%u: MADT APIC id %u, its local APIC says %u", i,
					pc->apic_id, pc->apic_id_seen);
			ranges_add(&idbad, i);
		}
		if (!runs_code(i, want, !runbad.count, t))
			ranges_add(&runbad, i);
	}
	say_not_online(t);
	on = n - off.count;
	kt_check(t, !off.count, "aps_online # %u of %u%s%s", on, n, off.count ? "; not: cpus " : "",
		 off.count ? ranges_end(&off) : "");
	if (!on) {
		kt_skip_sub(t, "aps_apic_id_matches_madt", "no AP online");
		kt_skip_sub(t, "aps_run_code", "no AP online");
		return;
	}
	kt_check(t, !idbad.count, "aps_apic_id_matches_madt # %u of %u%s%s", on - idbad.count,
		 on, idbad.count ? "; not: cpus " : "", idbad.count ? ranges_end(&idbad) : "");
	kt_check(t, !runbad.count, "aps_run_code # %u of %u%s%s", on - runbad.count, on,
		 runbad.count ? "; not: cpus " : "", runbad.count ? ranges_end(&runbad) : "");
}

/* Distinct (package, core, thread) per online CPU; the leaf's x2APIC ID is the APIC ID. */
static void check_topology(struct ktest *t)
{
	unsigned clash = 0, idbad = 0;

	for (unsigned i = 0; i < smp_cpu_count(); i++) {
		const struct percpu *a = smp_cpu(i);

		if (a->state != CPU_ONLINE)
			continue;
		if (a->topo.leaf >= 0xb && a->topo.x2apic_id != a->apic_id_seen) {
			if (idbad < 3)	/* the first few: the count says the rest */
				kt_info(t, "cpu%u: CPUID %02XH x2APIC ID %u, local APIC ID %u",
					i, a->topo.leaf, a->topo.x2apic_id, a->apic_id_seen);
			idbad++;
		}
		for (unsigned j = 0; j < i; j++) {
			const struct percpu *b = smp_cpu(j);

			if (b->state == CPU_ONLINE && a->topo.package == b->topo.package &&
			    a->topo.core == b->topo.core && a->topo.thread == b->topo.thread) {
				if (clash < 3)
					kt_info(t, "cpu%u and cpu%u: both package %u core %u "
						"thread %u", j, i, a->topo.package, a->topo.core,
						a->topo.thread);
				clash++;
			}
		}
	}
	kt_check(t, clash == 0 && idbad == 0, "topology_distinct # CPUID leaf %02XH; %u clashes, "
		 "%u ID mismatches", smp_cpu(0)->topo.leaf, clash, idbad);
}

/* The console lock (kernel/console.c) excludes: the boot CPU and an AP each add 1 to a shared
 * word LOCK_ROUNDS times with a read, a pause and a write inside console_lock; an update lost
 * to the other CPU's overlapping write shows as a total below 2 x LOCK_ROUNDS. */
#define LOCK_ROUNDS 2000
static volatile unsigned lock_shared;

static void lock_rounds(void)
{
	for (unsigned i = 0; i < LOCK_ROUNDS; i++) {
		unsigned v;

		console_lock();
		v = lock_shared;
		for (unsigned k = 0; k < 16; k++)
			__builtin_ia32_pause();
		lock_shared = v + 1;
		console_unlock();
	}
}

static void job_lock(void *arg)
{
	(void)arg;
	lock_rounds();
}

static void check_console_lock(struct ktest *t, unsigned ap)
{
	unsigned f0 = console_forced();
	int r = SMP_CALL_NOT_ONLINE;

	lock_shared = 0;
	if (smp_call_start(ap, job_lock, NULL)) {
		lock_rounds();
		r = smp_call_wait(ap, 10 * CALL_MS);
	}
	kt_check(t, r == SMP_CALL_DONE && lock_shared == 2 * LOCK_ROUNDS &&
		 console_forced() == f0, "console_lock_exclusive # cpu0 and cpu%u: %u of %u "
		 "updates kept, %u taken over (call %d)", ap, lock_shared, 2 * LOCK_ROUNDS,
		 console_forced() - f0, r);
}

enum kt_result test_smp(struct ktest *t)
{
	unsigned last = 0;
	uint64_t want;
	int r;

	if (smp_why_none())
		return kt_skip(t, "no AP started: %s", smp_why_none());
	if (smp_cpu_count() == 1)
		return kt_skip(t, "one CPU: the MADT lists no other enabled processor");
	for (unsigned i = 0; i < WORDS; i++)
		data[i] = i * 2654435761u;
	want = weigh(data);
	kt_check(t, smp_cpu_count() + smp_left_out() == smp_madt_count(),
		 "every_enabled_madt_cpu_accounted_for # %u started, %u left out of %u",
		 smp_cpu_count(), smp_left_out(), smp_madt_count());
	check_cpus(t, want);
	for (unsigned i = 1; i < smp_cpu_count(); i++)
		if (smp_cpu(i)->state == CPU_ONLINE)
			last = i;
	check_topology(t);
	if (!last) {
		kt_skip_sub(t, "ap_fault_reported", "no AP online");
		kt_skip_sub(t, "ap_stack_overflow_caught", "no AP online");
		kt_skip_sub(t, "console_lock_exclusive", "no AP online");
		return kt_verdict(t);
	}
	check_console_lock(t, last);
	smp_cpu(last)->fault_expected = true;	/* one line each, no register dump */
	r = smp_call(last, job_fault, NULL, CALL_MS);
	kt_check(t, r == VEC_UD, "ap_fault_reported # cpu%u: a deliberate #UD", last);
	{
		struct job j = { .in = data };

		r = smp_call(last, job_run, &j, CALL_MS);
		kt_check(t, r == SMP_CALL_DONE && j.sum == want, "ap_runs_after_fault");
	}
	{
		volatile unsigned depth = 0;
		struct job j = { .in = data };

		/* the guard page below the stack turns it into a #DF, reported like the #UD */
		r = smp_call(last, job_overflow, (void *)&depth, CALL_MS);
		smp_cpu(last)->fault_expected = false;
		kt_check(t, r == VEC_DF && depth > 0 && depth < (1u << 22),
			 "ap_stack_overflow_caught # vector %d after %u frames", r, depth);
		r = smp_call(last, job_run, &j, CALL_MS);
		kt_check(t, r == SMP_CALL_DONE && j.sum == want, "ap_runs_after_overflow");
	}
	return kt_verdict(t);
}
