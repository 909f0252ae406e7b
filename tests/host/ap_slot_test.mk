HOST_TESTS += ap_slot_test
ap_slot_test_SRCS := loads/ap_slot.c
