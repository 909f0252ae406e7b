HOST_TESTS += traps_test
traps_test_SRCS := kernel/traps.c kernel/ksyms.c kernel/extable.c kernel/nmi.c kernel/kprintf.c kernel/fmt.c \
	tests/stubs/console.c tests/model/safe_model.c
