HOST_TESTS += chase_test
chase_test_SRCS := loads/chase.c loads/chain.c loads/steady.c tests/model/vclock.c
