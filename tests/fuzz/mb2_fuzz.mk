FUZZ_TARGETS += mb2_fuzz
mb2_fuzz_SRCS := kernel/mb2.c kernel/fmt.c
