HOST_TESTS += inject_cpus_test
inject_cpus_test_SRCS := loads/inject_cpus.c loads/inject.c kernel/ktap_undo.c \
	tests/model/vclock.c
