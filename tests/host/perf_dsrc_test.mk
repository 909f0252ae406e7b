HOST_TESTS += perf_dsrc_test
perf_dsrc_test_SRCS := tools/perf_dsrc.c pebs/agg_print.c pebs/aggregate.c pebs/datasrc_names.c \
	kernel/fmt.c pebs/record.c loads/kpebs_print.c loads/pebs_verdict.c loads/pebs_cost.c \
	pebs/datasrc.c pebs/pmu_tables.c pebs/datasrc_tables.c
