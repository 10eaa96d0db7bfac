# SPDX-License-Identifier: GPL-2.0
# ampsoc developer commands. What to build lives in Kbuild files; this file
# only drives them. See README.md; `make help` lists the commands, from the
# "## " comment on each command's rule line.

SHELL := /bin/bash
.DEFAULT_GOAL := all

ROOT  := $(CURDIR)
BUILD := $(ROOT)/build
# KVER is resolved once (tools/kver.sh: the plain -amd64 flavour unless
# KVER= or KVER_FLAVOUR= says otherwise; a given KVER is checked). Reading
# the Makefile writes nothing: the kver target, which every kernel build
# goes through, asks kver.sh again for its one line on stderr saying which
# kernel and why, or why there is none. A sub-make sees the resolved KVER
# in its environment: KVER_ASKED keeps what the user asked for.
ifneq ($(origin KVER_ASKED),environment)
KVER_ASKED := $(KVER)
endif
export KVER_ASKED
KVER  := $(shell KVER='$(KVER)' KVER_FLAVOUR='$(KVER_FLAVOUR)' $(ROOT)/tools/kver.sh 2>/dev/null)
KDIR  ?= /usr/src/linux-headers-$(KVER)
export KVER

CC       ?= gcc
# libFuzzer's compiler: every fuzz target and its objects are built with it.
FUZZ_CC  ?= clang
HOST_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -Wmissing-prototypes \
	       -Wno-unused-parameter -I$(ROOT)/include
# Static guest programs link against this libc; nothing else is in the guest.
GUEST_CFLAGS := $(HOST_CFLAGS) -static

# Lists that each area's build.mk appends to.
HOST_BINS     :=
UNIT_TESTS    :=
GUEST_PROGS   :=
GUEST_FIRMWARE :=
GUEST_KMODS   := virtio virtio_ring
FUZZ_TARGETS  :=
CHECK_DEPS    := base rpmsg dkms

# The SoC model first: the firmware's unit tests name its core runner.
include $(ROOT)/soc-model/build.mk
include $(filter-out $(ROOT)/soc-model/build.mk,$(wildcard $(ROOT)/*/build.mk \
	$(ROOT)/tests/*/build.mk))

.PHONY: all deps kver modules host guest-progs firmware initramfs check \
	unit demo shell bench bench-agree soak style sparse fuzz debug-kernel check-debug \
	check-debug-ci soak-debug dkms-src dkms-install dkms-build dkms-remove dist \
	check-rt-ci clean help peer third-party install uninstall

all: modules host ## build kernel modules and host tools

help: ## this list
	@awk -F ':.*## ' '/^[a-z][a-z-]*:.*## / { printf "  make %-15s %s\n", $$1, $$2 }' \
		$(ROOT)/Makefile

deps:
	@$(ROOT)/tools/deps.sh $(CHECK_DEPS)

kver:
	@KVER='$(KVER_ASKED)' KVER_FLAVOUR='$(KVER_FLAVOUR)' $(ROOT)/tools/kver.sh >/dev/null
	@if [ ! -f "$(KDIR)/Makefile" ]; then \
		echo "ampsoc: $(KDIR) is not a kernel build tree: install linux-headers-$(KVER)" >&2; exit 1; fi

# W=1 also runs kernel-doc on every file; any warning fails the build.
# make -n prints the kernel build's command: a line naming $(MAKE) would
# run even then, and write build/modules.log.
modules: kver
ifneq ($(findstring n,$(firstword -$(MAKEFLAGS))),)
	make -C $(KDIR) M=$(ROOT) W=1 $(if $(C),C=$(C)) modules
else
	@mkdir -p $(BUILD)
	@set -o pipefail; $(MAKE) -C $(KDIR) M=$(ROOT) W=1 $(if $(C),C=$(C)) modules 2>&1 | \
		tee $(BUILD)/modules.log | { grep -v '^Skipping BTF generation' || true; }
	@if grep -E 'warning:|error:' $(BUILD)/modules.log | grep -v 'Skipping BTF'; then \
		echo "ampsoc: the module build has warnings (see build/modules.log)" >&2; exit 1; fi
endif

host: $(HOST_BINS)

guest-progs: $(GUEST_PROGS)

firmware: $(GUEST_FIRMWARE)

# The peer stack (tests/peer, docs/peer-stack.md): Linux's own remoteproc
# and rpmsg, built unmodified from linux-source-6.1 as out-of-tree modules,
# the oracle that scenarios with "# stack: mainline" boot. Incremental.
PEER_BUILD := $(BUILD)/peer
peer: kver modules ## Linux's own remoteproc and rpmsg ("# stack: mainline")
	@$(ROOT)/tools/deps.sh peer
	@$(ROOT)/tests/peer/build.sh $(PEER_BUILD) $(KDIR) $(ROOT)

# Drivers built outside the tree as docs/third-party-drivers.md says
# (tests/third_party); they join the guest's test modules.
THIRD_PARTY_BUILD := $(BUILD)/third-party
third-party: modules
	@$(ROOT)/tools/deps.sh rpmsg
	@$(ROOT)/tests/third_party/build.sh --all $(THIRD_PARTY_BUILD)

# The guest image: busybox, our modules, Debian's modules they need, guest
# programs, firmware, scenario scripts and anything in EXTRA; with PEER=1
# the peer stack too, as a module tree of its own.
initramfs: modules guest-progs firmware third-party $(if $(PEER),peer)
	@$(ROOT)/tests/qemu/mkinitramfs.sh $(BUILD)/initramfs.cpio \
		--kmods "$(GUEST_KMODS)" --progs "$(GUEST_PROGS)" \
		--firmware "$(GUEST_FIRMWARE)" --extra "$(EXTRA)" \
		--test-kos "$$(find $(THIRD_PARTY_BUILD) -name '*.ko')" \
		$(if $(PEER),--peer $(PEER_BUILD))

unit: $(UNIT_TESTS) ## host unit tests only
	@$(ROOT)/tests/qemu/run.py --unit $(UNIT_TESTS)

RUN := $(ROOT)/tests/qemu/run.py --build $(BUILD) --kver $(KVER) \
	$(if $(ACCEL),--accel $(ACCEL)) $(if $(J),--jobs $(J)) \
	$(if $(EXTRA),--extra "$(EXTRA)") $(if $(CMD),--cmd "$(CMD)") \
	$(if $(STACK),--stack $(STACK)) $(if $(GDB),--gdb)

# 1 when a run with these runner arguments boots the mainline stack ("#
# stack: mainline" in a selected scenario, or STACK=mainline): only then
# is the peer stack built and packed.
needs-peer = $(if $(filter mainline,$(shell $(RUN) --list-stacks $(1))),1)

check: deps ## everything, tested in fresh QEMU guests (T=glob for a subset)
	@$(MAKE) --no-print-directory initramfs host $(UNIT_TESTS) \
		PEER=$(call needs-peer,--harness-selftest $(if $(T),--filter '$(T)') tests/scenarios)
	@$(RUN) --unit-tests "$(UNIT_TESTS)" --harness-selftest \
		$(if $(T),--filter '$(T)') tests/scenarios

demo: deps ## the virtual AMP SoC story (BOARD=path for another board)
	@$(ROOT)/tools/deps.sh demo
	@$(MAKE) --no-print-directory initramfs host
	@$(RUN) --demo $(if $(BOARD),--board $(BOARD))

shell: deps ## a guest with everything loaded (EXTRA=files CMD=command STACK=mainline)
	@$(MAKE) --no-print-directory initramfs host PEER=$(call needs-peer,--shell)
	@$(RUN) --shell $(if $(SERVICES),--services "$(SERVICES)")

# One benchmark guest at a time, whatever J= says (run.py --bench
# enforces it): a guest that shares the CPUs measures its neighbour.
# BENCH_SMOKE=1: every count tiny, to prove the benchmarks run, not to
# measure (CI does this). R=N: rounds of each figure and its floor
# (docs/benchmarks.md). RUNS=N: N runs in a row, each one's JSON kept as
# build/bench/results-K.json, then bench-agree on them; a failed run (a
# floor error) does not stop the next, and the exit status says so.
BENCH_RUN = $(RUN) --bench --jobs 1 $(if $(BENCH_SMOKE),--bench-smoke) \
	$(if $(R),--bench-rounds $(R)) $(if $(T),--filter '$(T)') tests/bench
bench: deps ## benchmarks, one table, JSON under build/bench/ (R= RUNS=)
	@$(MAKE) --no-print-directory initramfs host \
		PEER=$(call needs-peer,--bench $(if $(T),--filter '$(T)') tests/bench)
ifeq ($(RUNS),)
	@$(BENCH_RUN)
else
	@json=$(BUILD)/bench/results$(if $(BENCH_SMOKE),-smoke).json; rc=0; \
	rm -f $(BUILD)/bench/results-[0-9]*.json; \
	for k in $$(seq $(RUNS)); do \
		$(BENCH_RUN) || rc=1; \
		cp $$json $(BUILD)/bench/results-$$k.json || exit 1; \
	done; \
	$(ROOT)/tools/bench-agree.py $$(seq -f '$(BUILD)/bench/results-%g.json' $(RUNS)) || rc=1; \
	exit $$rc
endif

# Do the last runs agree within 15 % on every ratio? (make bench RUNS=3
# does it itself.) BENCH_RESULTS= names other files.
bench-agree: ## compare the JSON of the last make bench RUNS=N
	@$(ROOT)/tools/bench-agree.py $(or $(BENCH_RESULTS),$(sort $(wildcard \
		$(BUILD)/bench/results-[0-9]*.json)))

# Long campaigns (tests/soak, docs/soak.md): the full counts of the soak_*
# scenarios, one guest at a time unless J= says otherwise.
soak: deps ## the long campaigns of tests/soak (docs/soak.md)
	@$(MAKE) --no-print-directory initramfs host \
		PEER=$(call needs-peer,$(if $(T),--filter '$(T)') tests/soak)
	@$(RUN) $(if $(J),,--jobs 1) $(if $(T),--filter '$(T)') tests/soak

# Host-side fuzzing with libFuzzer; FUZZ_SECONDS per target.
FUZZ_SECONDS ?= 60
fuzz: ## libFuzzer targets, FUZZ_SECONDS each
	@$(ROOT)/tools/deps.sh fuzz
	@$(MAKE) --no-print-directory $(FUZZ_TARGETS)
	@$(ROOT)/tools/fuzz.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# checkpatch from Debian's linux-source-6.1, unpacked outside the repo.
CACHE ?= $(HOME)/.cache/ampsoc
style: ## checkpatch --strict
	@$(ROOT)/tools/deps.sh style
	@$(ROOT)/tools/checkpatch.sh $(CACHE)

sparse: kver ## the module build under sparse (C=2)
	@$(ROOT)/tools/deps.sh style
	@$(MAKE) --no-print-directory modules C=2

# DKMS: the modules as a Debian user installs them (README.md, "Install
# with DKMS"). dkms-src makes /usr/src/ampsoc-$(DKMS_VERSION) (no git
# needed: a release tarball does it too); dkms-install builds and installs
# the modules for $(KVER) and every later kernel; dkms-remove takes that
# version out of every kernel and /usr/src. dkms-build adds, builds against
# $(KVER)'s headers and removes again, installing nothing; it refuses a
# version that DKMS already has. dist: a release tarball of HEAD.
DKMS_VERSION ?= $(shell $(ROOT)/tools/dkms-version.sh)
DKMS_SRC := /usr/src/ampsoc-$(DKMS_VERSION)
dkms-src:
	@$(ROOT)/tools/dkms-src.sh $(DKMS_SRC) $(DKMS_VERSION)
dkms-install: kver dkms-src ## install the modules with DKMS for KVER and later kernels
	@$(ROOT)/tools/deps.sh dkms
	dkms install -m ampsoc -v $(DKMS_VERSION) -k $(KVER)
dkms-remove: ## take DKMS_VERSION out of DKMS and /usr/src
	@if [ -d /var/lib/dkms/ampsoc/$(DKMS_VERSION) ]; then \
		dkms remove -m ampsoc -v $(DKMS_VERSION) --all; fi
	rm -rf $(DKMS_SRC)
dkms-build: kver ## build with DKMS against KVER, installing nothing
	@$(ROOT)/tools/deps.sh dkms
	@if [ -e $(DKMS_SRC) ] || [ -e /var/lib/dkms/ampsoc/$(DKMS_VERSION) ]; then \
		echo "ampsoc: ampsoc $(DKMS_VERSION) is already in DKMS; dkms-build would" \
			"replace it (make dkms-remove, or DKMS_VERSION=another)" >&2; exit 1; fi
	@$(MAKE) --no-print-directory dkms-src
	@rc=0; dkms add -m ampsoc -v $(DKMS_VERSION) && \
		dkms build -m ampsoc -v $(DKMS_VERSION) -k $(KVER) || rc=$$?; \
	dkms remove -m ampsoc -v $(DKMS_VERSION) --all >/dev/null 2>&1; \
	rm -rf $(DKMS_SRC); exit $$rc
dist: ## a release tarball of HEAD
	@rm -rf $(BUILD)/dist && mkdir -p $(BUILD)/dist
	@git -C $(ROOT) archive --prefix=ampsoc-$(DKMS_VERSION)/ HEAD | tar -x -C $(BUILD)/dist
	@echo $(DKMS_VERSION) >$(BUILD)/dist/ampsoc-$(DKMS_VERSION)/VERSION
	@tar -C $(BUILD)/dist -czf $(BUILD)/ampsoc-$(DKMS_VERSION).tar.gz ampsoc-$(DKMS_VERSION)
	@rm -rf $(BUILD)/dist
	@echo "$(BUILD)/ampsoc-$(DKMS_VERSION).tar.gz (HEAD; uncommitted changes are not in it)"

# The user's tool on this machine, from a checkout or a release tarball
# (README.md, "Install the tools"): ampsocctl built for the host and its
# man page, under PREFIX (/usr/local: a from-source install on Debian),
# staged under DESTDIR if given. It goes in sbin with its page in section 8:
# it administers the system's remote cores (start, stop, firmware,
# recovery) and creates rpmsg endpoints on control devices only root may
# open, as ethtool does for network devices. uninstall removes those two
# files and nothing else; the directories stay (other programs use them).
PREFIX  ?= /usr/local
SBINDIR ?= $(PREFIX)/sbin
MAN8DIR ?= $(PREFIX)/share/man/man8
install: $(AMPSOCCTL_HOST) ## ampsocctl and its man page (PREFIX=/usr/local, DESTDIR=)
	install -d '$(DESTDIR)$(SBINDIR)' '$(DESTDIR)$(MAN8DIR)'
	install -m 0755 $(AMPSOCCTL_HOST) '$(DESTDIR)$(SBINDIR)/ampsocctl'
	install -m 0644 $(AMPSOCCTL_MAN) '$(DESTDIR)$(MAN8DIR)/ampsocctl.8'
uninstall: ## remove what make install put (same PREFIX and DESTDIR)
	rm -f '$(DESTDIR)$(SBINDIR)/ampsocctl' '$(DESTDIR)$(MAN8DIR)/ampsocctl.8'

# lockdep+KASAN kernel from linux-source-6.1, cached outside the repo.
debug-kernel: ## build the lockdep+KASAN kernel (cached outside the repo)
	@$(ROOT)/tools/deps.sh debug
	@$(ROOT)/tools/debug-kernel.sh $(CACHE)

# The whole suite on the debug kernel (tools/check-debug.sh): modules built
# against its tree from a copy of the sources, its own initramfs, slower
# timeouts.
DEBUG_BUILD := $(BUILD)/debug
# QEMU's CPU model for debug runs: max without LA57. With 5-level paging
# the kernel's early identify_cpu() clears the CPU's feature words, LA57
# included, and an interrupt landing in that window makes KASAN see its
# own irq descriptor as a wild access (a KASAN report at boot with two
# CPUs, before any module). qemu64 avoided it too but hung 3 boots in 11.
DEBUG_CPU ?= max,-la57
# Which folder of scenarios: tests/soak for the full campaigns (soak-debug).
DEBUG_DIR ?= tests/scenarios
check-debug: deps ## the scenarios on the debug kernel (make debug-kernel)
	@$(ROOT)/tools/deps.sh debug
	@$(MAKE) --no-print-directory host guest-progs firmware $(UNIT_TESTS)
	@ROOT='$(ROOT)' CACHE='$(CACHE)' DEBUG_BUILD='$(DEBUG_BUILD)' DEBUG_DIR='$(DEBUG_DIR)' \
		DEBUG_CPU='$(DEBUG_CPU)' GUEST_KMODS='$(GUEST_KMODS)' GUEST_PROGS='$(GUEST_PROGS)' \
		GUEST_FIRMWARE='$(GUEST_FIRMWARE)' T='$(T)' J='$(J)' EXTRA='$(EXTRA)' CMD='$(CMD)' \
		STACK='$(STACK)' PEER='$(call needs-peer,$(if $(T),--filter '$(T)') $(DEBUG_DIR))' \
		$(ROOT)/tools/check-debug.sh

# The long campaigns (tests/soak) on the debug kernel, one guest at a time
# unless J= says otherwise: kmemleak and lockdep over the full counts.
soak-debug: ## the long campaigns on the debug kernel
	@$(MAKE) --no-print-directory check-debug DEBUG_DIR=tests/soak $(if $(J),,J=1)

# CI's share of the debug kernel: the whole set does not fit CI's 90
# minutes next to make check. These scenarios load every module, and in a
# full run they took every lock class that any scenario took
# (tools/lockdep-coverage.py --subset checks it; docs/debug-kernel.md).
# A boot that hangs before init is retried once (docs/debug-kernel.md).
# fuzz_userspace_core is in for the one class (a mutex's wait_lock) that
# only its contention takes (the full run in docs/debug-kernel.md), and
# the hostile and chaos remotes for what the remote cannot make Linux touch.
# pd_irqsafe, pd_perf_hw, pd_multi and pd_stay_on take the classes that
# IRQ-safe domains, the level and slot locks of the vsoc power controller,
# virtual devices and stay-on holds added; pd_irqsafe_hw the power
# controller's polled requests with interrupts off (atomic sleep checks).
DEBUG_CI_SET := pd_kmod pd_stress pd_sleep vsoc_basic rproc_kmod rproc_abi \
	rpmsg_kmod rpmsg_userspace core_dsp core_resmgr core_rpmsg_crash \
	fuzz_userspace fuzz_userspace_core core_rpmsg_hostile core_rpmsg_chaos \
	core_fuzz_remote pd_irqsafe pd_perf_hw pd_multi pd_stay_on pd_irqsafe_hw
check-debug-ci: ## CI's subset of check-debug
	@$(MAKE) --no-print-directory check-debug T='$(DEBUG_CI_SET)'

# CI's share of Debian's PREEMPT_RT kernel (linux-image-rt-amd64, the
# deps.txt group rt): the same scenarios, which take every lock class,
# and those where only RT's scheduling found a bug (a system sleep under
# flow control, leak counts, a reader behind an inline coredump), built
# against and booted on the newest installed -rt-amd64 kernel.
# It rebuilds the tree's modules for that kernel; the next plain make
# rebuilds them for the plain one.
RT_CI_SET := $(DEBUG_CI_SET) rpmsg_sleep core_cycles \
	core_rpmsg_crash_traffic rproc_inline_dump
check-rt-ci: ## CI's subset on Debian's PREEMPT_RT kernel
	@$(ROOT)/tools/deps.sh rt
	@krel=$$(KVER= KVER_FLAVOUR=rt $(ROOT)/tools/kver.sh) && \
		$(MAKE) --no-print-directory check KVER=$$krel T='$(RT_CI_SET)'

# The coverage-guided remote (docs/fuzz-remote.md): the saved corpus on the
# debug kernel, then FUZZ_SECONDS of campaign there (FUZZ_BLIND=1: on the
# stock kernel, without coverage). FUZZ_SAVE=1 keeps the corpus.
.PHONY: fuzz-remote
fuzz-remote: deps ## the coverage-guided remote (docs/fuzz-remote.md)
ifeq ($(FUZZ_BLIND),1)
	@$(MAKE) --no-print-directory initramfs host
	@$(ROOT)/tests/fuzz-remote/driver.py --blind --seconds $(FUZZ_SECONDS) \
		--build $(BUILD) --kver $(KVER) --kodir $(ROOT) $(if $(FUZZ_SAVE),--save)
else
	@$(ROOT)/tests/fuzz-remote/driver.py --check $(CACHE)
	@$(MAKE) --no-print-directory check-debug T=core_fuzz_remote J=1
	@$(ROOT)/tests/fuzz-remote/driver.py --seconds $(FUZZ_SECONDS) --build $(DEBUG_BUILD) \
		--kernel-dir $$($(ROOT)/tools/debug-kernel.sh $(CACHE)) $(if $(FUZZ_SAVE),--save)
endif

clean: ## remove build/ and the module build's files
	@$(MAKE) -C $(KDIR) M=$(ROOT) clean >/dev/null 2>&1 || true
	rm -rf $(BUILD)
