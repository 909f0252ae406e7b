HOST_TESTS += aggregate_test
aggregate_test_SRCS := sample/aggregate.c
