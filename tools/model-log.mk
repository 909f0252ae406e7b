# model-log: a pebs-kernel log from the kernel's printing/verdict code over the PMU model
# (tools/model-log.c). Links what tests/host/pebs_measure_test.mk links, with kernel/ktap.c,
# kernel/console.c (its one backend is the tool's stdout) and loads/plan.c + loads/geometry.c
# for the KTAP and `#` lines.
HOST_TOOLS += model-log
model-log_CFLAGS := -Itests
model-log_SRCS := tools/model-log.c tools/model_log_pebs.c loads/kpebs_ktap.c \
	pebs/measure.c pebs/cycles.c loads/pebs_verdict.c loads/pebs_cost.c loads/kpebs_print.c \
	pebs/aggbuf.c pebs/aggregate.c pebs/agg_print.c pebs/datasrc.c pebs/pmu_tables.c pebs/datasrc_tables.c \
	pebs/datasrc_names.c pebs/record.c \
	pebs/caps.c pebs/caps_print.c pebs/count.c pebs/msr_note.c pebs/uarch.c pebs/ds.c pebs/program.c pebs/pmi.c \
	kernel/cpu.c kernel/fmt.c kernel/cmdline.c kernel/options.c kernel/kprintf.c kernel/console.c kernel/ktap.c \
	loads/plan.c loads/geometry.c \
	tests/model/pmu_model.c tests/model/pmu_model_msr.c tests/model/pmu_model_run.c \
	tests/model/pmu_model_cpus.c
