FUZZ_TARGETS += decode_fuzz
decode_fuzz_SRCS := pebs/record.c pebs/arch_record.c pebs/datasrc.c pebs/pmu_tables.c pebs/datasrc_pantherc.c pebs/datasrc_tables.c sample/names.c \
	sample/aggregate.c pebs/aggbuf.c
