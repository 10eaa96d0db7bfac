# SPDX-License-Identifier: GPL-2.0
# libFuzzer target of the firmware SDK's rpmsg library, against a driver
# side that writes anything anywhere (firmware/build.mk defines FW_*).
FW_FUZZ := $(FW_OUT)/firmware_rpmsg_fuzz
FW_FUZZ_SRC := $(ROOT)/tests/fuzz/firmware
$(FW_FUZZ): $(FW_FUZZ_SRC)/fuzz_rpmsg.c $(FW_RPMSG_SRCS) $(FW_HDRS)
	@mkdir -p $(@D)
	$(FUZZ_CC) -std=gnu11 -g -O1 -Wall -Wextra -Werror -Wno-unused-parameter \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-I$(FW_SRC)/include -I$(ROOT)/include -Wl,--defsym=LLVMFuzzerTestOneInput=fw_rpmsg_fuzz_one \
		-o $@ $(FW_FUZZ_SRC)/fuzz_rpmsg.c $(FW_RPMSG_SRCS)

FUZZ_TARGETS += $(FW_FUZZ)
