HOST_TESTS += ibs_test
IBS_MODEL_SRCS := tests/model/ibs_model.c tests/model/violations.c tests/model/ibs_model_run.c tests/model/vclock.c \
	tests/model/ibs_model_hw.c \
	apic/apic_ops.c apic/apic_eilvt.c apic/apic_enc.c
IBS_DRIVER_SRCS := pebs/ibs.c pebs/ibs_caps.c pebs/ibs_measure.c pebs/ibs_decode.c \
	pebs/ibs_tables.c pebs/aggregate.c pebs/datasrc_names.c kernel/cpu.c kernel/fmt.c \
	kernel/kprintf.c tests/stubs/console.c
ibs_test_SRCS := $(IBS_DRIVER_SRCS) $(IBS_MODEL_SRCS)
