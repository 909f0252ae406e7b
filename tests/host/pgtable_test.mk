HOST_TESTS += pgtable_test
pgtable_test_SRCS := kernel/pgtable.c
