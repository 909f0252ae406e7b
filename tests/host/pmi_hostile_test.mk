HOST_TESTS += pmi_hostile_test
pmi_hostile_test_SRCS = $(PEBS_DRIVER_SRCS) $(PMU_MODEL_SRCS) pebs/cycles.c tests/host/pmi_scenario.c
