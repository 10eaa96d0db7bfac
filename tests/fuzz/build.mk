# SPDX-License-Identifier: GPL-2.0
# Host-side fuzzing and the test inputs built with it: one directory per
# area, each with its own build.mk. Seed corpora are in corpus/<target>/.
-include $(wildcard $(ROOT)/tests/fuzz/*/build.mk)

# make check runs every target once over its saved corpus (a host unit
# test, so no time budget): the targets build and the corpora still pass.
# Included after the fragments above and after soc-model/build.mk, so that
# FUZZ_TARGETS is complete here.
CHECK_DEPS += fuzz
UNIT_TESTS += $(BUILD)/fuzz/fuzz_corpus_replay
$(BUILD)/fuzz/fuzz_corpus_replay: $(FUZZ_TARGETS) $(ROOT)/tools/fuzz.sh \
		$(wildcard $(ROOT)/tests/fuzz/corpus/*/*)
	@mkdir -p $(dir $@)
	printf '#!/bin/sh\nexec %s --replay %s\n' "$(ROOT)/tools/fuzz.sh" \
		"$(FUZZ_TARGETS)" >$@
	chmod +x $@
