HOST_TESTS += aggbuf_test
aggbuf_test_SRCS := pebs/aggbuf.c pebs/aggregate.c pebs/record.c pebs/datasrc.c pebs/pmu_tables.c \
	pebs/datasrc_tables.c
