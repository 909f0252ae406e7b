/*
 * table.c: the one table of kernel tests, in run order. `tests=GLOB[,GLOB]` selects from it;
 * tests marked on_request run only when named. Each test's file says what it checks.
 */
#include "kernel/ktap.h"
#include "ktests/tests.h"

const struct ktest_desc ktest_table[] = {
	{ "boot", test_boot, NEED_NONE, 1000, false, "boot information and memory map" },
	{ "paging", test_paging, NEED_NONE, 2000, false, "page tables, page sizes, NX, RO" },
	{ "exceptions", test_exceptions, NEED_NONE, 1000, false,
	  "expected faults are caught with the right vector" },
	{ "inject", test_inject, NEED_NONE, 2000, true, "fault injection (inject=...)" },
};

const unsigned ktest_count = sizeof(ktest_table) / sizeof(ktest_table[0]);
