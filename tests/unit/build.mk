# Host unit tests of the harness itself.
UNIT_TESTS += $(ROOT)/tests/unit/runner_ktap.py
UNIT_TESTS += $(ROOT)/tests/unit/doc_examples.py
UNIT_TESTS += $(ROOT)/tests/unit/dkms_build.sh
# The guest's module trees, and the third-party build of docs/third-party-drivers.md.
UNIT_TESTS += $(ROOT)/tests/unit/initramfs_layout.sh
UNIT_TESTS += $(ROOT)/tests/unit/third_party_build.sh
UNIT_TESTS += $(ROOT)/tests/unit/build_lists.sh
# The demo's energy report from the model's own output, on an all-hex board.
UNIT_TESTS += $(ROOT)/tests/unit/demo_report.sh
# make install / uninstall of ampsocctl and its man page, also from a tarball.
UNIT_TESTS += $(ROOT)/tests/unit/tools_install.py
# The benchmarks' arithmetic: rounds, floors, three runs agreeing (docs/benchmarks.md).
UNIT_TESTS += $(ROOT)/tests/unit/bench_agree.py
