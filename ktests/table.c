/*
 * table.c: the one table of kernel tests, in run order. `tests=GLOB[,GLOB]` selects from it;
 * tests marked on_request run only when named. Each test's file says what it checks.
 */
#include "kernel/ktap.h"
#include "ktests/tests.h"

const struct ktest_desc ktest_table[] = {
	{ .name = "boot", .fn = test_boot, .needs = NEED_NONE, .timeout_ms = 1000,
	  .help = "boot information and memory map" },
	{ .name = "paging", .fn = test_paging, .needs = NEED_NONE, .timeout_ms = 2000,
	  .help = "page tables, page sizes, NX, RO" },
	{ .name = "exceptions", .fn = test_exceptions, .needs = NEED_NONE, .timeout_ms = 1000,
	  .help = "expected faults are caught with the right vector" },
	{ .name = "apic", .fn = test_apic, .needs = NEED_APIC, .timeout_ms = 2000,
	  .help = "local APIC: mode, LVTPC, PMI-vector self-IPI re-arm, timer rate, error vector" },
	{ .name = "apic_hang", .fn = test_apic_hang, .needs = NEED_APIC, .timeout_ms = 300,
	  .on_request = true,
	  .help = "hangs on purpose: the runner must report it '# TIMEOUT' and go on" },
	{ .name = "apic_watchdog", .fn = test_apic_watchdog, .needs = NEED_APIC, .timeout_ms = 2000,
	  .on_request = true, .help = "a deliberately hung test is caught by the APIC-timer watchdog" },
	{ .name = "inject", .fn = test_inject, .needs = NEED_NONE, .timeout_ms = 2000,
	  .on_request = true, .help = "fault injection (inject=...)" },
	{ .name = "smp", .fn = test_smp, .needs = NEED_APIC, .timeout_ms = 5000,
	  .help = "application processors: online, APIC id as in the MADT, run code, AP fault" },
	{ .name = "pmu", .fn = test_pmu, .needs = NEED_NONE, .timeout_ms = 10000,
	  .help = "PMU/PEBS capabilities, gates, instruction counting, PEBS load-latency records" },
	{ .name = "load_l1", .fn = test_load_l1, .needs = NEED_NONE, .timeout_ms = 20000,
	  .help = "pointer chase in L1D: timing, PEBS source" },
	{ .name = "load_l2", .fn = test_load_l2, .needs = NEED_NONE, .timeout_ms = 20000,
	  .help = "pointer chase in L2: timing, step, PEBS" },
	{ .name = "load_l3", .fn = test_load_l3, .needs = NEED_NONE, .timeout_ms = 20000,
	  .help = "pointer chase in L3: timing, step, PEBS" },
	{ .name = "load_dram", .fn = test_load_dram, .needs = NEED_NONE, .timeout_ms = 30000,
	  .help = "pointer chase in DRAM: timing, step, PEBS" },
	{ .name = "load_lfb", .fn = test_load_lfb, .needs = NEED_NONE, .timeout_ms = 30000,
	  .help = "loads to lines in flight (LFB)" },
	{ .name = "load_store", .fn = test_load_store, .needs = NEED_NONE, .timeout_ms = 20000,
	  .help = "chase + stores (store records)" },
	{ .name = "load_stlb", .fn = test_load_stlb, .needs = NEED_NONE, .timeout_ms = 30000,
	  .help = "one load per 4 KiB page: STLB misses" },
	{ .name = "load_remote", .fn = test_load_remote, .needs = NEED_NONE, .timeout_ms = 60000,
	  .help = "DRAM chase over another NUMA node's memory vs this node's (SRAT)" },
	{ .name = "load_snoop", .fn = test_load_snoop, .needs = NEED_NONE, .timeout_ms = 10000,
	  .help = "loads of lines another core read last (clean snoop hit): timing, PEBS" },
	{ .name = "load_hitm", .fn = test_load_hitm, .needs = NEED_NONE, .timeout_ms = 10000,
	  .help = "loads of lines another core wrote last (HITM): timing, PEBS" },
	{ .name = "load_cpus", .fn = test_load_cpus, .needs = NEED_NONE, .timeout_ms = 150000,
	  .help = "load_l1..dram on each CPU cpus= selects: its timing, its own PEBS" },
	{ .name = "load_curve", .fn = test_load_curve, .needs = NEED_NONE, .timeout_ms = 120000,
	  .on_request = true, .help = "latency curve (sweep=short|full)" },
	{ .name = "bandwidth", .fn = test_bandwidth, .needs = NEED_NONE, .timeout_ms = 120000,
	  .on_request = true,
	  .help = "GB/s per level: read, write, write_nt, rw mixes; 1 CPU and all (cpus=)" },
};

const unsigned ktest_count = sizeof(ktest_table) / sizeof(ktest_table[0]);
