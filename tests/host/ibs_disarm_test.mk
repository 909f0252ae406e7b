HOST_TESTS += ibs_disarm_test
ibs_disarm_test_SRCS = $(IBS_DRIVER_SRCS) $(IBS_MODEL_SRCS)
