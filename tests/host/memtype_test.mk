HOST_TESTS += memtype_test
memtype_test_SRCS := kernel/memtype.c kernel/memtype_read.c kernel/pgtable.c \
	kernel/msr_platform.c kernel/cpu.c kernel/hypervisor.c kernel/fmt.c loads/alike.c \
	loads/kalike.c kernel/trust.c tests/model/platform_model.c tests/model/vclock.c tests/host/fake_cpuid.c
