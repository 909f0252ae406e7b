HOST_TESTS += ksyms_test
ksyms_test_SRCS := kernel/ksyms.c
