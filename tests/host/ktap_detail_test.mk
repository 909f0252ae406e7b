HOST_TESTS += ktap_detail_test
ktap_detail_test_SRCS := kernel/ktap.c kernel/ktap_detail.c kernel/console.c kernel/kprintf.c kernel/fmt.c
