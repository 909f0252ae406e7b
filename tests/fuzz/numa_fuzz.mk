FUZZ_TARGETS += numa_fuzz
numa_fuzz_SRCS := kernel/numa.c kernel/acpi_srat.c kernel/acpi_slit.c kernel/acpi.c \
	kernel/acpi_madt.c kernel/acpi_spcr.c kernel/acpi_fadt.c kernel/fmt.c \
	tests/stubs/console.c kernel/kprintf.c
