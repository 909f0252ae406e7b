HOST_TESTS += uart_test
uart_test_SRCS := platform/uart.c platform/console_opt.c kernel/cmdline.c kernel/fmt.c \
	tests/stubs/console.c kernel/kprintf.c
