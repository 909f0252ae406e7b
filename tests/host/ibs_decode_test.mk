HOST_TESTS += ibs_decode_test
ibs_decode_test_SRCS := pebs/ibs_decode.c pebs/ibs_tables.c tools/perf_dsrc.c pebs/aggregate.c \
	pebs/datasrc_names.c pebs/record.c pebs/arch_record.c
