HOST_TESTS += pmu_probe_test
pmu_probe_test_SRCS = $(PEBS_DRIVER_SRCS) $(PMU_MODEL_SRCS) pebs/cycles.c loads/pebs_verdict.c \
	loads/pebs_cost.c sample/aggregate.c sample/agg_print.c sample/names.c
