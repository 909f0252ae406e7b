HOST_TESTS += bw_sync_test
bw_sync_test_SRCS := loads/bw.c loads/bw_sync.c loads/plan.c loads/chase.c loads/chain.c \
	loads/steady.c apic/apic_enc.c kernel/fmt.c tests/model/stream_model.c \
	tests/model/vclock.c tests/model/mp_sched.c tests/host/fake_cpuid.c
bw_sync_test_LIBS := -lpthread
