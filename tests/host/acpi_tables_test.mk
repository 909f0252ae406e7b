HOST_TESTS += acpi_tables_test
acpi_tables_test_SRCS := tests/host/acpi_image.c platform/acpi.c platform/acpi_table.c platform/acpi_madt.c platform/acpi_spcr.c \
	platform/acpi_fadt.c kernel/fmt.c tests/stubs/console.c kernel/kprintf.c
