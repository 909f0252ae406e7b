HOST_TESTS += lb_sweep_test
lb_sweep_test_SRCS := tools/lb_sweep.c loads/chase.c loads/chain.c loads/steady.c loads/plan.c \
	loads/geometry.c tests/model/vclock.c kernel/fmt.c kernel/kprintf.c tests/stubs/console.c \
	tests/host/fake_cpuid.c
