/* load_tests.h: the load kernel tests (ktests/load.c, load_special.c, load_curve.c). */
#ifndef KTESTS_LOAD_TESTS_H
#define KTESTS_LOAD_TESTS_H

#include "kernel/ktap.h"

enum kt_result test_load_l1(struct ktest *t);
enum kt_result test_load_l2(struct ktest *t);
enum kt_result test_load_l3(struct ktest *t);
enum kt_result test_load_dram(struct ktest *t);
enum kt_result test_load_lfb(struct ktest *t);
enum kt_result test_load_store(struct ktest *t);
enum kt_result test_load_stlb(struct ktest *t);
enum kt_result test_load_curve(struct ktest *t);

#endif
