FUZZ_TARGETS += mb2_fuzz
mb2_fuzz_SRCS := tests/fuzz/mb2_fuzz.c kernel/mb2.c kernel/fmt.c
