/*
 * ktap_detail.h: how much the log says (docs/output.md "Log budget"). `log=brief` (the
 * default) keeps a serial log within 8 KiB on one CPU: a detail line that only restates a
 * passing check is printed only when that check fails, and a SKIP reason given before in the
 * run is printed as a reference to where it was first given. `log=full` prints every detail
 * line and every reason in full. kernel/ktap.c settles the details at each result line.
 *
 * For test code: kt_detail() in place of kt_info() for a line that explains a check (the
 * probe, the measured values, the expectation); it goes out only before a `not ok` (or under
 * log=full). Everything else that prints detail (header lines, per-CPU lines) asks log_full().
 */
#ifndef KERNEL_KTAP_DETAIL_H
#define KERNEL_KTAP_DETAIL_H

#include <stdbool.h>
#include <stddef.h>

struct ktest;

/* Bytes of detail lines held until the next result line; past it they go out at once
 * (more output, never less). */
#define KTAP_DETAIL_BYTES 4096u
/* Distinct SKIP reasons remembered for references; reasons past it are printed in full. */
#define KTAP_SKIP_REASONS 32u
/* The reference a repeated SKIP reason becomes: "same as <test>[.<subtest>]". */
#define KTAP_SKIP_SAME "same as "

/* log=full (init/main.c sets it from the command line) */
void log_set_full(bool full);
bool log_full(void);

/* A detail line of test t ("  # ..."; t NULL: "# ..."), held until the next result line of
 * that test: printed before it when the result is `not ok` or under log=full, else dropped.
 * A detail about several checks that must outlive the first one: kt_info under a condition
 * (`if (!all_ok || log_full()) kt_info(...)`). */
void kt_detail(struct ktest *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* kernel/ktap.c, at a result line: print the held details (show, or log=full) or drop them. */
void ktap_detail_settle(bool show);

/* The text after "# SKIP " for a result at `where` ("load_l2.pebs_source", "load_hitm"):
 * `reason` itself the first time it is given in the run (or under log=full), else
 * "same as <where it was first given>" written into buf. */
const char *ktap_skip_text(const char *where, const char *reason, char *buf, size_t n);

/* A new run (host tests): forget the held details and the reasons given. */
void ktap_detail_reset(void);

#endif
