HOST_TESTS += loadbench_perf_test
loadbench_perf_test_SRCS := tools/loadbench_perf.c tools/perf_ring.c
