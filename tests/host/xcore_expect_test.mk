HOST_TESTS += xcore_expect_test
xcore_expect_test_SRCS := loads/xcore_expect.c pebs/datasrc.c pebs/pmu_tables.c pebs/datasrc_tables.c \
	sample/names.c pebs/datasrc_pantherc.c kernel/fmt.c
