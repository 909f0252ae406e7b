HOST_TESTS += trust_test
trust_test_SRCS := kernel/trust.c kernel/trust_report.c kernel/msr_platform.c kernel/cpu.c \
	kernel/hypervisor.c kernel/fmt.c kernel/kprintf.c kernel/ktap.c kernel/ktap_detail.c kernel/console.c tests/stubs/console_tap.c ktests/exceptions.c \
	tests/model/platform_model.c tests/model/vclock.c tests/host/fake_cpuid.c
