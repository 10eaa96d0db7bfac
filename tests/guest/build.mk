# Guest programs: every tests/guest/<name>.c becomes a static /usr/bin/<name>.
GUEST_SRCS := $(wildcard $(ROOT)/tests/guest/*.c)
GUEST_PROGS += $(patsubst $(ROOT)/tests/guest/%.c,$(BUILD)/guest/%,$(GUEST_SRCS))

$(BUILD)/guest/%: $(ROOT)/tests/guest/%.c $(ROOT)/tests/lib/ktap_user.h
	@mkdir -p $(dir $@)
	$(CC) $(GUEST_CFLAGS) -I$(ROOT)/tests/lib -o $@ $< -lpthread

# The ACPI power button: pd_s2idle's wake event (tests/qemu/services/wakeup).
GUEST_KMODS += button
# virtio-blk: pd_hibernate_disk's swap disk (run.py "# disk:").
GUEST_KMODS += virtio_pci virtio_blk
