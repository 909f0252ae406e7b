HOST_TESTS += fbcon_test
fbcon_test_SRCS := kernel/fbcon.c kernel/font8x16.c
