HOST_TESTS += timing_test
timing_test_SRCS := loads/timing.c
