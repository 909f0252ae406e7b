# Makefile: the kernel ELF, the hybrid BIOS/UEFI ISO, host tools and every test.
# Entry points: make | make iso | make run | make test | make test-repeat | make soak | make bench |
# make fuzz | make tables | make clean.
# Units add themselves through fragments: tests/host/*.mk (host unit tests), tools/*.mk
# (host programs), tests/fuzz/*.mk (fuzz targets). Kernel sources are every .c and .asm in
# the kernel directories below; nothing else needs listing.

BUILD   ?= build
V       ?= 0
Q       := $(if $(filter 1,$(V)),,@)
KCC     ?= gcc
HOSTCC  ?= gcc
NASM    ?= nasm
QEMU    ?= qemu-system-x86_64

KDIRS   := boot kernel platform apic smp sample pebs ibs loads ktests init
KCSRC   := $(sort $(wildcard $(addsuffix /*.c,$(KDIRS))))
KASRC   := $(sort $(wildcard boot/*.asm))
KOBJ    := $(KCSRC:%.c=$(BUILD)/kernel/%.o) $(KASRC:%.asm=$(BUILD)/kernel/%.o)
KELF    := $(BUILD)/pebs-kernel.elf
ISO     := $(BUILD)/pebs-kernel.iso
GCCINC  := $(shell $(KCC) -print-file-name=include)
VERSION := $(shell git describe --always --dirty 2>/dev/null || echo unknown)

# Kernel code generation: freestanding, no SSE state, no red zone (interrupts reuse the stack).
KCFLAGS := -std=gnu11 -O2 -g -ffreestanding -fno-builtin -nostdlib -nostdinc \
	-isystem $(GCCINC) -Ikernel/freestanding -I. \
	-fno-pic -fno-pie -mcmodel=kernel -mno-red-zone -mgeneral-regs-only \
	-fno-stack-protector -fno-omit-frame-pointer -fno-strict-aliasing \
	-fno-asynchronous-unwind-tables -ffunction-sections \
	-DPEBS_KERNEL_VERSION='"$(VERSION)"' -MMD -MP
# Warnings: -Wall -Wextra plus coreboot's stricter set, all errors.
WARN    := -Wall -Wextra -Werror -Wundef -Wmissing-prototypes -Wstrict-prototypes \
	-Wshadow -Wvla -Wimplicit-fallthrough -Wwrite-strings -Wpointer-arith \
	-Wold-style-definition -Wmissing-include-dirs
KCFLAGS += $(WARN)
KLDFLAGS := -nostdlib -static -no-pie -Wl,--build-id=none -Wl,-z,max-page-size=0x1000 \
	-Wl,-T,linker.ld -Wl,--gc-sections -Wl,-z,noexecstack

# Host builds of the same pure sources: unit tests with ASan/UBSan, tools optimised.
HOST_WARN   := -Wall -Wextra -Werror -Wshadow -Wvla -Wstrict-prototypes -Wno-unused-parameter
HOST_CFLAGS := -std=gnu11 -g -O1 -I. -Itests -fno-omit-frame-pointer \
	-fsanitize=address,undefined -fno-sanitize-recover=all $(HOST_WARN) -MMD -MP
TOOL_CFLAGS := -std=gnu11 -g -O2 -I. $(HOST_WARN) -MMD -MP
CMOCKA_LIBS := -lcmocka

.PHONY: all tools iso netboot run test test-host test-repeat test-boot test-matrix bench fuzz clean deps deps-test soak
all: $(KELF) host

deps:
	@scripts/install-deps.sh

# the test-only packages too (Bochs, a database server, a browser): `make test`, `make
# test-repeat`, `make test-bochs`; never `make run` or `make hwcheck`
deps-test:
	@scripts/install-deps.sh --test

# ---- kernel ----
$(BUILD)/kernel/%.o: %.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(KCC) $(KCFLAGS) -c $< -o $@

$(BUILD)/kernel/%.o: %.asm boot/defs.inc
	@mkdir -p $(@D)
	@$(if $(Q),echo "  NASM    $<")
	$(Q)$(NASM) -f elf64 -g -Iboot/ -o $@ $<

# Two links: the first gives the text addresses, `nm -n` of its text symbols becomes the
# symbol table (kernel/ksyms.h) of the second, whose text must come out identical (the table
# is .rodata, after .text in linker.ld): checked, so a dump never names the wrong function.
KPRE    := $(BUILD)/pebs-kernel.pre.elf
KSYMS_C := $(BUILD)/kernel/ksyms_gen.c
KSYMS_O := $(BUILD)/kernel/ksyms_gen.o
TEXTSYMS = nm -n --defined-only $(1) | awk '$$2 == "T" || $$2 == "t"'

$(KPRE): $(KOBJ) linker.ld
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(KCC) $(KCFLAGS) $(KLDFLAGS) -o $@ $(KOBJ)

$(KSYMS_C): $(KPRE)
	@$(if $(Q),echo "  KSYMS   $@")
	$(Q){ echo '/* GENERATED from $(KPRE) by the Makefile: the kernel symbol table */'; \
	  echo '#include "kernel/ksyms.h"'; echo 'const struct ksym ksym_table[] = {'; \
	  $(call TEXTSYMS,$<) | awk '{ printf "\t{ .addr = 0x%s, .name = \"%s\" },\n", $$1, $$3 }'; \
	  echo '	{ .addr = 0, .name = 0 },'; echo '};'; \
	  echo "const unsigned ksym_count = $$($(call TEXTSYMS,$<) | wc -l);"; } > $@

$(KSYMS_O): $(KSYMS_C)
	$(Q)$(KCC) $(KCFLAGS) -Wno-missing-prototypes -c $< -o $@

$(KELF): $(KOBJ) $(KSYMS_O) linker.ld
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(KCC) $(KCFLAGS) $(KLDFLAGS) -o $@ $(KOBJ) $(KSYMS_O)
	$(Q)$(call TEXTSYMS,$(KPRE)) > $@.pre.syms; $(call TEXTSYMS,$@) > $@.syms; \
	  cmp -s $@.pre.syms $@.syms || { echo "ksyms: text moved between the links" >&2; \
	  rm -f $@; exit 1; }

# ---- ISO (grub-mkrescue: one hybrid image for BIOS and UEFI) ----
$(ISO): $(KELF) iso/grub.cfg
	@rm -rf $(BUILD)/isoroot && mkdir -p $(BUILD)/isoroot/boot/grub
	@cp $(KELF) $(BUILD)/isoroot/boot/pebs-kernel.elf
	@cp iso/grub.cfg $(BUILD)/isoroot/boot/grub/grub.cfg
	@echo "  ISO     $@"
	$(Q)grub-mkrescue -o $@ $(BUILD)/isoroot 2>$(BUILD)/grub-mkrescue.log \
		|| { cat $(BUILD)/grub-mkrescue.log; exit 1; }
iso: $(ISO)

# `make run`: build, boot under QEMU (serial on this terminal), exit status = verdict.
# ARGS="key=value ..." passes a kernel command line; FW=ovmf boots under UEFI; ACCEL=auto|kvm|tcg
# (default auto: KVM with the host's CPU and PMU where usable, else TCG; the run says which, why).
ACCEL ?= auto
run: deps
	@mkdir -p $(BUILD)
	@$(MAKE) --no-print-directory $(ISO) >$(BUILD)/run-build.log 2>&1 \
		|| { cat $(BUILD)/run-build.log; exit 1; }
	@echo "make run: $(ISO) is up to date (build output: $(BUILD)/run-build.log)" >&2
	@tests/boot/qemu-run.sh $(ISO) --accel $(ACCEL) $(if $(FW),--fw $(FW)) $(if $(CPU),--cpu $(CPU)) \
		$(if $(MACHINE),--machine $(MACHINE)) $(if $(MEM),--mem $(MEM)) $(if $(SMP),--smp $(SMP)) \
		$(if $(NUMA),--numa $(NUMA)) -- $(ARGS)

# ---- host: unit tests, tools, fuzz targets ----
HOST_TESTS :=
HOST_TOOLS :=
FUZZ_TARGETS :=
-include $(sort $(wildcard tests/host/*.mk tools/*.mk tests/fuzz/*.mk))

HOST_TEST_BINS := $(HOST_TESTS:%=$(BUILD)/host/tests/%)
HOST_TOOL_BINS := $(HOST_TOOLS:%=$(BUILD)/host/%)

.SECONDEXPANSION:
$(BUILD)/host/tests/%: tests/host/%.c $$($$*_SRCS) $$(wildcard tests/stubs/*.h)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  HOSTCC  $@")
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -MF $@.d -o $@ $< $($*_SRCS) $(CMOCKA_LIBS) $($*_LIBS)

$(BUILD)/host/%: $$($$*_SRCS)
	@mkdir -p $(@D)
	@$(if $(Q),echo "  HOSTCC  $@")
	$(Q)$(HOSTCC) $(TOOL_CFLAGS) $($*_CFLAGS) -MF $@.d -o $@ $($*_SRCS) $($*_LIBS)

host: $(HOST_TEST_BINS) $(HOST_TOOL_BINS)

# `make tools`: only the host programs (build/host/*), none of the unit tests.
tools: $(HOST_TOOL_BINS)

# `make test`: everything, through one TAP harness (prove) with one summary line.
# Test files run TEST_JOBS at a time (default 2: at most two QEMU boots at once), the boot
# matrix (the longest, ~90 s) first so the rest fills the other slot beside it.
TEST_JOBS ?= 2
test: export CMOCKA_MESSAGE_OUTPUT = TAP
test: export PMI_SWEEP_ALL = 1
test: deps-test
	@$(MAKE) --no-print-directory all $(ISO) netboot
	prove -j$(TEST_JOBS) --exec '' tests/boot/boot.t $(HOST_TEST_BINS) $(sort $(wildcard tests/scripts/*.t))

test-host: export CMOCKA_MESSAGE_OUTPUT = TAP
test-host: host
	prove --exec '' $(HOST_TEST_BINS) $(sort $(wildcard tests/scripts/*.t))

# `make test-repeat N=50 [J=2]`: the repeat gate. Every host test binary and tool test
# (tests/scripts/*.t, not the boot tests) N times (default 10), J different tests at a time;
# lists each test that ever failed with how many of its N runs failed (tests/repeat.sh).
# The tool tests go first: they are the long ones (QEMU boots), so J workers balance.
# Left out of the repeat gate, as the QEMU boot matrix (tests/boot/boot.t) is: the tests that
# only boot another emulator (Bochs, QEMU 10) a few minutes each; make test runs them once.
# The model sweeps run whole here as in make test (PMI_SWEEP_ALL=1: every row and seed, a
# few seconds in all); `make soak` runs them over new seeds.
REPEAT_SKIP := tests/scripts/bochs.t tests/scripts/qemu10.t
test-repeat: export PMI_SWEEP_ALL = 1
test-repeat: deps-test
	@$(MAKE) --no-print-directory all $(ISO) netboot
	@tests/repeat.sh -n $(or $(N),10) -j $(or $(J),1) \
		$(filter-out $(REPEAT_SKIP),$(sort $(wildcard tests/scripts/*.t)) $(HOST_TEST_BINS))

# `make soak [SEEDS=N]`: the hostile PMU scenario over N random seeds (default 200); prints
# each failing seed with the command that reproduces it (tests/soak.sh). `make test`
# runs a fixed set of seeds (pmi_hostile_test).
soak: $(BUILD)/host/tests/pmi_hostile_test $(BUILD)/host/tests/pmu_probe_test $(BUILD)/host/tests/trust_test
	@SEEDS=$(or $(SEEDS),200) tests/soak.sh $<

test-boot: $(ISO)
	prove -v --exec '' tests/boot/boot.t

test-matrix: deps
	@$(MAKE) --no-print-directory $(ISO)
	BOOT_SET=matrix prove -v --exec '' tests/boot/boot.t tests/scripts/qemu10.t

bench: deps
	@$(MAKE) --no-print-directory all
	@tests/bench/run.sh

fuzz: deps
	@$(MAKE) --no-print-directory -f tests/fuzz/Makefile.fuzz FUZZ_TARGETS="$(FUZZ_TARGETS)"
	tests/fuzz/log_fuzz.py $(or $(FUZZ_SECONDS),30)

clean:
	rm -rf $(BUILD)

-include $(KOBJ:.o=.d) $(wildcard $(BUILD)/host/*.d $(BUILD)/host/tests/*.d)

# `make netboot`: a GRUB network-boot tree in build/netboot (grub-mknetdir: BIOS PXE
# boot/grub/i386-pc/core.0, UEFI PXE/HTTP boot/grub/x86_64-efi/core.efi) with the kernel and
# iso/grub.cfg; copy it to a TFTP/HTTP server root (docs/netboot.md).
NETBOOT := $(BUILD)/netboot
.PHONY: netboot
netboot: $(NETBOOT)/boot/pebs-kernel.elf
$(NETBOOT)/boot/pebs-kernel.elf: $(KELF) iso/grub.cfg
	@rm -rf $(NETBOOT) && mkdir -p $(NETBOOT)/boot/grub
	@echo "  NETBOOT $(NETBOOT)"
	$(Q)grub-mknetdir --net-directory=$(NETBOOT) --subdir=boot/grub \
		>$(BUILD)/grub-mknetdir.log 2>&1 || { cat $(BUILD)/grub-mknetdir.log; exit 1; }
	@cp iso/grub.cfg $(NETBOOT)/boot/grub/grub.cfg
	@cp $(KELF) $@

# `make tables`: regenerate the per-model PMU tables (pebs/pmu_tables.c, docs/tables.md) from
# the vendored perfmon data and data/tables/*.toml (tools/gen-tables.py). The output is
# committed, so the kernel build needs no Python; tests/scripts/tables.t fails when stale.
.PHONY: tables
tables:
	@tools/gen-tables.py

# `make usb DEV=/dev/sdX`: write the hybrid ISO to a USB stick; asks first, refuses mounted
# and system disks (scripts/usb-write.sh, docs/usb.md).
.PHONY: usb
usb:
	@test -n "$(DEV)" || { echo "usage: make usb DEV=/dev/sdX" >&2; exit 1; }
	@$(MAKE) --no-print-directory $(ISO)
	@scripts/usb-write.sh $(ISO) $(DEV)

# `make test-bochs`: the Bochs boot cases alone, verbose (tests/scripts/bochs.t, ~2 min).
.PHONY: test-bochs
test-bochs: deps-test
	@$(MAKE) --no-print-directory $(ISO)
	prove -v tests/scripts/bochs.t

# `make hwcheck`: one command for a first real machine, under Linux, without a reboot
# (tools/hwcheck): the preflight on every core type, whether perf can sample memory events
# here, loadbench, a KVM run where KVM is usable, and a bundle build/hwcheck/*.tar.gz with a
# one-screen summary. It builds nothing and installs nothing (a lent machine may have only the
# built tree): build first with `make all iso`; what is missing is named in the summary.
# HWCHECK_ARGS="--budget S --no-kvm --out DIR" are passed on.
.PHONY: hwcheck
hwcheck:
	@HWCHECK_BUILD=$(BUILD) tools/hwcheck $(HWCHECK_ARGS)
