HOST_TESTS += steady_test
steady_test_SRCS := loads/steady.c loads/chase.c loads/chain.c tests/model/vclock.c \
	loads/kload_print.c kernel/ktap_detail.c loads/geometry.c kernel/fmt.c kernel/kprintf.c tests/stubs/console.c \
	tests/host/fake_cpuid.c
