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
	{ "apic", test_apic, NEED_APIC, 2000, false,
	  "local APIC: mode, LVTPC, PMI-vector self-IPI re-arm, timer rate, error vector" },
	{ "apic_hang", test_apic_hang, NEED_APIC, 300, true,
	  "hangs on purpose: the runner must report it '# TIMEOUT' and go on" },
	{ "apic_watchdog", test_apic_watchdog, NEED_APIC, 2000, true,
	  "a deliberately hung test is caught by the APIC-timer watchdog" },
	{ "inject", test_inject, NEED_NONE, 2000, true, "fault injection (inject=...)" },
	{ "pmu", test_pmu, NEED_NONE, 10000, false,
	  "PMU/PEBS capabilities, gates, instruction counting, PEBS load-latency records" },
	{ "load_l1", test_load_l1, NEED_NONE, 20000, false, "pointer chase in L1D: timing, PEBS source" },
	{ "load_l2", test_load_l2, NEED_NONE, 20000, false, "pointer chase in L2: timing, step, PEBS" },
	{ "load_l3", test_load_l3, NEED_NONE, 20000, false, "pointer chase in L3: timing, step, PEBS" },
	{ "load_dram", test_load_dram, NEED_NONE, 30000, false, "pointer chase in DRAM: timing, step, PEBS" },
	{ "load_lfb", test_load_lfb, NEED_NONE, 30000, false, "loads to lines in flight (LFB)" },
	{ "load_store", test_load_store, NEED_NONE, 20000, false, "chase + stores (store records)" },
	{ "load_stlb", test_load_stlb, NEED_NONE, 30000, false, "one load per 4 KiB page: STLB misses" },
	{ "load_curve", test_load_curve, NEED_NONE, 120000, true, "latency curve (sweep=short|full)" },
};

const unsigned ktest_count = sizeof(ktest_table) / sizeof(ktest_table[0]);
