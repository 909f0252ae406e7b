HOST_TESTS += ibs_ldlat_test
ibs_ldlat_test_SRCS = $(IBS_DRIVER_SRCS) $(IBS_MODEL_SRCS)
