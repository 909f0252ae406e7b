HOST_TOOLS += perf-dsrc
perf-dsrc_SRCS := tools/perf-dsrc.c tools/perf_dsrc.c sample/agg_print.c sample/aggregate.c \
	sample/names.c pebs/record.c pebs/arch_record.c kernel/fmt.c
