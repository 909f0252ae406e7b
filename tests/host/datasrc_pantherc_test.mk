HOST_TESTS += datasrc_pantherc_test
datasrc_pantherc_test_SRCS := pebs/datasrc.c pebs/pmu_tables.c pebs/datasrc_pantherc.c pebs/datasrc_tables.c sample/names.c
