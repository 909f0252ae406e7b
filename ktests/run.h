/*
 * run.h: the test runner: selects tests from the table (tests= globs, or every test not
 * marked on_request), counts them for the plan (main.c prints it right after the KTAP version
 * line), runs each inside a memory mark and a recovery point, reports, prints the totals and
 * ends the run.
 */
#ifndef KTESTS_RUN_H
#define KTESTS_RUN_H

#include <stdbool.h>

#include "kernel/ktap.h"

/* Whether the table entry runs under the current command line. */
bool ktest_selected(const struct ktest_desc *d);

/* The number of tests the run will report (the top-level plan). */
unsigned ktests_planned(void);
__attribute__((noreturn)) void ktests_run(void);

#endif
