HOST_TOOLS += pebs-decode
pebs-decode_SRCS := tools/pebs-decode.c pebs/record.c pebs/datasrc.c pebs/pmu_tables.c pebs/datasrc_tables.c \
	pebs/datasrc_names.c pebs/aggregate.c pebs/agg_print.c kernel/fmt.c
