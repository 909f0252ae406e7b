HOST_TESTS += prefetch_test
prefetch_test_SRCS := kernel/prefetch.c kernel/fmt.c tests/model/platform_model.c \
	tests/model/vclock.c tests/host/fake_cpuid.c
