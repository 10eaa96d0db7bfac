# SPDX-License-Identifier: GPL-2.0
# Host-side fuzzing and the test inputs built with it: one directory per
# area, each with its own build.mk. Seed corpora are in corpus/<target>/.
-include $(wildcard $(ROOT)/tests/fuzz/*/build.mk)
