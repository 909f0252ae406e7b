HOST_TESTS += unjudged_test
unjudged_test_SRCS := loads/unjudged.c loads/timing.c kernel/trust.c kernel/msr_platform.c \
	kernel/cpu.c kernel/hypervisor.c kernel/fmt.c tests/model/platform_model.c \
	tests/model/vclock.c tests/host/fake_cpuid.c
