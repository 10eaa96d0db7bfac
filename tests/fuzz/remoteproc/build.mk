# SPDX-License-Identifier: GPL-2.0
# remoteproc host side: the test firmware generator and its images, the
# parser unit test and the libFuzzer target. The parser
# (remoteproc_fw.c) is the kernel module's own source, built behind
# remoteproc_fw_shim.h.

RPROC_DIR  := $(ROOT)/drivers/remoteproc
RPROC_HOST := $(ROOT)/tests/fuzz/remoteproc
RPROC_OUT  := $(BUILD)/remoteproc
RPROC_FW_SRCS := $(RPROC_DIR)/remoteproc_fw.c $(RPROC_HOST)/rproc_fwgen.c
RPROC_FW_DEPS := $(RPROC_FW_SRCS) $(RPROC_DIR)/remoteproc_fw.h \
	$(RPROC_HOST)/remoteproc_fw_shim.h $(RPROC_HOST)/rproc_fwgen.h \
	$(ROOT)/tests/kmod/remoteproc/badfw_cases.h
RPROC_INC := -I$(RPROC_DIR) -I$(RPROC_HOST) -I$(ROOT)/tests/kmod/remoteproc
RPROC_HOST_CFLAGS := $(HOST_CFLAGS) $(RPROC_INC) -I$(ROOT)/tests/lib

# Every BADFW() case of badfw_cases.h, in its order; a static list, so that
# reading the Makefile runs nothing. tests/unit/build_lists.sh fails when
# the two differ.
RPROC_BAD_NAMES := \
	not_elf truncated_header bad_class wrong_class wrong_machine \
	big_endian not_executable no_program_headers phentsize \
	phdrs_truncated segment_truncated filesz_over_memsz \
	segment_outside_memory segments_overlap segment_wraps \
	entry_outside shdrs_truncated shstrndx two_rsc_tables \
	rsc_section_unloaded rsc_truncated rsc_section_huge rsc_version \
	rsc_num_huge rsc_offset_outside rsc_offset_in_header \
	rsc_entries_overlap rsc_unknown_type rsc_carveout_empty \
	rsc_carveout_huge rsc_carveout_outside rsc_carveouts_overlap \
	rsc_trace_outside rsc_vdev_zero_vrings rsc_vdev_many_vrings \
	rsc_vring_num_odd rsc_vring_num_huge rsc_vring_align \
	rsc_vdev_config_huge rsc_vdev_reserved rsc_vring_outside \
	rsc_vendor_refused rsc_devmem
RPROC_FW_FILES := $(addprefix $(RPROC_OUT)/firmware/, \
	ampsoc-rproc-fake.elf ampsoc-rproc-fake32.elf \
	ampsoc-rproc-fake-vdev-first.elf ampsoc-rproc-fake-portable.elf \
	$(patsubst %,ampsoc-rproc-bad-%.elf,$(RPROC_BAD_NAMES)))

HOST_BINS      += $(RPROC_OUT)/rproc_mkfw
UNIT_TESTS     += $(RPROC_OUT)/rproc_fw_unit
GUEST_FIRMWARE += $(RPROC_FW_FILES)
FUZZ_TARGETS   += $(RPROC_OUT)/fuzz_rproc_fw

$(RPROC_OUT)/rproc_mkfw: $(RPROC_HOST)/rproc_mkfw.c $(RPROC_FW_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(RPROC_HOST_CFLAGS) -o $@ $< $(RPROC_FW_SRCS)

$(RPROC_OUT)/rproc_fw_unit: $(RPROC_HOST)/rproc_fw_unit.c $(RPROC_FW_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(RPROC_HOST_CFLAGS) -fsanitize=address,undefined \
		-fno-sanitize-recover=all -o $@ $< $(RPROC_FW_SRCS)

# One run of the generator writes every image.
$(RPROC_OUT)/firmware/.stamp: $(RPROC_OUT)/rproc_mkfw
	@mkdir -p $(dir $@)
	$< $(dir $@)
	@touch $@

$(RPROC_FW_FILES): $(RPROC_OUT)/firmware/.stamp
	@test -f $@

$(RPROC_OUT)/fuzz_rproc_fw: $(RPROC_HOST)/fuzz_rproc_fw.c $(RPROC_FW_DEPS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -g -O1 -fsanitize=fuzzer,address,undefined \
		-Wl,--defsym=LLVMFuzzerTestOneInput=rproc_fuzz_one_input \
		-fno-sanitize-recover=all -I$(ROOT)/include $(RPROC_INC) \
		-o $@ $< $(RPROC_FW_SRCS)
