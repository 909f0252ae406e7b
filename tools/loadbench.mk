HOST_TOOLS += loadbench
loadbench_SRCS := tools/loadbench.c tools/loadbench_print.c tools/loadbench_args.c tools/loadbench_host.c tools/coreclk.c tools/lb_sweep.c tools/loadbench_bw.c loads/bw.c loads/bw_sync.c kernel/hw_stream.c apic/apic_enc.c kernel/kprintf.c kernel/console.c loads/chain.c loads/chase.c loads/steady.c \
	loads/geometry.c loads/plan.c kernel/cpu.c kernel/fmt.c kernel/cmdline.c \
	tools/loadbench_pebs.c tools/loadbench_perf.c tools/perf_ring.c tools/perf_dsrc.c kernel/ktap.c kernel/ktap_detail.c \
	loads/kload_print.c loads/kpebs_print.c loads/kpebs_ktap.c loads/pebs_verdict.c loads/pebs_cost.c \
	sample/aggregate.c sample/agg_print.c pebs/record_print.c pebs/datasrc.c pebs/pmu_tables.c pebs/datasrc_pantherc.c pebs/datasrc_tables.c sample/names.c \
	pebs/record.c pebs/arch_record.c \
	tools/loadbench_loaded.c loads/loaded.c loads/loaded_judge.c loads/inject.c
loadbench_LIBS += -lpthread
