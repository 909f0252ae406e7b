HOST_TESTS += fmt_test
fmt_test_SRCS := kernel/fmt.c
