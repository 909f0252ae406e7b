HOST_TESTS += tsc_test
tsc_test_SRCS := kernel/tsc.c kernel/cpu.c tests/host/fake_cpuid.c tests/model/vclock.c
