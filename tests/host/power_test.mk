HOST_TESTS += power_test
power_test_SRCS := platform/power.c
