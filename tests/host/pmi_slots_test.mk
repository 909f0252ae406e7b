HOST_TESTS += pmi_slots_test
pmi_slots_test_SRCS := pebs/pmi_slots.c
