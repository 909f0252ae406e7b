HOST_TESTS += smp_plan_test
smp_plan_test_SRCS := smp/boot_plan.c
