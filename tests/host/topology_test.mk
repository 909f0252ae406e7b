HOST_TESTS += topology_test
topology_test_SRCS := smp/topology.c
