FUZZ_TARGETS += acpi_fuzz
acpi_fuzz_SRCS := platform/acpi.c platform/acpi_table.c platform/acpi_madt.c platform/acpi_spcr.c \
	platform/acpi_fadt.c kernel/fmt.c tests/stubs/console.c kernel/kprintf.c
