HOST_TESTS += ranges_test
ranges_test_SRCS := kernel/ranges.c kernel/fmt.c
