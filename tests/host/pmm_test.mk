HOST_TESTS += pmm_test
pmm_test_SRCS := kernel/pmm.c
