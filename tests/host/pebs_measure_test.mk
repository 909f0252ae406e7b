HOST_TESTS += pebs_measure_test
pebs_measure_test_SRCS = pebs/measure.c pebs/cntr_snap.c pebs/cycles.c loads/pebs_verdict.c loads/pebs_cost.c loads/kpebs_print.c \
	pebs/aggbuf.c sample/aggregate.c sample/agg_print.c pebs/record_print.c pebs/datasrc.c pebs/pmu_tables.c pebs/datasrc_pantherc.c pebs/datasrc_tables.c \
	sample/names.c pebs/record.c pebs/arch_record.c \
	pebs/caps.c pebs/probe.c pebs/arch_caps.c pebs/caps_print.c kernel/ktap_detail.c pebs/count.c pebs/msr_note.c pebs/uarch.c pebs/ds.c pebs/program.c pebs/pebs_mem.c pebs/config.c pebs/arch_program.c pebs/cntr_program.c pebs/pmi.c pebs/pmi_slots.c pebs/disarm.c kernel/ktap_undo.c \
	kernel/cpu.c kernel/fmt.c kernel/cmdline.c kernel/options.c tests/stubs/console.c kernel/kprintf.c \
	tests/model/pmu_model.c tests/model/violations.c tests/model/pmu_fixture.c tests/model/pmu_model_msr.c tests/model/pmu_model_hostile.c tests/model/pmu_model_run.c tests/model/pmu_model_pmi.c tests/model/pmu_model_record.c \
	tests/model/pmu_model_cpus.c tests/model/pmu_model_arch.c tests/model/pmu_model_cpus_arch.c \
	tests/model/arch_rec_build.c
