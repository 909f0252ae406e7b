HOST_TESTS += kibs_report_test
kibs_report_test_SRCS := loads/kibs_report.c loads/kpebs_ktap.c loads/kpebs_print.c \
	loads/pebs_verdict.c loads/pv_xsrc.c loads/pebs_cost.c loads/plan.c sample/aggregate.c sample/agg_print.c \
	sample/names.c ibs/ibs_decode.c ibs/ibs_tables.c ibs/ibs_ldlat.c kernel/ktap.c kernel/ktap_detail.c kernel/fmt.c \
	kernel/console.c kernel/kprintf.c pebs/record.c pebs/arch_record.c pebs/record_print.c \
	pebs/datasrc.c pebs/pmu_tables.c pebs/datasrc_tables.c pebs/datasrc_pantherc.c
