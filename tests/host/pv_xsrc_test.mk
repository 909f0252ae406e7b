HOST_TESTS += pv_xsrc_test
pv_xsrc_test_SRCS := loads/pv_xsrc.c loads/pebs_verdict.c loads/pebs_cost.c pebs/aggregate.c \
	pebs/agg_print.c pebs/datasrc.c pebs/pmu_tables.c pebs/datasrc_tables.c \
	pebs/datasrc_names.c pebs/record.c kernel/fmt.c
