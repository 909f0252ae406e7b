HOST_TESTS += steady_test
steady_test_SRCS := loads/steady.c loads/chase.c loads/chain.c tests/model/vclock.c
