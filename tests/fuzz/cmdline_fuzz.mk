FUZZ_TARGETS += cmdline_fuzz
cmdline_fuzz_SRCS := kernel/cmdline.c kernel/fmt.c kernel/options.c smp/boot_plan.c
