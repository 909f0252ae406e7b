HOST_TESTS += pebs_percpu_test
pebs_percpu_test_SRCS = pebs/percpu.c pebs/measure.c loads/pv_xsrc.c loads/pebs_verdict.c \
	loads/pebs_cost.c pebs/aggbuf.c sample/aggregate.c sample/agg_print.c pebs/datasrc.c \
	pebs/datasrc_tables.c sample/names.c pebs/datasrc_pantherc.c pebs/cntr_snap.c \
	$(PEBS_DRIVER_SRCS) $(PMU_MODEL_SRCS)
