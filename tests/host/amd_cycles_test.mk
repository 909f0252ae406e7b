HOST_TESTS += amd_cycles_test
amd_cycles_test_SRCS := ibs/amd_cycles.c kernel/cpu.c kernel/fmt.c tests/model/ibs_model.c \
	tests/model/ibs_model_pmc.c tests/model/ibs_model_run.c tests/model/ibs_model_hw.c \
	tests/model/violations.c tests/model/vclock.c apic/apic_ops.c apic/apic_eilvt.c \
	apic/apic_enc.c
