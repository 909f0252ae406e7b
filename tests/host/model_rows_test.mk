HOST_TESTS += model_rows_test
model_rows_test_SRCS = $(PEBS_DRIVER_SRCS) $(PMU_MODEL_SRCS)
