# SPDX-License-Identifier: GPL-2.0
# libFuzzer targets of the SoC model: the board-file parser (board_fuzz.c)
# and the board-table checker (table_fuzz.c), over the model's own
# board.c and table.c (soc-model/build.mk defines SOCMODEL_*).
FUZZ_CC ?= clang
SOCMODEL_FUZZ_SRC := $(ROOT)/tests/fuzz/socmodel
SOCMODEL_FUZZ := $(SOCMODEL_OUT)/fuzz/socmodel_board $(SOCMODEL_OUT)/fuzz/socmodel_table
FUZZ_TARGETS += $(SOCMODEL_FUZZ)

$(SOCMODEL_OUT)/fuzz/socmodel_%: $(SOCMODEL_FUZZ_SRC)/%_fuzz.c \
		$(addprefix $(SOCMODEL_DIR)/,$(SOCMODEL_LIB)) $(SOCMODEL_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-I$(ROOT)/include -I$(SOCMODEL_DIR) -DDEFAULT_BOARD='""' -o $@ $< \
		$(addprefix $(SOCMODEL_DIR)/,board.c table.c) -l:libinih.a
