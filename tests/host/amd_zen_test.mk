# amd_zen_test: Zen generations by family/model (ibs/amd_zen.c)
HOST_TESTS += amd_zen_test
amd_zen_test_SRCS := ibs/amd_zen.c
