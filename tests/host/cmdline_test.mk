HOST_TESTS += cmdline_test
cmdline_test_SRCS := kernel/cmdline.c kernel/fmt.c kernel/options.c
