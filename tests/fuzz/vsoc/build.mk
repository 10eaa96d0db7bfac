# SPDX-License-Identifier: GPL-2.0
# The kernel's board-table parser (drivers/vsoc/vsoc_board.c) on the host:
# a libFuzzer target and a unit test, both built from the module's own
# source behind vsoc_board_shim.h (shim/linux/*.h stand in for the kernel
# headers). Valid tables come from the SoC model's writer.

VSOCF_DIR := $(ROOT)/tests/fuzz/vsoc
VSOCF_OUT := $(BUILD)/vsoc
VSOCF_KSRCS := $(ROOT)/drivers/vsoc/vsoc_board.c $(VSOCF_DIR)/vsoc_board_fuzz.c
VSOCF_MSRCS := $(VSOCF_DIR)/vsoc_board_good.c \
	$(addprefix $(ROOT)/soc-model/,board.c table.c)
# the unit test links the model's own objects (built by soc-model/build.mk)
VSOCF_MOBJS := $(addprefix $(BUILD)/soc-model/obj/,board.o table.o)
VSOCF_DEPS := $(VSOCF_KSRCS) $(VSOCF_MSRCS) $(wildcard $(VSOCF_DIR)/*.h \
	$(VSOCF_DIR)/shim/linux/*.h) $(ROOT)/drivers/vsoc/vsoc_internal.h \
	$(ROOT)/include/ampsoc/vsoc.h $(wildcard $(ROOT)/include/uapi/ampsoc/*.h)
VSOCF_KFLAGS := -I$(VSOCF_DIR)/shim -I$(VSOCF_DIR) -I$(ROOT)/include \
	-I$(ROOT)/drivers/vsoc
VSOCF_MFLAGS := -I$(ROOT)/include -I$(ROOT)/soc-model -DDEFAULT_BOARD='""'
VSOCF_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all

UNIT_TESTS   += $(VSOCF_OUT)/vsoc_board_unit
FUZZ_TARGETS += $(VSOCF_OUT)/fuzz_vsoc_board

# The kernel side and the model side are compiled apart: their headers
# define the same integer type names differently.
$(VSOCF_OUT)/vsoc_board_unit: $(VSOCF_DIR)/vsoc_board_unit.c $(VSOCF_DEPS) \
		$(VSOCF_MOBJS) $(ROOT)/tests/lib/ktap_user.h
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $(VSOCF_SAN) $(VSOCF_KFLAGS) -I$(ROOT)/tests/lib \
		-c -o $@.k.o $<
	$(CC) $(HOST_CFLAGS) $(VSOCF_SAN) $(VSOCF_KFLAGS) -c -o $@.b.o \
		$(ROOT)/drivers/vsoc/vsoc_board.c
	$(CC) $(HOST_CFLAGS) $(VSOCF_SAN) $(VSOCF_KFLAGS) -c -o $@.f.o \
		$(VSOCF_DIR)/vsoc_board_fuzz.c
	$(CC) $(HOST_CFLAGS) $(VSOCF_SAN) $(VSOCF_MFLAGS) -o $@ $@.k.o $@.b.o \
		$@.f.o $(VSOCF_DIR)/vsoc_board_good.c $(VSOCF_MOBJS) $(SOCMODEL_LIBS)

$(VSOCF_OUT)/fuzz_vsoc_board: $(VSOCF_DIR)/fuzz_vsoc_board.c $(VSOCF_DEPS)
	@mkdir -p $(dir $@)
	clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		$(VSOCF_KFLAGS) -c -o $@.k.o $<
	clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		$(VSOCF_KFLAGS) -c -o $@.b.o $(ROOT)/drivers/vsoc/vsoc_board.c
	clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		$(VSOCF_KFLAGS) -c -o $@.f.o $(VSOCF_DIR)/vsoc_board_fuzz.c
	clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		$(VSOCF_MFLAGS) -o $@ $@.k.o $@.b.o $@.f.o $(VSOCF_MSRCS) -l:libinih.a
