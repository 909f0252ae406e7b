HOST_TESTS += cpu_test
cpu_test_SRCS := kernel/cpu.c kernel/hypervisor.c kernel/fmt.c tests/host/fake_cpuid.c
