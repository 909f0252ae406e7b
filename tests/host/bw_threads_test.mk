HOST_TESTS += bw_threads_test
bw_threads_test_SRCS := loads/bw.c loads/bw_sync.c loads/plan.c loads/chase.c loads/chain.c \
	loads/steady.c apic/apic_enc.c kernel/fmt.c kernel/hw_stream.c tests/host/fake_cpuid.c
bw_threads_test_LIBS := -lpthread
