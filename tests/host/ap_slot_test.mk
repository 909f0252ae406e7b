HOST_TESTS += ap_slot_test
ap_slot_test_SRCS := tests/stubs/kalloc_arena.c loads/ap_slot.c
