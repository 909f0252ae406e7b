HOST_TESTS += latmatrix_test
latmatrix_test_SRCS := loads/latmatrix.c loads/latmatrix_print.c loads/c2c_plan.c \
	sample/aggregate.c kernel/fmt.c
