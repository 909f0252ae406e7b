HOST_TESTS += mm_judge_test
mm_judge_test_SRCS := kernel/mm_expect.c kernel/pgtable.c kernel/fmt.c tests/host/mm_fixture.c
