HOST_TESTS += fbcon_test
fbcon_test_SRCS := platform/fbcon.c platform/fbcon_draw.c platform/font8x16.c
