HOST_TESTS += pv_xsrc_test
pv_xsrc_test_SRCS := loads/pv_xsrc.c loads/pebs_verdict.c loads/pebs_cost.c sample/aggregate.c \
	sample/agg_print.c pebs/datasrc.c pebs/pmu_tables.c pebs/datasrc_tables.c \
	sample/names.c pebs/datasrc_pantherc.c pebs/record.c pebs/arch_record.c kernel/fmt.c
