HOST_TESTS += ibs_test
IBS_MODEL_SRCS := tests/model/ibs_model.c tests/model/ibs_model_pmc.c tests/model/violations.c tests/model/ibs_model_run.c tests/model/vclock.c \
	tests/model/ibs_model_hw.c \
	apic/apic_ops.c apic/apic_eilvt.c apic/apic_enc.c
IBS_DRIVER_SRCS := ibs/ibs.c kernel/ktap_undo.c ibs/ibs_ldlat.c ibs/ibs_caps.c kernel/ktap_detail.c ibs/amd_zen.c ibs/ibs_measure.c ibs/ibs_decode.c \
	ibs/ibs_tables.c sample/aggregate.c sample/names.c kernel/cpu.c kernel/fmt.c \
	kernel/kprintf.c tests/stubs/console.c
ibs_test_SRCS := $(IBS_DRIVER_SRCS) $(IBS_MODEL_SRCS)
