HOST_TESTS += pmu_arch_test
pmu_arch_test_SRCS = $(PEBS_DRIVER_SRCS) $(PMU_MODEL_SRCS)
