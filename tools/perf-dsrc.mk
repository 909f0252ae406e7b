HOST_TOOLS += perf-dsrc
perf-dsrc_SRCS := tools/perf-dsrc.c tools/perf_dsrc.c pebs/agg_print.c pebs/aggregate.c \
	pebs/datasrc_names.c pebs/record.c pebs/arch_record.c kernel/fmt.c
