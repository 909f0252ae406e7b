FUZZ_TARGETS += madt_fuzz
madt_fuzz_SRCS := platform/acpi_madt.c platform/acpi_table.c platform/acpi.c platform/acpi_spcr.c \
	platform/acpi_fadt.c kernel/fmt.c tests/stubs/console.c kernel/kprintf.c
