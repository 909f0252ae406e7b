FUZZ_TARGETS += decode_fuzz
decode_fuzz_SRCS := pebs/record.c pebs/datasrc.c pebs/pmu_tables.c pebs/datasrc_tables.c pebs/datasrc_names.c \
	pebs/aggregate.c pebs/aggbuf.c
