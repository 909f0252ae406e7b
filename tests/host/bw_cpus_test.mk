HOST_TESTS += bw_cpus_test
bw_cpus_test_SRCS := tests/stubs/kalloc_arena.c tests/stubs/smp_call_late.c loads/bw_cpus.c loads/bw.c loads/bw_sync.c loads/plan.c loads/chase.c \
	loads/chain.c loads/steady.c apic/apic_enc.c kernel/ktap_undo.c tests/model/stream_model.c \
	tests/model/vclock.c tests/host/fake_cpuid.c kernel/fmt.c
