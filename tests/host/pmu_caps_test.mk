HOST_TESTS += pmu_caps_test
pmu_caps_test_SRCS = $(PEBS_DRIVER_SRCS) $(PMU_MODEL_SRCS)
