/* tests.h: the kernel test functions the table (ktests/table.c) lists; one file each. */
#ifndef KTESTS_TESTS_H
#define KTESTS_TESTS_H

#include "kernel/ktap.h"

enum kt_result test_boot(struct ktest *t);
enum kt_result test_paging(struct ktest *t);
enum kt_result test_exceptions(struct ktest *t);
enum kt_result test_apic(struct ktest *t);
enum kt_result test_apic_watchdog(struct ktest *t);
enum kt_result test_apic_hang(struct ktest *t);
enum kt_result test_inject(struct ktest *t);
enum kt_result test_pmu(struct ktest *t);
enum kt_result test_smp(struct ktest *t);
/* test `pmu` on AMD: IBS op sampling (ktests/pmu_ibs.c) */
void pmu_ibs_subtests(struct ktest *t);

/* load kernels (ktests/load.c, load_special.c, load_curve.c) */
enum kt_result test_load_l1(struct ktest *t);
enum kt_result test_load_l2(struct ktest *t);
enum kt_result test_load_l3(struct ktest *t);
enum kt_result test_load_dram(struct ktest *t);
enum kt_result test_load_lfb(struct ktest *t);
enum kt_result test_load_store(struct ktest *t);
enum kt_result test_load_stlb(struct ktest *t);
enum kt_result test_load_remote(struct ktest *t);
enum kt_result test_load_cpus(struct ktest *t);
enum kt_result test_load_curve(struct ktest *t);
enum kt_result test_load_loaded(struct ktest *t);
/* bandwidth per level and mode, one CPU and all (ktests/bandwidth.c) */
enum kt_result test_bandwidth(struct ktest *t);
/* cross-core load kernels (ktests/load_xcore.c) */
enum kt_result test_load_snoop(struct ktest *t);
enum kt_result test_load_hitm(struct ktest *t);
/* latency matrices (ktests/load_matrix.c, load_c2c.c; on request) */
enum kt_result test_load_matrix(struct ktest *t);
enum kt_result test_load_c2c(struct ktest *t);

#endif
