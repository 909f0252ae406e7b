/*
 * ktap.c: the KTAP version 1 reporter (Linux Documentation/dev-tools/ktap.rst; shapes in
 * docs/output.md). While a test runs, every console line (its subtests and diagnostics, and
 * whatever else prints meanwhile: exception dumps, warnings) is held in a bounded buffer;
 * when the test ends its block is printed in KTAP order: version line, `# Subtest:`, plan,
 * the held lines, then the result line. Counts are kept twice: top-level tests (the run's
 * verdict) and test cases (leaves, as KUnit's `# Totals:` counts them).
 */
#include "kernel/ktap.h"
#include "kernel/console.h"
#include "kernel/ktap_detail.h"
#include "kernel/fmt.h"

#include <string.h>

static struct ktap_totals totals, cases;
static char skip_reason[160];
static ktap_observer_fn observer;

/* the running test and what it printed so far */
static struct ktest *cur;
static unsigned cur_number;
static char held_text[KTAP_HOLD_BYTES];
static size_t held;
static bool streaming;	/* outgrew the buffer: header out without a plan, output goes straight on */

static void hold_write(const char *s, size_t n)
{
	if (held + n <= sizeof(held_text)) {
		size_t at = held;

		held += n;	/* claimed first: an interrupt handler that prints appends after it */
		memcpy(held_text + at, s, n);
		return;
	}
	console_set_hold(NULL);
	streaming = true;
	kprintf("  KTAP version 1\n  # Subtest: %s\n", cur->desc->name);
	console_emit(held_text, held);
	held = 0;
	console_emit(s, n);
}

void ktap_set_observer(ktap_observer_fn fn)
{
	observer = fn;
}

/* The observer sees "NAME # SKIP REASON" as the line shows it (a subtest or a test). */
static void observe_skip(const struct ktest *t, bool top, const char *name, const char *why)
{
	char text[240];

	if (!observer)
		return;
	fmt_snprintf(text, sizeof(text), "%s # SKIP %s", name, why);
	observer(t, top, KT_SKIP, text);
}

void ktap_begin(void)
{
	kprintf("KTAP version 1\n");
}

void ktap_diag(const char *fmt, ...)
{
	char line[256];
	va_list ap;

	va_start(ap, fmt);
	fmt_vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	kprintf("# %s\n", line);
}

bool kt_check(struct ktest *t, bool cond, const char *fmt, ...)
{
	char name[160];
	va_list ap;

	va_start(ap, fmt);
	fmt_vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	t->nsub++;
	if (!cond) {
		t->sub_fail++;
		t->failed = true;
	}
	ktap_detail_settle(!cond);
	kprintf("  %s %u %s\n", cond ? "ok" : "not ok", t->nsub, name);
	if (observer)
		observer(t, false, cond ? KT_PASS : KT_FAIL, name);
	return cond;
}

void kt_skip_sub(struct ktest *t, const char *name, const char *reason_fmt, ...)
{
	char reason[160], where[64], ref[80];
	va_list ap;

	va_start(ap, reason_fmt);
	fmt_vsnprintf(reason, sizeof(reason), reason_fmt, ap);
	va_end(ap);
	t->nsub++;
	t->sub_skip++;
	ktap_detail_settle(false);	/* a SKIP states its reason on its own line */
	fmt_snprintf(where, sizeof(where), "%s.%s", t->desc->name, name);
	kprintf("  ok %u %s # SKIP %s\n", t->nsub, name,
		ktap_skip_text(where, reason, ref, sizeof(ref)));
	observe_skip(t, false, name, reason);
}

void kt_info(struct ktest *t, const char *fmt, ...)
{
	char line[256];
	va_list ap;

	va_start(ap, fmt);
	fmt_vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	kprintf(t ? "  # %s\n" : "# %s\n", line);
}

enum kt_result kt_skip(struct ktest *t, const char *reason_fmt, ...)
{
	va_list ap;

	(void)t;
	va_start(ap, reason_fmt);
	fmt_vsnprintf(skip_reason, sizeof(skip_reason), reason_fmt, ap);
	va_end(ap);
	return KT_SKIP;
}

enum kt_result kt_verdict(struct ktest *t)
{
	if (t->failed)
		return KT_FAIL;
	if (t->nsub && t->sub_skip == t->nsub) {
		fmt_snprintf(skip_reason, sizeof(skip_reason), "every subtest skipped");
		return KT_SKIP;
	}
	return KT_PASS;
}

void ktap_plan(unsigned n)
{
	kprintf("1..%u\n", n);
}

void ktap_test_start(struct ktest *t, unsigned number)
{
	cur = t;
	cur_number = number;
	held = 0;
	streaming = false;
	console_set_hold(hold_write);
}

static void count(struct ktap_totals *c, enum kt_result r, unsigned n)
{
	if (r == KT_PASS)
		c->pass += n;
	else if (r == KT_SKIP)
		c->skip += n;
	else
		c->fail += n;
}

void ktap_result(struct ktest *t, unsigned number, enum kt_result r, const char *why)
{
	bool mine = t == cur, synth = r == KT_FAIL && t->nsub && !t->sub_fail;
	bool block = t->nsub || (mine && streaming);

	ktap_detail_settle(r == KT_FAIL);	/* details no result line took */
	console_set_hold(NULL);
	cur = NULL;
	if (synth) {	/* the failure has no subtest of its own: give it one */
		t->nsub++;
		t->sub_fail++;
	}
	if (block && !(mine && streaming))
		kprintf("  KTAP version 1\n  # Subtest: %s\n  1..%u\n", t->desc->name, t->nsub);
	if (mine)
		console_emit(held_text, held);
	held = 0;
	if (synth) {
		char text[200];

		fmt_snprintf(text, sizeof(text), "ran_to_completion # %s", why ? why : "test failed");
		kprintf("  not ok %u %s\n", t->nsub, text);
		if (observer)
			observer(t, false, KT_FAIL, text);
	}
	if (block) {
		unsigned pass = t->nsub - t->sub_fail - t->sub_skip;

		/* the counts restate the results above: log=brief prints them for a failure */
		if (r == KT_FAIL || log_full())
			kprintf("# %s: pass:%u fail:%u skip:%u total:%u\n", t->desc->name, pass,
				t->sub_fail, t->sub_skip, t->nsub);
		cases.pass += pass;
		cases.fail += t->sub_fail;
		cases.skip += t->sub_skip;
	} else {
		count(&cases, r, 1);
	}
	count(&totals, r, 1);
	switch (r) {
	case KT_PASS:
		kprintf("ok %u %s\n", number, t->desc->name);
		if (observer)
			observer(t, true, r, t->desc->name);
		break;
	case KT_SKIP: {
		char ref[80];

		why = why ? why : skip_reason[0] ? skip_reason : "no reason given";
		kprintf("ok %u %s # SKIP %s\n", number, t->desc->name,
			ktap_skip_text(t->desc->name, why, ref, sizeof(ref)));
		observe_skip(t, true, t->desc->name, why);
		break;
	}
	default: {
		char text[480];	/* why: at most a few hundred bytes (ktests/run.c) */

		fmt_snprintf(text, sizeof(text), why ? "%s # %s" : "%s", t->desc->name, why);
		kprintf("not ok %u %s\n", number, text);
		if (observer)
			observer(t, true, r, text);
		break;
	}
	}
	skip_reason[0] = '\0';
}

void ktap_abort(const char *why)
{
	if (cur)
		ktap_result(cur, cur_number, KT_FAIL, why);
}

void ktap_totals(void)
{
	kprintf("# Totals: pass:%u fail:%u skip:%u total:%u\n", cases.pass, cases.fail,
		cases.skip, cases.pass + cases.fail + cases.skip);
	kprintf("# Top-level tests: pass:%u fail:%u skip:%u total:%u\n", totals.pass, totals.fail,
		totals.skip, totals.pass + totals.fail + totals.skip);
}

const struct ktap_totals *ktap_get_totals(void)
{
	return &totals;
}

const struct ktap_totals *ktap_get_cases(void)
{
	return &cases;
}
