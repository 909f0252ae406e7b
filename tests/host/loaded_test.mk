HOST_TESTS += loaded_test
loaded_test_SRCS := loads/loaded.c loads/inject.c kernel/fmt.c sample/aggregate.c sample/names.c \
	tests/model/loaded_model.c tests/model/vclock.c
