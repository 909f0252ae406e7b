HOST_TESTS += hw_stream_test
hw_stream_test_SRCS := kernel/hw_stream.c
