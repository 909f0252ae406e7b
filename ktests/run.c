/*
 * run.c: the test runner (see run.h). A test that takes an unexpected exception is abandoned
 * through the recovery jump (kernel/traps.h) and reported `not ok ... # exception`; memory
 * it allocated is released before the next test starts. The console output of a running test
 * is held by kernel/ktap.c (started here, printed by ktap_result), so what it printed before
 * a fault or a watchdog expiry comes out with its block, in order. What the test still owes
 * the machine when it ends, by any path (its registered undos, kernel/ktap_undo.h: the
 * prefetchers of every CPU, injectors still running), is undone here before its memory is
 * released; memory an application processor may still be using (a call of the test that has
 * not finished, smp/smp.h smp_calls_out) is kept, not released, with one line saying so.
 * An unknown NMI
 * (kernel/nmi.h) does not end a test: the test judges its own results, and its block says
 * how many NMIs landed in it and where (`# nmi:`, docs/output.md). Each test is bracketed by
 * the trust signals (kernel/trust.h): one `# trust:` line in its block when an SMI,
 * throttling or a clock change happened during it, nothing when clean. The screen shows the
 * test running and, at the end, the result page (ktests/screen.h; never the serial log).
 */
#include "ktests/run.h"
#include "ktests/screen.h"
#include "apic/apic.h"
#include "kernel/cmdline.h"
#include "kernel/console.h"
#include "kernel/exit.h"
#include "kernel/fmt.h"
#include "kernel/jump.h"
#include "kernel/ktap_undo.h"
#include "kernel/mm_internal.h"
#include "kernel/nmi.h"
#include "kernel/traps.h"
#include "kernel/trust.h"
#include "kernel/tsc.h"
#include "smp/smp.h"

#include <string.h>

/* The first pattern of tests= that names no test at all (a typo), into b; false when every
 * pattern names one. */
static bool tests_typo(char *b, unsigned n)
{
	const char *sel = cmdline_get(&kcmdline, "tests"), *p = sel;

	while (p && *p) {
		const char *comma = strchr(p, ',');
		unsigned len = comma ? (unsigned)(comma - p) : (unsigned)strlen(p);
		bool found = false;

		if (len && len < n) {
			memcpy(b, p, len);
			b[len] = '\0';
			for (unsigned i = 0; i < ktest_count && !found; i++)
				found = glob_match(b, ktest_table[i].name);
			if (!found)
				return true;
		}
		p = comma ? comma + 1 : NULL;
	}
	return false;
}

bool ktest_selected(const struct ktest_desc *d)
{
	const char *sel = cmdline_get(&kcmdline, "tests");

	if (sel && *sel)
		return glob_list_match(sel, d->name);
	return !d->on_request;
}

#define DEFAULT_TIMEOUT_MS	10000u
#define CALLS_OUT_MS		1000u	/* for an AP's late call to finish before the release */
#define WATCHDOG_JUMP		0x100	/* kjmp value of a watchdog expiry (exceptions: vec+1) */

static struct kjmp jmp;	/* static: survives the jump back */

/* The APIC-timer watchdog expired in the running test (timer interrupt, IF=0, EOI done). */
static void watchdog_expired(void)
{
	trap_set_recovery(NULL);
	kjmp_long(&jmp, WATCHDOG_JUMP);
}

static enum kt_result run_one(struct ktest *t, unsigned number, char *why, unsigned whylen)
{
	static struct mm_mark mark;
	static enum kt_result r;
	static uint64_t nmis;
	const char *unmet = ktest_need_reason(t->desc->needs);
	int vec1;

	if (unmet) {
		fmt_snprintf(why, whylen, "%s", unmet);
		return KT_SKIP;
	}
	ktap_test_start(t, number);
	nmis = nmi_count();
	nmi_set_context(t->desc->name);
	trust_begin();
	mm_mark(&mark);
	vec1 = kjmp_set(&jmp);
	if (vec1 == 0) {
		trap_set_recovery(&jmp);
		apic_watchdog_set_recovery(watchdog_expired);
		apic_watchdog_arm(t->desc->timeout_ms ? t->desc->timeout_ms : DEFAULT_TIMEOUT_MS);
		irq_enable();	/* the watchdog is a maskable interrupt: tests run with IF=1 */
		r = t->desc->fn(t);
		irq_disable();
	} else if (vec1 == WATCHDOG_JUMP) {
		fmt_snprintf(why, whylen, "TIMEOUT");
		r = KT_FAIL;
	} else {
		fmt_snprintf(why, whylen, "exception: %s", trap_name((unsigned)vec1 - 1));
		r = KT_FAIL;
	}
	irq_disable();	/* also after a jump back from an exception or the watchdog */
	apic_watchdog_disarm();
	apic_watchdog_set_recovery(NULL);
	trap_set_recovery(NULL);
	kt_undo_run();	/* what the test did not undo itself (abandoned, or an early return) */
	nmi_set_context(NULL);
	if (nmi_count() != nmis) {
		char d[240];

		nmi_describe(nmis, 3, d, sizeof(d));
		kt_info(t, "nmi: %s; the test judged its results as measured", d);
	}
	{
		char line[200];

		if (trust_end(line, sizeof(line)))
			kt_info(t, "%s", line);
	}
	{
		unsigned first = 0, out = smp_calls_out(CALLS_OUT_MS, &first);

		if (out)	/* its stores would land in the next test's memory */
			kt_info(t, "smp: %u CPU%s (cpu%u first) still run%s a call of this test "
				"%u ms after it ended: its memory is kept, not released", out,
				out == 1 ? "" : "s", first, out == 1 ? "s" : "", CALLS_OUT_MS);
		else
			mm_release(&mark);
	}
	return r;
}

unsigned ktests_planned(void)
{
	char typo[64];
	unsigned n = tests_typo(typo, sizeof(typo));	/* one failed `tests` result first */

	for (unsigned i = 0; i < ktest_count; i++)
		n += ktest_selected(&ktest_table[i]);
	return n;
}

/* Append "NAME MS" to the one-line per-test time summary (docs/output.md `# test times`). */
static void note_time(char *line, unsigned len, const char *name, uint64_t tsc)
{
	unsigned at = (unsigned)strlen(line);

	if (at < len)
		fmt_snprintf(line + at, len - at, "%s%s %llu", at ? ", " : "", name,
			     (unsigned long long)(tsc_to_ns(tsc) / 1000000));
}

/* tests= names a test that does not exist: a failed result of its own (a typo must not pass
 * as "nothing to run"), with every test name for the next try. */
static void report_typo(unsigned number)
{
	static const struct ktest_desc desc = { .name = "tests" };
	struct ktest t = { .desc = &desc };
	char typo[64], why[96], names[512];
	unsigned at = 0;

	for (unsigned i = 0; i < ktest_count && at < sizeof(names); i++)
		at += (unsigned)fmt_snprintf(names + at, sizeof(names) - at, "%s%s%s", i ? " " : "",
					     ktest_table[i].name, ktest_table[i].on_request ? "*" : "");
	ktap_test_start(&t, number);
	kt_info(&t, "tests: %s (* on request)", names);
	tests_typo(typo, sizeof(typo));
	fmt_snprintf(why, sizeof(why), "no test is named '%s'", typo);
	ktap_result(&t, number, KT_FAIL, why);
}

void ktests_run(void)
{
	static char times[640];
	unsigned number = 0, planned = ktests_planned();
	char typo[64];
	uint64_t all = 0, longest = 0;
	const char *slowest = NULL;

	kscreen_init();	/* the status line and the result page (ktests/screen.h) */
	if (tests_typo(typo, sizeof(typo)))
		report_typo(++number);

	for (unsigned i = 0; i < ktest_count; i++) {
		struct ktest t = { .desc = &ktest_table[i] };
		char why[160] = "";
		enum kt_result r;

		if (!ktest_selected(t.desc))
			continue;
		uint64_t t0 = rdtsc();

		kscreen_status(number + 1, planned, t.desc->name);
		r = run_one(&t, ++number, why, sizeof(why));
		ktap_result(&t, number, r, why[0] ? why : NULL);
		t0 = rdtsc() - t0;
		note_time(times, sizeof(times), t.desc->name, t0);
		all += t0;
		if (t0 >= longest) {
			longest = t0;
			slowest = t.desc->name;
		}
	}
	if (times[0] && log_full())
		kprintf("# test times (ms): %s\n", times);
	else if (slowest)	/* log=brief: the sum and the longest; log=full: every test */
		kprintf("# test times (ms): %llu in all, longest %s %llu\n",
			(unsigned long long)(tsc_to_ns(all) / 1000000), slowest,
			(unsigned long long)(tsc_to_ns(longest) / 1000000));
	if (nmi_count()) {
		char c[160];

		nmi_describe_cpus(c, sizeof(c));
		kprintf("# nmi: %llu unknown NMI%s in this run (%s), reported and gone on from\n",
			(unsigned long long)nmi_count(), nmi_count() == 1 ? "" : "s", c);
	}
	if (trust_mce_final(times, sizeof(times)))
		kprintf("# %s\n", times);
	ktap_totals();
	kscreen_page(ktap_get_totals()->fail != 0);
	run_exit(ktap_get_totals()->fail != 0);
}
