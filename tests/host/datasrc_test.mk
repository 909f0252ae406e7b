HOST_TESTS += datasrc_test
datasrc_test_SRCS := pebs/datasrc.c pebs/pmu_tables.c pebs/datasrc_pantherc.c pebs/datasrc_tables.c sample/names.c
