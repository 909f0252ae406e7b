HOST_TESTS += mm_expect_test
mm_expect_test_SRCS := kernel/mm_expect.c kernel/mm_probe.c kernel/pgtable.c kernel/fmt.c tests/host/mm_fixture.c
