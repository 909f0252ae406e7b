/*
 * ktap.h: the KTAP version 1 reporter and the kernel test table
 * (https://docs.kernel.org/dev-tools/ktap.html). One top-level test per concern; a test
 * reports subtests with kt_check/kt_skip_sub, diagnostics with kt_info, and returns its
 * verdict. Tests live in one table (ktests/table.c) that both the run and tests= read.
 *
 * Output shape:
 *   KTAP version 1
 *   # <environment header lines>
 *   1..N
 *     KTAP version 1
 *     # Subtest: paging
 *     ok 1 identity_map
 *     ok 2 nx_on_data # SKIP CPUID.80000001H:EDX.NX[20] = 0
 *     1..2
 *   ok 2 paging
 * (subtests are indented two spaces; their plan closes them, as TAP allows a trailing plan,
 *  because a subtest count is often known only at the end)
 *   # Totals: pass:P fail:F skip:S total:N
 */
#ifndef KERNEL_KTAP_H
#define KERNEL_KTAP_H

#include <stdbool.h>
#include <stdint.h>

enum kt_result { KT_PASS, KT_FAIL, KT_SKIP };

/* What a test needs; the run SKIPs it with the reason when the need is absent. */
enum kt_need {
	NEED_NONE = 0,
	NEED_PMU = 1 << 0,	/* architectural perfmon version >= 1 */
	NEED_PEBS = 1 << 1,	/* PEBS usable (pebs/ decides) */
	NEED_LOAD_LATENCY = 1 << 2,
	NEED_APIC = 1 << 3,
};

struct ktest;
typedef enum kt_result (*ktest_fn)(struct ktest *t);

struct ktest_desc {
	const char *name;
	ktest_fn fn;
	unsigned needs;		/* enum kt_need bits */
	unsigned timeout_ms;	/* watchdog budget (apic/ timer), 0 = default */
	bool on_request;	/* runs only when tests= names it (slow or destructive) */
	const char *help;
};

/* Per-run state of one test, passed to its function. */
struct ktest {
	const struct ktest_desc *desc;
	unsigned nsub, sub_fail, sub_skip;
	bool failed;		/* a kt_check failed */
	bool opened;		/* the subtest header was printed */
};

extern const struct ktest_desc ktest_table[];
extern const unsigned ktest_count;

/* A subtest result line; returns cond. The fmt names the subtest (no '#'). */
bool kt_check(struct ktest *t, bool cond, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A subtest skipped with a reason. */
void kt_skip_sub(struct ktest *t, const char *name, const char *reason_fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A diagnostic line inside the current test ("  # ..."). */
void kt_info(struct ktest *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Set the SKIP reason a test returns with (KT_SKIP). */
enum kt_result kt_skip(struct ktest *t, const char *reason_fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Verdict from the subtests: FAIL if any failed, else PASS (SKIP if all skipped). */
enum kt_result kt_verdict(struct ktest *t);

/* Top-level: header line and diagnostics outside tests. */
void ktap_begin(void);
void ktap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The runner's side: plan, one result per top-level test (why: SKIP reason or failure note,
 * NULL to use the test's own), the totals line. */
struct ktap_totals {
	unsigned pass, fail, skip;
};
void ktap_plan(unsigned n);
void ktap_result(struct ktest *t, unsigned number, enum kt_result r, const char *why);
void ktap_totals(void);
const struct ktap_totals *ktap_get_totals(void);

/* Defined by the test layer (ktests/): the SKIP reason for unmet needs, NULL if all met. */
const char *ktest_need_reason(unsigned needs);

#endif
