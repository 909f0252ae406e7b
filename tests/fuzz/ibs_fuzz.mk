FUZZ_TARGETS += ibs_fuzz
ibs_fuzz_SRCS := ibs/ibs_decode.c ibs/ibs_tables.c sample/aggregate.c
