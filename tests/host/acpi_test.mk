HOST_TESTS += acpi_test
acpi_test_SRCS := tests/host/acpi_image.c kernel/acpi.c kernel/acpi_madt.c kernel/acpi_spcr.c \
	kernel/acpi_fadt.c kernel/fmt.c tests/stubs/console.c kernel/kprintf.c
