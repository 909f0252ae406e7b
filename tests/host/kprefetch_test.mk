HOST_TESTS += kprefetch_test
kprefetch_test_SRCS := tests/stubs/kalloc_arena.c loads/kprefetch.c kernel/prefetch.c kernel/ktap_undo.c kernel/ktap.c \
	kernel/ktap_detail.c kernel/console.c tests/stubs/console_tap.c kernel/kprintf.c kernel/fmt.c kernel/cmdline.c \
	tests/model/platform_model.c tests/model/vclock.c tests/host/fake_cpuid.c
