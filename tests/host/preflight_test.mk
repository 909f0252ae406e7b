HOST_TESTS += preflight_test
preflight_test_SRCS := tests/host/preflight_fixtures.c tools/preflight_hw.c tools/cpuid_dump.c kernel/cpu.c kernel/hypervisor.c \
	kernel/fmt.c kernel/kprintf.c pebs/caps.c pebs/probe.c pebs/arch_caps.c pebs/uarch.c pebs/pmu_tables.c loads/geometry.c tests/stubs/console.c
