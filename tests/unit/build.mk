# Host unit tests of the harness itself.
UNIT_TESTS += $(ROOT)/tests/unit/runner_ktap.py
UNIT_TESTS += $(ROOT)/tests/unit/doc_examples.py
UNIT_TESTS += $(ROOT)/tests/unit/dkms_build.sh
# The guest's module trees (tests/qemu/mkinitramfs.sh).
UNIT_TESTS += $(ROOT)/tests/unit/initramfs_layout.sh
