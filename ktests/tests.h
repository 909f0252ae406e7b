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

#endif
