HOST_TESTS += bw_test
bw_test_SRCS := loads/bw.c loads/bw_sync.c loads/plan.c apic/apic_enc.c tests/model/stream_model.c \
	tests/model/vclock.c tests/host/fake_cpuid.c
