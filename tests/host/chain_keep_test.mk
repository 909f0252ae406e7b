HOST_TESTS += chain_keep_test
chain_keep_test_SRCS := loads/chain_keep.c
