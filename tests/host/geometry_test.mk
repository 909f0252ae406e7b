HOST_TESTS += geometry_test
geometry_test_SRCS := loads/geometry.c kernel/fmt.c tests/stubs/console.c kernel/kprintf.c
