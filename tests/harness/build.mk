# The harness's host-side self-tests (the scenarios here must fail and are
# run by make check itself; harness_shell is run by tests/qemu/run.py).
UNIT_TESTS += $(ROOT)/tests/harness/readme_commands.py
