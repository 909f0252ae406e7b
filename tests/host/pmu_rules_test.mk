HOST_TESTS += pmu_rules_test
pmu_rules_test_SRCS = $(PEBS_DRIVER_SRCS) $(PMU_MODEL_SRCS)
