# Host unit tests of the harness itself.
UNIT_TESTS += $(ROOT)/tests/unit/runner_ktap.py
UNIT_TESTS += $(ROOT)/tests/unit/doc_examples.py
UNIT_TESTS += $(ROOT)/tests/unit/dkms_build.sh
