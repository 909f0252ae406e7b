/* apic_tests.h: the kernel tests of ktests/apic.c, for the test table (ktests/table.c). */
#ifndef KTESTS_APIC_TESTS_H
#define KTESTS_APIC_TESTS_H

#include "kernel/ktap.h"

enum kt_result ktest_apic(struct ktest *t);
enum kt_result ktest_apic_watchdog(struct ktest *t);

#endif
