HOST_TESTS += cpuid_dump_test
cpuid_dump_test_SRCS := tools/cpuid_dump.c
