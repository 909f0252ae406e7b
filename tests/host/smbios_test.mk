HOST_TESTS += smbios_test
smbios_test_SRCS := platform/smbios.c platform/smbios_read.c kernel/fmt.c
