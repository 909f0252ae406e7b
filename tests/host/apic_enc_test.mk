HOST_TESTS += apic_enc_test
apic_enc_test_SRCS := apic/apic_enc.c
