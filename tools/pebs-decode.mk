HOST_TOOLS += pebs-decode
pebs-decode_SRCS := tools/pebs-decode.c pebs/record.c pebs/arch_record.c pebs/datasrc.c pebs/pmu_tables.c pebs/datasrc_pantherc.c pebs/datasrc_tables.c \
	sample/names.c sample/aggregate.c sample/agg_print.c pebs/cntr_snap.c kernel/fmt.c \
	tools/pebs_decode_ibs.c tools/pebs_decode_json.c ibs/ibs_decode.c ibs/ibs_tables.c
