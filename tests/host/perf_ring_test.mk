HOST_TESTS += perf_ring_test
perf_ring_test_SRCS := tools/perf_ring.c tools/loadbench_perf.c
