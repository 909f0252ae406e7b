HOST_TESTS += ktap_test
ktap_test_SRCS := kernel/ktap.c kernel/ktap_detail.c kernel/console.c tests/stubs/console_tap.c kernel/kprintf.c kernel/fmt.c
