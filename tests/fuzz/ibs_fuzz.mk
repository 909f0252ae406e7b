FUZZ_TARGETS += ibs_fuzz
ibs_fuzz_SRCS := pebs/ibs_decode.c pebs/ibs_tables.c pebs/aggregate.c
