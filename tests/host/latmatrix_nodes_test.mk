HOST_TESTS += latmatrix_nodes_test
latmatrix_nodes_test_SRCS := loads/latmatrix_nodes.c kernel/fmt.c
