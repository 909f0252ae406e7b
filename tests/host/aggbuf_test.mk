HOST_TESTS += aggbuf_test
aggbuf_test_SRCS := pebs/aggbuf.c sample/aggregate.c pebs/record.c pebs/arch_record.c pebs/datasrc.c pebs/pmu_tables.c pebs/datasrc_pantherc.c \
	pebs/datasrc_tables.c tests/model/arch_rec_build.c
