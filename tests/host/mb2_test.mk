HOST_TESTS += mb2_test
mb2_test_SRCS := kernel/mb2.c kernel/fmt.c
