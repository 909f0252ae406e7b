HOST_TESTS += agg_print_test
agg_print_test_SRCS := sample/agg_print.c pebs/record_print.c sample/aggregate.c pebs/datasrc.c pebs/pmu_tables.c pebs/datasrc_pantherc.c pebs/datasrc_tables.c \
	sample/names.c pebs/record.c pebs/arch_record.c kernel/fmt.c
