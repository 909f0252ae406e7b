HOST_TOOLS += decode-bench
decode-bench_SRCS := tools/decode-bench.c pebs/aggbuf.c pebs/record.c pebs/arch_record.c pebs/datasrc.c pebs/pmu_tables.c pebs/datasrc_pantherc.c pebs/datasrc_tables.c \
	sample/names.c sample/aggregate.c
