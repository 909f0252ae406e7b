/*
 * ktap.c: the KTAP version 1 reporter (https://docs.kernel.org/dev-tools/ktap.html).
 * Top-level results are counted for the totals line; subtests are indented two spaces and
 * closed with their plan ("  1..n") when the test ends.
 */
#include "kernel/ktap.h"
#include "kernel/console.h"
#include "kernel/fmt.h"

static struct ktap_totals totals;
static char skip_reason[160];

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

static void sub_header(struct ktest *t)
{
	if (!t->opened) {
		t->opened = true;
		kprintf("  KTAP version 1\n  # Subtest: %s\n", t->desc->name);
	}
}

bool kt_check(struct ktest *t, bool cond, const char *fmt, ...)
{
	char name[160];
	va_list ap;

	va_start(ap, fmt);
	fmt_vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	sub_header(t);
	t->nsub++;
	if (!cond) {
		t->sub_fail++;
		t->failed = true;
	}
	kprintf("  %s %u %s\n", cond ? "ok" : "not ok", t->nsub, name);
	return cond;
}

void kt_skip_sub(struct ktest *t, const char *name, const char *reason_fmt, ...)
{
	char reason[160];
	va_list ap;

	va_start(ap, reason_fmt);
	fmt_vsnprintf(reason, sizeof(reason), reason_fmt, ap);
	va_end(ap);
	sub_header(t);
	t->nsub++;
	t->sub_skip++;
	kprintf("  ok %u %s # SKIP %s\n", t->nsub, name, reason);
}

void kt_info(struct ktest *t, const char *fmt, ...)
{
	char line[256];
	va_list ap;

	va_start(ap, fmt);
	fmt_vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (!t) {
		kprintf("# %s\n", line);
		return;
	}
	sub_header(t);
	kprintf("  # %s\n", line);
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

void ktap_result(struct ktest *t, unsigned number, enum kt_result r, const char *why)
{
	if (t->opened)
		kprintf("  1..%u\n", t->nsub);
	switch (r) {
	case KT_PASS:
		totals.pass++;
		kprintf("ok %u %s\n", number, t->desc->name);
		break;
	case KT_SKIP:
		totals.skip++;
		kprintf("ok %u %s # SKIP %s\n", number, t->desc->name,
			why ? why : skip_reason[0] ? skip_reason : "no reason given");
		break;
	default:
		totals.fail++;
		if (why)
			kprintf("not ok %u %s # %s\n", number, t->desc->name, why);
		else
			kprintf("not ok %u %s\n", number, t->desc->name);
		break;
	}
	skip_reason[0] = '\0';
}

void ktap_totals(void)
{
	kprintf("# Totals: pass:%u fail:%u skip:%u total:%u\n", totals.pass, totals.fail,
		totals.skip, totals.pass + totals.fail + totals.skip);
}

const struct ktap_totals *ktap_get_totals(void)
{
	return &totals;
}
