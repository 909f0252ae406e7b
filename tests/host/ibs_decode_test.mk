HOST_TESTS += ibs_decode_test
ibs_decode_test_SRCS := ibs/ibs_decode.c ibs/ibs_tables.c tools/perf_dsrc.c sample/aggregate.c \
	sample/names.c pebs/record.c pebs/arch_record.c
