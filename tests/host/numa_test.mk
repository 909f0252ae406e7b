HOST_TESTS += numa_test
numa_test_SRCS := platform/numa.c platform/numa_tiers.c platform/numa_print.c platform/acpi_hmat.c platform/acpi_srat.c platform/acpi_slit.c platform/acpi.c platform/acpi_table.c \
	platform/acpi_madt.c platform/acpi_spcr.c platform/acpi_fadt.c tests/host/numa_image.c \
	kernel/fmt.c tests/stubs/console.c kernel/kprintf.c
