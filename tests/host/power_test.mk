HOST_TESTS += power_test
power_test_SRCS := kernel/power.c
