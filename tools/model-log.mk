# model-log: a pebs-kernel log from the kernel's printing/verdict code over the PMU model
# (tools/model-log.c). Links what tests/host/pebs_measure_test.mk links, with kernel/ktap.c,
# kernel/console.c (its one backend is the tool's stdout) and loads/plan.c + loads/geometry.c
# for the KTAP and `#` lines; for AMD parts the IBS driver, decoder and model (tools/model_log_ibs.c).
HOST_TOOLS += model-log
model-log_CFLAGS := -Itests
model-log_SRCS := tools/model-log.c tools/model_log_pebs.c tools/model_log_feed.c loads/kpebs_judge.c loads/kpebs_ktap.c pebs/percpu.c \
	pebs/measure.c pebs/cntr_snap.c pebs/cycles.c loads/pebs_verdict.c loads/pebs_cost.c loads/kpebs_print.c \
	pebs/aggbuf.c sample/aggregate.c sample/agg_print.c pebs/record_print.c pebs/datasrc.c pebs/pmu_tables.c pebs/datasrc_pantherc.c pebs/datasrc_tables.c \
	sample/names.c pebs/record.c pebs/arch_record.c \
	pebs/caps.c pebs/probe.c pebs/arch_caps.c pebs/caps_print.c pebs/count.c pebs/msr_note.c pebs/uarch.c pebs/ds.c pebs/program.c pebs/pebs_mem.c pebs/config.c pebs/arch_program.c pebs/cntr_program.c pebs/pmi.c pebs/pmi_slots.c pebs/disarm.c kernel/ktap_undo.c \
	kernel/cpu.c kernel/fmt.c kernel/cmdline.c kernel/options.c kernel/kprintf.c kernel/console.c kernel/ktap.c kernel/ktap_detail.c \
	loads/plan.c loads/geometry.c \
	tests/model/pmu_model.c tests/model/violations.c tests/model/pmu_model_msr.c tests/model/pmu_model_hostile.c tests/model/pmu_model_run.c tests/model/pmu_model_pmi.c tests/model/pmu_model_record.c \
	tests/model/pmu_model_cpus.c tests/model/pmu_model_arch.c tests/model/pmu_model_cpus_arch.c \
	tests/model/arch_rec_build.c \
	tools/model_log_ibs.c tools/model_log_hw.c tools/model_log_loads.c tools/model_log_special.c \
	tools/model_log_loaded.c loads/loaded.c loads/loaded_judge.c tests/model/loaded_model.c \
	loads/pv_xsrc.c loads/xcore_expect.c loads/kibs_report.c ibs/ibs.c ibs/ibs_ldlat.c ibs/ibs_caps.c ibs/amd_zen.c ibs/amd_cycles.c \
	ibs/ibs_measure.c ibs/ibs_decode.c ibs/ibs_tables.c apic/apic_ops.c apic/apic_eilvt.c \
	apic/apic_enc.c tests/model/ibs_model.c tests/model/ibs_model_run.c tests/model/ibs_model_pmc.c tests/model/vclock.c \
	tests/model/topo_model.c tools/model_log_matrix.c loads/latmatrix.c loads/latmatrix_print.c \
	loads/latmatrix_judge.c loads/c2c_plan.c
# AMD parts: every seam call goes through tools/model_log_hw.c to the IBS or the PMU model
model-log_LIBS := -Wl,--wrap=rdmsr,--wrap=wrmsr,--wrap=rdmsr_safe,--wrap=wrmsr_safe \
	-Wl,--wrap=rdpmc_safe,--wrap=cpuid_count,--wrap=mmio_read32,--wrap=mmio_write32 \
	-Wl,--wrap=apic_set_pmi_handler,--wrap=apic_pmi_rearm
