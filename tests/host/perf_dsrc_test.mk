HOST_TESTS += perf_dsrc_test
perf_dsrc_test_SRCS := tools/perf_dsrc.c sample/agg_print.c pebs/record_print.c sample/aggregate.c sample/names.c \
	kernel/fmt.c pebs/record.c pebs/arch_record.c loads/kpebs_print.c loads/pebs_verdict.c loads/pebs_cost.c \
	pebs/datasrc.c pebs/pmu_tables.c pebs/datasrc_pantherc.c pebs/datasrc_tables.c
