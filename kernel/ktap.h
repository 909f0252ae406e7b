/*
 * ktap.h: the KTAP version 1 reporter and the kernel test table
 * (Linux Documentation/dev-tools/ktap.rst; docs/output.md output-format 2). One top-level
 * test per concern; a test reports subtests with kt_check/kt_skip_sub, diagnostics with
 * kt_info, and returns its verdict. Tests live in one table (ktests/table.c) that both the run
 * and tests= read.
 *
 * Output shape (every nesting level: version line, plan, then results):
 *   KTAP version 1
 *   1..N
 *   # <environment header lines>
 *     KTAP version 1
 *     # Subtest: paging
 *     1..2
 *     # a diagnostic about identity_map
 *     ok 1 identity_map # 2048 KiB at 2 GiB
 *     ok 2 nx_on_data # SKIP CPUID.80000001H:EDX.NX[20] = 0
 *   # paging: pass:1 fail:0 skip:1 total:2      (log=brief: only for a failed test)
 *   ok 2 paging
 *   # Totals: pass:P fail:F skip:S total:T          (test cases, as KUnit counts them)
 *   # Top-level tests: pass:P fail:F skip:S total:N
 * A subtest count is known only when the test ends, so everything the console prints while
 * a test runs is held in a bounded buffer and printed after the block's header and plan
 * (ktap_result); a block that outgrows the buffer is printed without a plan (ktap.rst allows
 * that) and streams on.
 */
#ifndef KERNEL_KTAP_H
#define KERNEL_KTAP_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/ktap_detail.h"	/* kt_detail, log_full: the log budget */

/* docs/output.md version, printed as `# output-format: N` in the header */
#define OUTPUT_FORMAT 3
/* Bytes of one test's output held until its plan is known (ktap.c) */
#define KTAP_HOLD_BYTES (256u * 1024u)

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
};

extern const struct ktest_desc ktest_table[];
extern const unsigned ktest_count;

/* A subtest result line; returns cond. The fmt gives the subtest's name: a stable
 * identifier (no spaces, no '#'), optionally followed by " # " and measured values
 * ("l1_core_cycles # 4.12 in 3..7"), which KTAP calls diagnostic data. */
bool kt_check(struct ktest *t, bool cond, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A subtest skipped with a reason. */
void kt_skip_sub(struct ktest *t, const char *name, const char *reason_fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A diagnostic line inside the current test ("  # ..."); print it before the result line
 * it describes (ktap.rst: diagnostics about a test come directly before its result). */
void kt_info(struct ktest *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Set the SKIP reason a test returns with (KT_SKIP). */
enum kt_result kt_skip(struct ktest *t, const char *reason_fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Verdict from the subtests: FAIL if any failed, else PASS (SKIP if all skipped). */
enum kt_result kt_verdict(struct ktest *t);

/* Top-level: header line and diagnostics outside tests. */
void ktap_begin(void);
void ktap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The runner's side: the plan (right after the version line, before the header), the start
 * of a test (its output is held from here on), one result per top-level test (why: SKIP
 * reason or failure note, NULL to use the test's own), the totals lines. A test that fails
 * with no failed subtest (exception, timeout) gets a failed subtest `ran_to_completion`, so
 * the parent's verdict shows in the test-case counts. */
struct ktap_totals {
	unsigned pass, fail, skip;
};
void ktap_plan(unsigned n);
void ktap_test_start(struct ktest *t, unsigned number);
void ktap_result(struct ktest *t, unsigned number, enum kt_result r, const char *why);
void ktap_totals(void);
/* Top-level counts (the run's verdict); ktap_get_cases: test cases, KUnit's `# Totals:`. */
const struct ktap_totals *ktap_get_totals(void);
const struct ktap_totals *ktap_get_cases(void);
/* Who watches the results as they are reported (the run's screen, ktests/): every subtest
 * result (top = false) and every top-level result (top = true) with its verdict and the text
 * its KTAP line carries after the number ("pebs_source # SKIP why", "load_l2"). It prints
 * nothing. NULL: none. */
typedef void (*ktap_observer_fn)(const struct ktest *t, bool top, enum kt_result r,
				 const char *text);
void ktap_set_observer(ktap_observer_fn fn);
/* The run ends inside a test (run_fatal, run_exit): print what the test held and its
 * `not ok` line with why. Nothing when no test is running. */
void ktap_abort(const char *why);

/* Defined by the test layer (ktests/): the SKIP reason for unmet needs, NULL if all met. */
const char *ktest_need_reason(unsigned needs);

#endif
