HOST_TOOLS += xcorebench
xcorebench_SRCS := tools/xcorebench.c
xcorebench_LIBS := -lpthread
