HOST_TESTS += xcore_late_test
xcore_late_test_SRCS := tests/stubs/kalloc_arena.c tests/stubs/smp_call_late.c loads/xcore.c loads/xcore_cpus.c loads/chase.c loads/steady.c kernel/fmt.c tests/model/vclock.c
