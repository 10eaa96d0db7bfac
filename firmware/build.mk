# SPDX-License-Identifier: GPL-2.0
# The remote-core side: the firmware SDK, the sample firmware and their
# host unit tests; the core runner they run on is soc-model/core/build.mk's.
# Included by the top-level Makefile; see docs/firmware-sdk.md.

FW_SRC   := $(ROOT)/firmware
# Firmware only tests boot (crash, hang, hostile remotes); built as the samples.
FW_TEST_SRC := $(ROOT)/tests/firmware
FW_OUT   := $(BUILD)/firmware
FW_CORES := m3 dsp m4 rv

# ---- firmware -------------------------------------------------------------

# Cores and their instruction sets: the native x86-64 cores m3 and dsp (the
# host's gcc), the emulated m4 (ARMv7-M, Debian's gcc-arm-none-eabi) and rv
# (RV32IMAC, Debian's gcc-riscv64-unknown-elf). Every image links the SDK's
# own freestanding libc (docs/firmware-sdk.md), plus libgcc for 64-bit
# arithmetic on the 32-bit cores. ampsoc-NAME.elf is the m3's image,
# ampsoc-NAME-CORE.elf another core's.
FW_ISAS := x86_64 armv7m rv32
FW_ISA_m3 := x86_64
FW_ISA_dsp := x86_64
FW_ISA_m4 := armv7m
FW_ISA_rv := rv32
FW_SUFFIX_m3 :=
FW_SUFFIX_dsp := -dsp
FW_SUFFIX_m4 := -m4
FW_SUFFIX_rv := -rv

FW_CC_x86_64 := $(CC)
FW_CC_armv7m := arm-none-eabi-gcc
FW_CC_rv32 := riscv64-unknown-elf-gcc
FW_ARCH_x86_64 := -fno-pic -fno-pie -mcmodel=small -fcf-protection=none
FW_ARCH_armv7m := -fno-pic -mcpu=cortex-m4 -mthumb -mfloat-abi=soft
FW_ARCH_rv32 := -fno-pic -march=rv32imac_zicsr_zifencei -mabi=ilp32 -mno-relax \
	-msmall-data-limit=0
# No --gc-sections on ARMv7-M: ld points the debug info of the functions it
# drops at address 0, where the m4's vector table and startup code are, and
# gdb would take them for those functions.
FW_LDARCH_x86_64 := -no-pie -Wl,-z,noexecstack -Wl,-z,noseparate-code -Wl,--gc-sections
FW_LDARCH_armv7m :=
FW_LDARCH_rv32 := -Wl,--no-relax -Wl,--gc-sections
# libgcc of the right multilib (the RISC-V driver matches plain rv32imac only).
FW_LIBGCC_x86_64 :=
FW_LIBGCC_armv7m := $(shell $(FW_CC_armv7m) -mcpu=cortex-m4 -mthumb -mfloat-abi=soft \
	-print-libgcc-file-name 2>/dev/null)
FW_LIBGCC_rv32 := $(shell $(FW_CC_rv32) -march=rv32imac -mabi=ilp32 \
	-print-libgcc-file-name 2>/dev/null)

FW_COMMON_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -Wmissing-prototypes \
	-Wno-unused-parameter -ffreestanding -nostdinc \
	-I$(FW_SRC)/include/libc -I$(FW_SRC)/include -I$(ROOT)/include \
	-fno-stack-protector -fno-asynchronous-unwind-tables -fno-unwind-tables \
	-fno-strict-aliasing -fno-tree-loop-distribute-patterns \
	-ffunction-sections -fdata-sections
FW_COMMON_LDFLAGS := -nostdlib -static -Wl,--build-id=none \
	-Wl,-z,max-page-size=4096 -Wl,--orphan-handling=error -Wl,--no-warn-rwx-segments
# Each compiler's own headers (stddef.h, stdint.h, stdarg.h).
$(foreach i,$(FW_ISAS),$(eval FW_CFLAGS_$(i) := $(FW_COMMON_CFLAGS) $(FW_ARCH_$(i)) \
	-isystem $(shell $(FW_CC_$(i)) -print-file-name=include 2>/dev/null)))
$(foreach i,$(FW_ISAS),$(eval FW_LDFLAGS_$(i) := $(FW_COMMON_LDFLAGS) $(FW_ARCH_$(i)) \
	$(FW_LDARCH_$(i))))
FW_GCC_INC := $(shell $(CC) -print-file-name=include)
FW_CFLAGS := $(FW_CFLAGS_x86_64)

# The SDK library, once per instruction set: the same sources everywhere
# but the platform_ port (the boot ROM on x86-64, the core peripheral's
# registers on the emulated cores) and its startup code.
FW_LIB_SRCS := lib/start.c lib/string.c lib/vsnprintf.c lib/trace.c lib/log.c lib/crc32.c \
	lib/virtqueue.c lib/rpmsg.c lib/resmgr.c port/env/bm/env_bm.c \
	port/platform/common/platform_common.c
FW_PORT_x86_64 := port/platform/ampsoc/crt0.S port/platform/ampsoc/platform_ampsoc.c
FW_PORT_armv7m := port/platform/armv7m/crt0.S port/platform/armv7m/vectors.c \
	port/platform/mmio/platform_mmio.c
FW_PORT_rv32 := port/platform/rv32/crt0.S port/platform/rv32/trap.c \
	port/platform/mmio/platform_mmio.c
FW_HDRS := $(wildcard $(FW_SRC)/include/*/*.h $(FW_SRC)/include/amp/core/*.h \
	$(FW_SRC)/lib/*.h $(FW_SRC)/port/platform/*/*.h $(FW_SRC)/examples/*.h) \
	$(wildcard $(ROOT)/include/uapi/ampsoc/*.h) $(ROOT)/tests/lib/rpmsg_check.h $(FW_SRC)/build.mk

define FW_ISA_RULES
FW_LIB_OBJS_$(1) := $(patsubst %,$(FW_OUT)/obj-$(1)/%.o,$(basename $(FW_LIB_SRCS) $(FW_PORT_$(1))))

$(FW_OUT)/obj-$(1)/lib/string.o: FW_EXTRA_CFLAGS := -fno-builtin

$(FW_OUT)/obj-$(1)/%.o: $(FW_SRC)/%.c $(FW_HDRS)
	@mkdir -p $$(@D)
	$(FW_CC_$(1)) $(FW_CFLAGS_$(1)) $$(FW_EXTRA_CFLAGS) -c -o $$@ $$<

$(FW_OUT)/obj-$(1)/%.o: $(FW_SRC)/%.S $(FW_SRC)/build.mk
	@mkdir -p $$(@D)
	$(FW_CC_$(1)) $(FW_CFLAGS_$(1)) -c -o $$@ $$<

.PRECIOUS: $(FW_OUT)/obj-$(1)/%.o
endef
$(foreach i,$(FW_ISAS),$(eval $(call FW_ISA_RULES,$(i))))
FW_LIB_OBJS := $(FW_LIB_OBJS_x86_64)

# One linker script per core memory map.
$(FW_OUT)/%.ld: $(FW_SRC)/ld/core.ld.S $(FW_SRC)/include/amp/core/%.h
	@mkdir -p $(@D)
	$(CC) -E -P -undef -x c -include $(FW_SRC)/include/amp/core/$*.h -o $@ $<

# The misbehaving rpmsg remote, one image per mode. The chaos mode draws a
# new seed from the clock at every boot and logs it (the scenario prints
# it); CHAOS_SEED=N builds a firmware that replays seed N.
CHAOS_SEED ?= clock
FW_BAD_MODES := badlen badid badidx nsbad nsflood unknown badaddr flood chaos \
	nsown flagrace
# The seed is in the objects' flags: a stamp holding it, checked on every
# run but rewritten only when it changes, rebuilds them when another seed
# is asked for.
CHAOS_STAMP := $(FW_OUT)/chaos-seed
$(CHAOS_STAMP): fw-chaos-seed-force
	@mkdir -p $(@D)
	@echo '$(CHAOS_SEED)' | cmp -s - $@ || echo '$(CHAOS_SEED)' >$@
.PHONY: fw-chaos-seed-force

# Sample firmware of core $(1): each example; the misbehaving remote; the
# echo server offering ampsoc's negotiated buffer size and flow control
# (big); the echo server without a name service, as firmware that cannot
# announce (nons: Linux knows its services from the board's static channels);
# the rpmsg samples without their vdev0buffer carveout (nobuf: the images
# mainline's stack runs, docs/firmware-sdk.md).
define FW_CORE_RULES
fw_cc_$(1) = $(FW_CC_$(FW_ISA_$(1))) $(FW_CFLAGS_$(FW_ISA_$(1))) \
	-include $(FW_SRC)/include/amp/core/$(1).h -I$(ROOT)/tests/lib

$(FW_OUT)/$(1)/%.o: $(FW_SRC)/examples/%.c $(FW_HDRS)
	@mkdir -p $$(@D)
	$$(fw_cc_$(1)) -c -o $$@ $$<

$(FW_OUT)/$(1)/%.o: $(FW_TEST_SRC)/%.c $(FW_HDRS)
	@mkdir -p $$(@D)
	$$(fw_cc_$(1)) -I$(FW_SRC)/examples -c -o $$@ $$<

$(FW_OUT)/$(1)/rpmsg-bad-%.o: $(FW_TEST_SRC)/rpmsg-bad.c $(FW_HDRS) $(CHAOS_STAMP)
	@mkdir -p $$(@D)
	$$(fw_cc_$(1)) -DBAD_MODE='"$$*"' \
		$(if $(filter-out clock,$(CHAOS_SEED)),-DCHAOS_SEED=$(CHAOS_SEED)ull) -c -o $$@ $$<

$(FW_OUT)/$(1)/rpmsg-echo-big.o: $(FW_SRC)/examples/rpmsg-echo.c $(FW_HDRS)
	@mkdir -p $$(@D)
	$$(fw_cc_$(1)) -DECHO_BUF_SIZE=2048 -c -o $$@ $$<

$(FW_OUT)/$(1)/rpmsg-echo-nons.o: $(FW_SRC)/examples/rpmsg-echo.c $(FW_HDRS)
	@mkdir -p $$(@D)
	$$(fw_cc_$(1)) -DECHO_NO_NS -c -o $$@ $$<

$(FW_OUT)/$(1)/%-nobuf.o: $(FW_SRC)/examples/%.c $(FW_HDRS)
	@mkdir -p $$(@D)
	$$(fw_cc_$(1)) -DSAMPLE_NO_VDEV_BUFFER -c -o $$@ $$<

$(FW_OUT)/$(1)/%-nobuf.o: $(FW_TEST_SRC)/%.c $(FW_HDRS)
	@mkdir -p $$(@D)
	$$(fw_cc_$(1)) -I$(FW_SRC)/examples -DSAMPLE_NO_VDEV_BUFFER -c -o $$@ $$<

$(FW_OUT)/ampsoc-%$(FW_SUFFIX_$(1)).elf: $(FW_OUT)/$(1)/%.o $$(FW_LIB_OBJS_$(FW_ISA_$(1))) \
		$(FW_OUT)/$(1).ld
	$(FW_CC_$(FW_ISA_$(1))) $(FW_LDFLAGS_$(FW_ISA_$(1))) -T $(FW_OUT)/$(1).ld -o $$@ $$< \
		$$(FW_LIB_OBJS_$(FW_ISA_$(1))) $(FW_LIBGCC_$(FW_ISA_$(1)))

.PRECIOUS: $(FW_OUT)/$(1)/%.o $(FW_OUT)/$(1)/rpmsg-bad-%.o $(FW_OUT)/$(1)/%-nobuf.o
endef
$(foreach c,m3 dsp m4 rv,$(eval $(call FW_CORE_RULES,$(c))))

FW_EXAMPLES := hello crash hang rpmsg-echo rpmsg-resmgr rpmsg-check vring-poke
FW_VARIANTS := rpmsg-echo-big rpmsg-echo-nons $(addprefix rpmsg-bad-,$(FW_BAD_MODES))
FW_NOBUF := rpmsg-echo-nobuf rpmsg-check-nobuf rpmsg-resmgr-nobuf
# The native images: every example for the m3 and the DSP, the variants
# for the m3 only; the emulated cores get all of them.
FW_ELFS := $(foreach e,$(FW_EXAMPLES) $(FW_NOBUF),$(FW_OUT)/ampsoc-$(e).elf \
		$(FW_OUT)/ampsoc-$(e)-dsp.elf) \
	$(foreach v,$(FW_VARIANTS),$(FW_OUT)/ampsoc-$(v).elf)
FW_ELFS_EMU := $(foreach c,m4 rv,$(foreach e,$(FW_EXAMPLES) $(FW_VARIANTS) $(FW_NOBUF),\
	$(FW_OUT)/ampsoc-$(e)-$(c).elf))
GUEST_FIRMWARE += $(FW_ELFS) $(FW_ELFS_EMU)
CHECK_DEPS += isa

.PRECIOUS: $(FW_OUT)/%.ld

# ---- host unit tests --------------------------------------------------------

FW_UT_OUT := $(BUILD)/tests/unit
FW_UT_SRC := $(ROOT)/tests/unit/firmware
FW_UT_CFLAGS := $(HOST_CFLAGS) -I$(ROOT)/tests/lib -I$(FW_SRC)/include

# The libc subset, compiled for the host and renamed (fwlibc_memcpy, ...) so
# the test compares it against the host's libc in one program.
$(FW_UT_OUT)/fwlibc.o: $(FW_SRC)/lib/string.c $(FW_SRC)/lib/vsnprintf.c $(FW_HDRS)
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -ffreestanding -nostdinc \
		-isystem $(FW_GCC_INC) -I$(FW_SRC)/include/libc -fPIE -fno-builtin \
		-fno-strict-aliasing -fno-tree-loop-distribute-patterns \
		-fno-stack-protector -c -o $(@:.o=-string.o) $(FW_SRC)/lib/string.c
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -ffreestanding -nostdinc \
		-isystem $(FW_GCC_INC) -I$(FW_SRC)/include/libc -fPIE -fno-builtin \
		-fno-strict-aliasing -fno-tree-loop-distribute-patterns \
		-fno-stack-protector -c -o $(@:.o=-printf.o) $(FW_SRC)/lib/vsnprintf.c
	$(LD) -r -o $(@:.o=-raw.o) $(@:.o=-string.o) $(@:.o=-printf.o)
	objcopy --prefix-symbols=fwlibc_ $(@:.o=-raw.o) $@

$(FW_UT_OUT)/firmware_libc: $(FW_UT_SRC)/libc.c $(FW_UT_SRC)/fwlibc.h $(FW_UT_OUT)/fwlibc.o
	$(CC) $(FW_UT_CFLAGS) -fno-builtin -o $@ $< $(FW_UT_OUT)/fwlibc.o

$(FW_UT_OUT)/firmware_trace: $(FW_UT_SRC)/trace.c $(FW_SRC)/lib/trace.c $(FW_HDRS)
	@mkdir -p $(@D)
	$(CC) $(FW_UT_CFLAGS) -o $@ $(FW_UT_SRC)/trace.c $(FW_SRC)/lib/trace.c

$(FW_UT_OUT)/firmware_rsc: $(FW_UT_SRC)/rsc.c $(FW_HDRS)
	@mkdir -p $(@D)
	$(CC) $(FW_UT_CFLAGS) -include $(FW_SRC)/include/amp/core/m3.h -o $@ $<

# Test-only firmware (not installed): probe reports what each boot-ROM
# call or peripheral register did, badrsc has a malformed resource table,
# fault (emulated cores) faults as its core's name says, irq follows the
# interrupt controller's rules, spin counts (firmware_isa --bench).
FW_UT_FW := $(FW_UT_OUT)/ampsoc-probe.elf $(FW_UT_OUT)/ampsoc-badrsc.elf \
	$(FW_UT_OUT)/ampsoc-spin.elf
FW_UT_FW_EMU := $(foreach c,m4 rv,$(foreach t,probe badrsc fault irq spin,\
	$(FW_UT_OUT)/ampsoc-$(t)-$(c).elf))
# The spin firmware goes into the guest too: the per-ISA benchmark
# (tests/bench/core_isa.sh) counts each core's instructions per second with it.
GUEST_FIRMWARE += $(FW_UT_OUT)/ampsoc-spin.elf $(FW_UT_OUT)/ampsoc-spin-m4.elf \
	$(FW_UT_OUT)/ampsoc-spin-rv.elf

define FW_UT_CORE_RULES
$(FW_UT_OUT)/fw-$(1)/%.o: $(FW_UT_SRC)/%.c $(FW_HDRS)
	@mkdir -p $$(@D)
	$$(fw_cc_$(1)) -c -o $$@ $$<

$(FW_UT_OUT)/ampsoc-%$(FW_SUFFIX_$(1)).elf: $(FW_UT_OUT)/fw-$(1)/%.o \
		$$(FW_LIB_OBJS_$(FW_ISA_$(1))) $(FW_OUT)/$(1).ld
	$(FW_CC_$(FW_ISA_$(1))) $(FW_LDFLAGS_$(FW_ISA_$(1))) -T $(FW_OUT)/$(1).ld -o $$@ $$< \
		$$(FW_LIB_OBJS_$(FW_ISA_$(1))) $(FW_LIBGCC_$(FW_ISA_$(1)))

.PRECIOUS: $(FW_UT_OUT)/fw-$(1)/%.o
endef
$(foreach c,m3 m4 rv,$(eval $(call FW_UT_CORE_RULES,$(c))))

# Spawns the runner on a memfd loaded with the sample firmware.
$(FW_UT_OUT)/firmware_core: $(FW_UT_SRC)/core.c $(FW_UT_SRC)/runner.h $(CORE_BIN) \
		$(FW_ELFS) $(FW_ELFS_EMU) $(FW_UT_FW) $(FW_UT_FW_EMU)
	@mkdir -p $(@D)
	$(CC) $(FW_UT_CFLAGS) -DCORE_BIN='"$(CORE_BIN)"' -DFW_DIR='"$(FW_OUT)"' \
		-DPROBE_DIR='"$(FW_UT_OUT)"' \
		-include $(FW_SRC)/include/amp/core/m3.h -o $@ $<

# The device-side virtqueue and rpmsg library against a driver-side test
# ring, on a simulated platform_ port.
FW_RPMSG_SRCS := $(FW_SRC)/lib/rpmsg.c $(FW_SRC)/lib/virtqueue.c \
	$(FW_SRC)/port/env/bm/env_bm.c
$(FW_UT_OUT)/firmware_rpmsg: $(FW_UT_SRC)/rpmsg.c $(FW_RPMSG_SRCS) $(FW_HDRS)
	@mkdir -p $(@D)
	$(CC) $(FW_UT_CFLAGS) -o $@ $(FW_UT_SRC)/rpmsg.c $(FW_RPMSG_SRCS)

UNIT_TESTS += $(FW_UT_OUT)/firmware_rpmsg

# The resource-manager client against a scripted rpmsg layer and server.
$(FW_UT_OUT)/firmware_resmgr: $(FW_UT_SRC)/resmgr.c $(FW_SRC)/lib/resmgr.c $(FW_HDRS)
	@mkdir -p $(@D)
	$(CC) $(FW_UT_CFLAGS) -o $@ $(FW_UT_SRC)/resmgr.c $(FW_SRC)/lib/resmgr.c

UNIT_TESTS += $(FW_UT_OUT)/firmware_resmgr

# The SDK's CRC-32 against zlib's, which the hosted side of every check uses.
$(FW_UT_OUT)/firmware_crc32: $(FW_UT_SRC)/crc32.c $(FW_SRC)/lib/crc32.c $(FW_HDRS)
	@mkdir -p $(@D)
	$(CC) $(FW_UT_CFLAGS) -o $@ $(FW_UT_SRC)/crc32.c $(FW_SRC)/lib/crc32.c -lz

UNIT_TESTS += $(FW_UT_OUT)/firmware_crc32

# The emulated cores: faults, firewall, sandbox, gdb (tests/unit/firmware/isa.c).
$(FW_UT_OUT)/firmware_isa: $(FW_UT_SRC)/isa.c $(FW_UT_SRC)/runner.h $(CORE_BIN) \
		$(FW_ELFS_EMU) $(FW_UT_FW) $(FW_UT_FW_EMU)
	@mkdir -p $(@D)
	$(CC) $(FW_UT_CFLAGS) -DCORE_BIN='"$(CORE_BIN)"' -DFW_DIR='"$(FW_OUT)"' \
		-DPROBE_DIR='"$(FW_UT_OUT)"' -o $@ $<

UNIT_TESTS += $(FW_UT_OUT)/firmware_isa
UNIT_TESTS += $(FW_UT_OUT)/firmware_libc $(FW_UT_OUT)/firmware_trace \
	$(FW_UT_OUT)/firmware_rsc $(FW_UT_OUT)/firmware_core

# The fuzz target of the rpmsg library: tests/fuzz/firmware/build.mk.

# A Cortex-M4 firmware written without the SDK, as a user's own is
# (docs/porting-firmware.md): the cross compiler, ampsoc's uapi headers
# and its own linker script, nothing else. In the guest for core_hello's
# m4 run; firmware_porting checks the image and boots it on the runner.
FW_BARE_M4 := $(FW_OUT)/ampsoc-bare-m4.elf
$(FW_BARE_M4): $(FW_SRC)/examples/bare-m4/bare-m4.c $(FW_SRC)/examples/bare-m4/bare-m4.h \
		$(FW_SRC)/examples/bare-m4/bare-m4.ld \
		$(wildcard $(ROOT)/include/uapi/ampsoc/*.h)
	@mkdir -p $(@D)
	$(FW_CC_armv7m) -std=gnu11 -O2 -g -Wall -Wextra -Werror -mcpu=cortex-m4 -mthumb \
		-mfloat-abi=soft -ffreestanding -nostdlib -fno-tree-loop-distribute-patterns \
		-I$(ROOT)/include -Wl,-z,max-page-size=4096 -Wl,--build-id=none \
		-T $(FW_SRC)/examples/bare-m4/bare-m4.ld -o $@ $<
GUEST_FIRMWARE += $(FW_BARE_M4)

$(FW_UT_OUT)/firmware_porting: $(ROOT)/tests/unit/firmware/porting.py $(FW_BARE_M4) $(CORE_BIN) \
		$(ROOT)/soc-model/boards/omap4.ini
	@mkdir -p $(@D)
	printf '#!/bin/sh\nexec python3 %s %s %s %s\n' $(ROOT)/tests/unit/firmware/porting.py \
		$(FW_BARE_M4) $(CORE_BIN) $(ROOT)/soc-model/boards/omap4.ini >$@
	chmod +x $@

UNIT_TESTS += $(FW_UT_OUT)/firmware_porting
