HOST_TESTS += uart_test
uart_test_SRCS := kernel/uart.c kernel/console_opt.c kernel/cmdline.c kernel/fmt.c \
	tests/stubs/console.c kernel/kprintf.c
