HOST_TESTS += smp_boot_test
smp_boot_test_SRCS := smp/smp_boot.c smp/smp_start.c smp/boot_plan.c apic/apic.c apic/apic_pmi.c apic/apic_enc.c \
	apic/apic_ops.c apic/apic_timer.c apic/apic_watchdog.c kernel/cmdline.c kernel/nmi.c kernel/fmt.c \
	kernel/ranges.c tests/stubs/console.c kernel/kprintf.c tests/stubs/apic_env.c tests/model/lapic_model.c \
	tests/model/lapic_model_nmi.c tests/model/vclock.c tests/model/ap_model.c
