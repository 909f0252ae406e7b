# pebs-preflight: the kernel's header and test plan for this machine or a saved CPUID dump
# (tools/pebs-preflight.c). Links the kernel's probe sources themselves; the hw.h seam is
# tools/preflight_hw.c. The kernel test table is linked too: its test functions are replaced
# by stand-ins generated from ktests/tests.h that are never called (the preflight only reads
# names, needs and flags).
HOST_TOOLS += pebs-preflight
pebs-preflight_SRCS := tools/pebs-preflight.c tools/preflight_hw.c tools/cpuid_dump.c tools/preflight_smbios.c \
	kernel/cpu.c kernel/hypervisor.c kernel/tsc.c kernel/fmt.c kernel/kprintf.c platform/smbios.c platform/smbios_read.c \
	pebs/caps.c pebs/probe.c pebs/arch_caps.c pebs/caps_print.c kernel/ktap_detail.c pebs/uarch.c pebs/pmu_tables.c pebs/cycles.c pebs/msr_note.c \
	ibs/ibs_caps.c ibs/ibs_tables.c ibs/amd_zen.c \
	loads/geometry.c ktests/needs.c ktests/table.c $(BUILD)/host/preflight_tests.c

# one stand-in per `enum kt_result test_x(struct ktest *t);` declaration
$(BUILD)/host/preflight_tests.c: ktests/tests.h
	@mkdir -p $(@D)
	@{ echo '#include <stdlib.h>'; echo '#include "ktests/tests.h"'; \
	  sed -n 's/^enum kt_result \(test_[a-z0-9_]*\)(struct ktest \*t);$$/enum kt_result \1(struct ktest *t) { (void)t; abort(); }/p' $<; } >$@
