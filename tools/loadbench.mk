HOST_TOOLS += loadbench
loadbench_SRCS := tools/loadbench.c tools/loadbench_args.c tools/loadbench_host.c kernel/kprintf.c loads/chain.c loads/chase.c \
	loads/geometry.c loads/plan.c kernel/cpu.c kernel/fmt.c kernel/cmdline.c
