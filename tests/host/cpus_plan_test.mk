HOST_TESTS += cpus_plan_test
cpus_plan_test_SRCS := loads/cpus_plan.c smp/boot_plan.c kernel/fmt.c
