HOST_TESTS += pebs_disarm_test
pebs_disarm_test_SRCS = pebs/percpu.c pebs/measure.c pebs/aggbuf.c sample/aggregate.c pebs/datasrc.c \
	pebs/datasrc_tables.c sample/names.c pebs/datasrc_pantherc.c pebs/cntr_snap.c \
	$(PEBS_DRIVER_SRCS) $(PMU_MODEL_SRCS)
