/*
 * kprefetch.c: the prefetcher state for one test on every CPU it uses (loads/kprefetch.h).
 * Each CPU writes its own MSR (MSR_MISC_FEATURE_CONTROL is per core, Intel's disclosure: "this
 * MSR is present in every core and changes made to the MSR of a core will impact the
 * prefetchers only in that core"), so the writes run on that CPU through smp_call. The
 * restore is registered with the runner before the first write (kernel/ktap_undo.h): a test
 * abandoned by the watchdog or an exception, or one that returns without kprefetch_end, still
 * gets every CPU's MSR put back, with one '#' line in its block saying so.
 */
#include "loads/kprefetch.h"
#include "kernel/cmdline.h"
#include "kernel/cpu.h"
#include "kernel/ktap_undo.h"
#include "kernel/mm.h"
#include "kernel/prefetch.h"
#include "smp/smp.h"

#define CALL_MS 1000u

static const struct prefetch_row *row;
static struct prefetch_cpu *st;		/* per CPU number; NULL: nothing to restore */
static bool *done;			/* prefetch_set succeeded there */
static bool want_off;
static struct ktest *owner;		/* the test that changed them, for the runner's undo */
static const char *owner_name;

static void on_cpu_set(void *arg)
{
	unsigned i = (unsigned)(uintptr_t)arg;

	done[i] = prefetch_set(row, want_off, &st[i]) == 0;
}

static void on_cpu_restore(void *arg)
{
	unsigned i = (unsigned)(uintptr_t)arg;

	done[i] = prefetch_restore(row, &st[i]) != 0;	/* now: true = restore failed */
}

/* fn on CPU i (the boot CPU directly); false when the call did not finish. */
static bool run_on(unsigned i, smp_fn fn)
{
	if (i == 0) {
		fn((void *)(uintptr_t)0);
		return true;
	}
	return smp_call(i, fn, (void *)(uintptr_t)i, CALL_MS) == SMP_CALL_DONE;
}

/* Every CPU whose MSR was changed, back to what it had; *owed: how many. Those not put back. */
static unsigned restore_all(unsigned *owed)
{
	unsigned n = smp_cpu_count(), bad = 0;

	*owed = 0;
	for (unsigned i = 0; i < n; i++) {
		if (!st[i].changed)
			continue;
		(*owed)++;
		if (!run_on(i, on_cpu_restore) || done[i])
			bad++;
	}
	return bad;
}

/* The runner's undo (kernel/ktap_undo.h): the test ended without kprefetch_end. */
static void undo_restore(void *arg)
{
	unsigned owed, bad;

	(void)arg;
	if (!st)
		return;
	bad = restore_all(&owed);
	kt_info(owner, "%s: prefetch restored by the runner (the test did not): %u of %u CPUs "
		"back to what they had", owner_name, owed - bad, owed);
	st = NULL;
}

void kprefetch_begin(struct ktest *t, const char *name, bool (*use)(unsigned cpu))
{
	enum prefetch_req q = prefetch_req_parse(cmdline_get(&kcmdline, "prefetch"));
	unsigned n = smp_cpu_count(), ok = 0, tried = 0, first_bad = 0;
	char why[112];

	st = NULL;
	if (q != PREFETCH_OFF && q != PREFETCH_ON)
		return;
	row = prefetch_lookup(&cpu, why, sizeof(why));
	if (!row) {
		kt_info(t, "%s: prefetch=%s not applied: %s", name, q == PREFETCH_OFF ? "off" : "on",
			why);
		return;
	}
	st = kalloc(sizeof(*st) * n, 64);
	done = kalloc(sizeof(*done) * n, 8);
	if (!st || !done) {
		st = NULL;
		kt_info(t, "%s: prefetch not applied: out of memory", name);
		return;
	}
	owner = t;
	owner_name = name;
	if (!kt_undo_push(undo_restore, NULL)) {	/* no restore on every exit: no change */
		st = NULL;
		kt_info(t, "%s: prefetch not applied: no undo slot left (KT_UNDO_MAX)", name);
		return;
	}
	want_off = q == PREFETCH_OFF;
	for (unsigned i = 0; i < n; i++) {
		st[i] = (struct prefetch_cpu){ 0 };
		done[i] = false;
		if (i && (smp_cpu(i)->state != CPU_ONLINE || !use(i)))
			continue;
		tried++;
		if (run_on(i, on_cpu_set) && done[i])
			ok++;
		else if (!first_bad)
			first_bad = i + 1;
	}
	kt_info(t, "%s: prefetch=%s: MSR %XH bits 0x%llx (%s: %s) on %u of %u CPUs%s%s", name,
		want_off ? "off" : "on", row->msr, (unsigned long long)row->bits, row->name,
		row->bit_names, ok, tried, first_bad ? "; " : "",
		first_bad ? (st[first_bad - 1].why[0] ? st[first_bad - 1].why : "call failed") : "");
}

void kprefetch_end(struct ktest *t, const char *name)
{
	unsigned owed, bad;

	if (!st)
		return;
	kt_undo_drop(undo_restore, NULL);
	bad = restore_all(&owed);
	if (!owed)
		kt_skip_sub(t, "prefetch_restored", "%s: no CPU's MSR was changed", name);
	else
		kt_check(t, bad == 0, "prefetch_restored # %s: %u of %u CPUs back to what they had",
			 name, owed - bad, owed);
	st = NULL;
}
