HOST_TESTS += plan_test
plan_test_SRCS := loads/plan.c
