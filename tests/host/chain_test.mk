HOST_TESTS += chain_test
chain_test_SRCS := loads/chain.c
