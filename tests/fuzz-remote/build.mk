# SPDX-License-Identifier: GPL-2.0
# The coverage-guided remote (docs/fuzz-remote.md): its firmware
# (ampsoc-fuzz-remote.elf, the m3's native x86-64 core), its guest agent
# (/usr/bin/fuzz_remote) and the saved corpus the debug CI replays
# (/lib/firmware/ampsoc-fuzz-remote.corpus). make fuzz-remote runs the
# campaign (tests/fuzz-remote/driver.py).
FZR_SRC := $(ROOT)/tests/fuzz-remote

$(FW_OUT)/m3/fuzz-remote.o: $(FZR_SRC)/fw.c $(FZR_SRC)/prog.h $(FW_HDRS)
	@mkdir -p $(@D)
	$(fw_cc_m3) -I$(FZR_SRC) -c -o $@ $<

$(BUILD)/guest/fuzz_remote: $(FZR_SRC)/agent.c $(FZR_SRC)/prog.h \
		$(ROOT)/tests/lib/ktap_user.h $(ROOT)/tests/lib/guest_util.h
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -I$(ROOT)/tests/lib -I$(FZR_SRC) -o $@ $<

GUEST_FIRMWARE += $(FW_OUT)/ampsoc-fuzz-remote.elf $(FZR_SRC)/ampsoc-fuzz-remote.corpus
GUEST_PROGS += $(BUILD)/guest/fuzz_remote
