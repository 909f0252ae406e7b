FUZZ_TARGETS += cmdline_fuzz
cmdline_fuzz_SRCS := tests/fuzz/cmdline_fuzz.c kernel/cmdline.c kernel/fmt.c kernel/options.c
