# SPDX-License-Identifier: GPL-2.0
# The remote-core side: the core runner (ampsoc-core), the firmware SDK,
# the sample firmware and their host unit tests. Included by the top-level
# Makefile; see docs/firmware-sdk.md.

FW_SRC   := $(ROOT)/firmware
FW_OUT   := $(BUILD)/firmware
FW_CORES := m3 dsp

# ---- the core runner ------------------------------------------------------

CORE_BIN := $(BUILD)/soc-model/ampsoc-core
HOST_BINS += $(CORE_BIN)

# PIE, so that the runner and its libraries live far above any core's
# device addresses (the runner checks anyway). The emulated cores (emu*.c,
# gdbstub.c) run on Debian's Unicorn (libunicorn-dev), which the runner
# opens only for them (unicorn-dl.c): not linked, so the native cores do
# not pay for loading it.
CORE_SRCS := $(addprefix $(ROOT)/soc-model/core/,ampsoc-core.c emu.c emu-armv7m.c \
	emu-rv32.c gdbstub.c unicorn-dl.c)
CORE_HDRS := $(wildcard $(ROOT)/soc-model/core/*.h) $(ROOT)/include/ampsoc/bootrom.h \
	$(ROOT)/include/ampsoc/core_fault.h $(ROOT)/include/ampsoc/core_mmio.h

$(CORE_BIN): $(CORE_SRCS) $(CORE_HDRS)
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) -fPIE -pie -o $@ $(CORE_SRCS) -lpthread

# ---- firmware -------------------------------------------------------------

FW_GCC_INC := $(shell $(CC) -print-file-name=include)
FW_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -Wmissing-prototypes \
	-Wno-unused-parameter -ffreestanding -nostdinc -isystem $(FW_GCC_INC) \
	-I$(FW_SRC)/include/libc -I$(FW_SRC)/include -I$(ROOT)/include \
	-fno-pic -fno-pie -mcmodel=small -fno-stack-protector \
	-fno-asynchronous-unwind-tables -fno-unwind-tables -fcf-protection=none \
	-fno-strict-aliasing -fno-tree-loop-distribute-patterns \
	-ffunction-sections -fdata-sections
FW_LDFLAGS := -nostdlib -static -no-pie -Wl,--build-id=none -Wl,--gc-sections \
	-Wl,-z,max-page-size=4096 -Wl,-z,noexecstack -Wl,-z,noseparate-code \
	-Wl,--orphan-handling=error -Wl,--no-warn-rwx-segments

# The SDK library: the same objects for every core.
FW_LIB_SRCS := lib/crt0.S lib/start.c lib/string.c lib/vsnprintf.c \
	lib/trace.c lib/log.c lib/virtqueue.c lib/rpmsg.c lib/resmgr.c \
	port/env/bm/env_bm.c \
	port/platform/ampsoc/platform_ampsoc.c
FW_LIB_OBJS := $(patsubst %,$(FW_OUT)/%.o,$(basename $(FW_LIB_SRCS)))
FW_HDRS := $(wildcard $(FW_SRC)/include/*/*.h $(FW_SRC)/include/amp/core/*.h $(FW_SRC)/lib/*.h) \
	$(ROOT)/include/ampsoc/bootrom.h $(ROOT)/include/ampsoc/rpmsg_resmgr.h \
	$(FW_SRC)/build.mk

$(FW_OUT)/lib/string.o: FW_EXTRA_CFLAGS := -fno-builtin

$(FW_OUT)/%.o: $(FW_SRC)/%.c $(FW_HDRS)
	@mkdir -p $(@D)
	$(CC) $(FW_CFLAGS) $(FW_EXTRA_CFLAGS) -c -o $@ $<

$(FW_OUT)/%.o: $(FW_SRC)/%.S $(FW_SRC)/build.mk
	@mkdir -p $(@D)
	$(CC) $(FW_CFLAGS) -c -o $@ $<

# One linker script per core memory map.
$(FW_OUT)/%.ld: $(FW_SRC)/ld/core.ld.S $(FW_SRC)/include/amp/core/%.h
	@mkdir -p $(@D)
	$(CC) -E -P -undef -x c -include $(FW_SRC)/include/amp/core/$*.h -o $@ $<

# Sample firmware: ampsoc-<name>.elf for the M3, ampsoc-<name>-dsp.elf for
# the DSP.
FW_EXAMPLES := hello crash hang rpmsg-echo rpmsg-resmgr rpmsg-check

$(FW_OUT)/m3/%.o: $(FW_SRC)/examples/%.c $(FW_HDRS)
	@mkdir -p $(@D)
	$(CC) $(FW_CFLAGS) -include $(FW_SRC)/include/amp/core/m3.h -c -o $@ $<

$(FW_OUT)/dsp/%.o: $(FW_SRC)/examples/%.c $(FW_HDRS)
	@mkdir -p $(@D)
	$(CC) $(FW_CFLAGS) -include $(FW_SRC)/include/amp/core/dsp.h -c -o $@ $<

$(FW_OUT)/ampsoc-%-dsp.elf: $(FW_OUT)/dsp/%.o $(FW_LIB_OBJS) $(FW_OUT)/dsp.ld
	$(CC) $(FW_LDFLAGS) -T $(FW_OUT)/dsp.ld -o $@ $< $(FW_LIB_OBJS)

$(FW_OUT)/ampsoc-%.elf: $(FW_OUT)/m3/%.o $(FW_LIB_OBJS) $(FW_OUT)/m3.ld
	$(CC) $(FW_LDFLAGS) -T $(FW_OUT)/m3.ld -o $@ $< $(FW_LIB_OBJS)

FW_ELFS := $(foreach e,$(FW_EXAMPLES),$(FW_OUT)/ampsoc-$(e).elf $(FW_OUT)/ampsoc-$(e)-dsp.elf)

# The misbehaving rpmsg remote, one M3 image per mode. The chaos mode
# draws a new seed from the clock at every boot and logs it (the scenario
# prints it); CHAOS_SEED=N builds a firmware that replays seed N.
CHAOS_SEED ?= clock
FW_BAD_MODES := badlen badid badidx nsbad nsflood unknown badaddr flood chaos
# The seed is in the objects' flags: a stamp holding it, rewritten only
# when it changes, rebuilds them when another seed is asked for.
CHAOS_STAMP := $(FW_OUT)/chaos-seed
$(shell mkdir -p $(FW_OUT) && echo '$(CHAOS_SEED)' | cmp -s - $(CHAOS_STAMP) || \
	echo '$(CHAOS_SEED)' >$(CHAOS_STAMP))

$(FW_OUT)/m3/rpmsg-bad-%.o: $(FW_SRC)/examples/rpmsg-bad.c $(FW_HDRS) $(CHAOS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(FW_CFLAGS) -include $(FW_SRC)/include/amp/core/m3.h \
		-DBAD_MODE='"$*"' $(if $(filter-out clock,$(CHAOS_SEED)),-DCHAOS_SEED=$(CHAOS_SEED)ull) \
		-c -o $@ $<

FW_ELFS += $(foreach m,$(FW_BAD_MODES),$(FW_OUT)/ampsoc-rpmsg-bad-$(m).elf)

# The echo server offering ampsoc's negotiated buffer size and flow control.
$(FW_OUT)/m3/rpmsg-echo-big.o: $(FW_SRC)/examples/rpmsg-echo.c $(FW_HDRS)
	@mkdir -p $(@D)
	$(CC) $(FW_CFLAGS) -include $(FW_SRC)/include/amp/core/m3.h \
		-DECHO_BUF_SIZE=2048 -c -o $@ $<

FW_ELFS += $(FW_OUT)/ampsoc-rpmsg-echo-big.elf

# The echo server without a name service, as firmware that cannot announce:
# Linux knows its services only from the board's static channels.
$(FW_OUT)/m3/rpmsg-echo-nons.o: $(FW_SRC)/examples/rpmsg-echo.c $(FW_HDRS)
	@mkdir -p $(@D)
	$(CC) $(FW_CFLAGS) -include $(FW_SRC)/include/amp/core/m3.h \
		-DECHO_NO_NS -c -o $@ $<

FW_ELFS += $(FW_OUT)/ampsoc-rpmsg-echo-nons.elf
GUEST_FIRMWARE += $(FW_ELFS)

.PRECIOUS: $(FW_OUT)/%.o $(FW_OUT)/m3/%.o $(FW_OUT)/dsp/%.o $(FW_OUT)/%.ld \
	$(BUILD)/tests/unit/fw-%.o

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
# call did, badrsc has a malformed resource table.
FW_UT_FW := $(FW_UT_OUT)/ampsoc-probe.elf $(FW_UT_OUT)/ampsoc-badrsc.elf

$(FW_UT_OUT)/fw-%.o: $(FW_UT_SRC)/%.c $(FW_HDRS)
	@mkdir -p $(@D)
	$(CC) $(FW_CFLAGS) -include $(FW_SRC)/include/amp/core/m3.h -c -o $@ $<

$(FW_UT_OUT)/ampsoc-%.elf: $(FW_UT_OUT)/fw-%.o $(FW_LIB_OBJS) $(FW_OUT)/m3.ld
	$(CC) $(FW_LDFLAGS) -T $(FW_OUT)/m3.ld -o $@ $< $(FW_LIB_OBJS)

# Spawns the runner on a memfd loaded with the sample firmware.
$(FW_UT_OUT)/firmware_core: $(FW_UT_SRC)/core.c $(CORE_BIN) $(FW_ELFS) \
		$(FW_UT_FW)
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
UNIT_TESTS += $(FW_UT_OUT)/firmware_libc $(FW_UT_OUT)/firmware_trace \
	$(FW_UT_OUT)/firmware_rsc $(FW_UT_OUT)/firmware_core

# ---- fuzzing --------------------------------------------------------------

# The rpmsg library against a driver side that writes anything anywhere.
FW_FUZZ := $(FW_OUT)/firmware_rpmsg_fuzz
$(FW_FUZZ): $(FW_UT_SRC)/fuzz_rpmsg.c $(FW_RPMSG_SRCS) $(FW_HDRS)
	@mkdir -p $(@D)
	clang -std=gnu11 -g -O1 -Wall -Wextra -Werror -Wno-unused-parameter \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-I$(FW_SRC)/include -Wl,--defsym=LLVMFuzzerTestOneInput=fw_rpmsg_fuzz_one \
		-o $@ $(FW_UT_SRC)/fuzz_rpmsg.c $(FW_RPMSG_SRCS)

FUZZ_TARGETS += $(FW_FUZZ)
