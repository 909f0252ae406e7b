HOST_TESTS += datasrc_layout_test
datasrc_layout_test_SRCS := pebs/datasrc.c pebs/pmu_tables.c pebs/datasrc_pantherc.c pebs/datasrc_tables.c sample/names.c
