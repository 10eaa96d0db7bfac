# SPDX-License-Identifier: GPL-2.0
# libFuzzer targets of the SoC model: the board-file parser (board_fuzz.c)
# and the board-table checker (table_fuzz.c), which is the kernel's own
# drivers/vsoc/vsoc_board.c behind the model's seam (soc-model/build.mk
# defines SOCMODEL_*).
SOCMODEL_FUZZ_SRC := $(ROOT)/tests/fuzz/socmodel
SOCMODEL_FUZZ := $(SOCMODEL_OUT)/fuzz/socmodel_board $(SOCMODEL_OUT)/fuzz/socmodel_table
FUZZ_TARGETS += $(SOCMODEL_FUZZ)

SOCMODEL_FUZZ_CFLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all

$(SOCMODEL_OUT)/fuzz/socmodel_%: $(SOCMODEL_FUZZ_SRC)/%_fuzz.c \
		$(addprefix $(SOCMODEL_DIR)/,$(SOCMODEL_LIB)) \
		$(SOCMODEL_HDRS) $(SOCMODEL_KSRCS) $(SOCMODEL_KHDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(SOCMODEL_FUZZ_CFLAGS) $(SOCMODEL_KFLAGS) -c -o $@.c.o $(SOCMODEL_DIR)/table_check.c
	$(FUZZ_CC) $(SOCMODEL_FUZZ_CFLAGS) $(SOCMODEL_KFLAGS) -c -o $@.k.o $(ROOT)/drivers/vsoc/vsoc_board.c
	$(FUZZ_CC) $(SOCMODEL_FUZZ_CFLAGS) \
		-I$(ROOT)/include -I$(SOCMODEL_DIR) -DDEFAULT_BOARD='""' -o $@ $< \
		$(addprefix $(SOCMODEL_DIR)/,board.c table.c) $@.c.o $@.k.o -l:libinih.a -lz
