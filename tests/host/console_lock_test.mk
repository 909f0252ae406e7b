HOST_TESTS += console_lock_test
console_lock_test_SRCS := kernel/console.c kernel/kprintf.c kernel/fmt.c
