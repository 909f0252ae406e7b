HOST_TESTS += pebs_cost_test
# the PEBS step over the PMU model: the same units as pebs_measure_test
pebs_cost_test_SRCS = $(pebs_measure_test_SRCS)
