# SPDX-License-Identifier: GPL-2.0
# The SoC model (host): ampsoc-socmodel, ampsoc-socctl, their unit tests
# and fuzz targets. The remote-core runner (soc-model/core/) brings its
# own fragment, included below.

SOCMODEL_DIR   := $(ROOT)/soc-model
SOCMODEL_OUT   := $(BUILD)/soc-model
SOCMODEL_LIB   := board.c table.c soc.c ivshmem.c
SOCMODEL_HDRS  := $(wildcard $(SOCMODEL_DIR)/*.h) $(wildcard $(ROOT)/include/uapi/ampsoc/*.h)
SOCMODEL_CFLAGS := $(HOST_CFLAGS) -I$(SOCMODEL_DIR) $(shell pkg-config --cflags inih 2>/dev/null) \
	-DDEFAULT_BOARD='"$(SOCMODEL_DIR)/boards/omap4.ini"'
SOCMODEL_LIBS  := $(or $(shell pkg-config --libs inih 2>/dev/null),-linih) -lz
SOCMODEL_OBJS  := $(patsubst %.c,$(SOCMODEL_OUT)/obj/%.o,$(SOCMODEL_LIB))

# The board-table checker is the kernel's (drivers/vsoc/vsoc_board.c),
# compiled for the host behind kshim/ (stand-ins for the kernel headers it
# includes) with the seam table_check.c; both apart from the model's own
# sources, whose headers spell the integer types differently.
SOCMODEL_KSRCS := $(SOCMODEL_DIR)/table_check.c $(ROOT)/drivers/vsoc/vsoc_board.c
SOCMODEL_KHDRS := $(wildcard $(SOCMODEL_DIR)/kshim/*.h $(SOCMODEL_DIR)/kshim/linux/*.h) \
	$(SOCMODEL_DIR)/table_check.h $(ROOT)/drivers/vsoc/vsoc_internal.h \
	$(ROOT)/include/ampsoc/vsoc.h $(wildcard $(ROOT)/include/uapi/ampsoc/*.h)
SOCMODEL_KFLAGS := -I$(SOCMODEL_DIR)/kshim -I$(SOCMODEL_DIR) -I$(ROOT)/include \
	-I$(ROOT)/drivers/vsoc
SOCMODEL_OBJS  += $(SOCMODEL_OUT)/obj/table_check.o $(SOCMODEL_OUT)/obj/kvsoc_board.o

$(SOCMODEL_OUT)/obj/table_check.o: $(SOCMODEL_DIR)/table_check.c $(SOCMODEL_KHDRS)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $(SOCMODEL_KFLAGS) -c -o $@ $<

$(SOCMODEL_OUT)/obj/kvsoc_board.o: $(ROOT)/drivers/vsoc/vsoc_board.c $(SOCMODEL_KHDRS)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $(SOCMODEL_KFLAGS) -c -o $@ $<

HOST_BINS += $(SOCMODEL_OUT)/ampsoc-socmodel $(SOCMODEL_OUT)/ampsoc-socctl

$(SOCMODEL_OUT)/obj/%.o: $(SOCMODEL_DIR)/%.c $(SOCMODEL_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(SOCMODEL_CFLAGS) -c -o $@ $<

$(SOCMODEL_OUT)/ampsoc-socmodel: $(SOCMODEL_DIR)/main.c $(SOCMODEL_OBJS) $(SOCMODEL_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(SOCMODEL_CFLAGS) -o $@ $< $(SOCMODEL_OBJS) $(SOCMODEL_LIBS)

$(SOCMODEL_OUT)/ampsoc-socctl: $(SOCMODEL_DIR)/socctl.c
	@mkdir -p $(dir $@)
	$(CC) $(SOCMODEL_CFLAGS) -o $@ $<

# Host unit tests: tests/unit/socmodel_<name>/*.c -> build/tests/unit/socmodel_<name>
SOCMODEL_UNIT_DIRS := $(wildcard $(ROOT)/tests/unit/socmodel*/)
SOCMODEL_UNITS := $(foreach d,$(SOCMODEL_UNIT_DIRS),$(BUILD)/tests/unit/$(notdir $(patsubst %/,%,$(d))))
UNIT_TESTS += $(SOCMODEL_UNITS)

define SOCMODEL_UNIT_RULE
$(BUILD)/tests/unit/$(1): $(wildcard $(ROOT)/tests/unit/$(1)/*.c) $(SOCMODEL_OBJS) \
		$(SOCMODEL_HDRS) $(ROOT)/tests/lib/ktap_user.h | $(SOCMODEL_OUT)/ampsoc-socmodel
	@mkdir -p $$(dir $$@)
	$$(CC) $$(SOCMODEL_CFLAGS) -I$$(ROOT)/tests/lib -DSOCMODEL_BUILD='"$$(SOCMODEL_OUT)"' \
		-DSOCMODEL_BOARDS='"$$(SOCMODEL_DIR)/boards"' \
		-o $$@ $$(filter %.c,$$^) $$(SOCMODEL_OBJS) $$(SOCMODEL_LIBS)
endef
$(foreach u,$(notdir $(SOCMODEL_UNITS)),$(eval $(call SOCMODEL_UNIT_RULE,$(u))))
# The runner's firewall test runs the runner (soc-model/core/build.mk).
$(BUILD)/tests/unit/socmodel_runner: $(SOCMODEL_OUT)/ampsoc-core

# The fuzz targets of the board-file parser and the board-table checker:
# tests/fuzz/socmodel/build.mk.

include $(SOCMODEL_DIR)/core/build.mk
