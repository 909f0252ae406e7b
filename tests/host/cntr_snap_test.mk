HOST_TESTS += cntr_snap_test
cntr_snap_test_SRCS = $(PEBS_DRIVER_SRCS) $(PMU_MODEL_SRCS) pebs/cntr_snap.c pebs/datasrc.c \
	pebs/datasrc_pantherc.c pebs/datasrc_tables.c sample/names.c
