HOST_TESTS += pmu_tables_test
pmu_tables_test_SRCS := pebs/uarch.c pebs/pmu_tables.c pebs/datasrc.c pebs/datasrc_tables.c \
	sample/names.c pebs/datasrc_pantherc.c
