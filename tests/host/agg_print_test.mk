HOST_TESTS += agg_print_test
agg_print_test_SRCS := pebs/agg_print.c pebs/aggregate.c pebs/datasrc.c pebs/pmu_tables.c pebs/datasrc_tables.c \
	pebs/datasrc_names.c pebs/record.c kernel/fmt.c
