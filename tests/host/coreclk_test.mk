HOST_TESTS += coreclk_test
coreclk_test_SRCS := tools/coreclk.c tests/model/vclock.c
