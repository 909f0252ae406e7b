HOST_TESTS += record_test
record_test_SRCS := pebs/record.c pebs/arch_record.c
