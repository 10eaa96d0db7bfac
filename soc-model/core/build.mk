# SPDX-License-Identifier: GPL-2.0
# The remote-core runner (ampsoc-core): one host process per remote core,
# started by the SoC model. Included by soc-model/build.mk; the firmware
# unit tests (firmware/build.mk) run it, so this comes first.

CORE_BIN := $(BUILD)/soc-model/ampsoc-core
HOST_BINS += $(CORE_BIN)

# PIE, so that the runner and its libraries live far above any core's
# device addresses (the runner checks anyway). The emulated cores (emu*.c,
# gdbstub.c) run on Debian's Unicorn (libunicorn-dev), which the runner
# opens only for them (unicorn-dl.c): not linked, so the native cores do
# not pay for loading it.
CORE_SRCS := $(addprefix $(ROOT)/soc-model/core/,ampsoc-core.c emu.c emu-armv7m.c \
	emu-rv32.c gdbstub.c unicorn-dl.c)
CORE_HDRS := $(wildcard $(ROOT)/soc-model/core/*.h) \
	$(wildcard $(ROOT)/include/uapi/ampsoc/*.h)

$(CORE_BIN): $(CORE_SRCS) $(CORE_HDRS)
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) -fPIE -pie -o $@ $(CORE_SRCS) -lpthread
