HOST_TESTS += ibs_hostile_test
ibs_hostile_test_SRCS = $(IBS_DRIVER_SRCS) $(IBS_MODEL_SRCS)
