# Guest programs: every tests/guest/<name>.c becomes a static /usr/bin/<name>.
GUEST_SRCS := $(wildcard $(ROOT)/tests/guest/*.c)
GUEST_PROGS += $(patsubst $(ROOT)/tests/guest/%.c,$(BUILD)/guest/%,$(GUEST_SRCS))

# zlib for its crc32() (static: libz.a of zlib1g-dev).
$(BUILD)/guest/%: $(ROOT)/tests/guest/%.c $(wildcard $(ROOT)/tests/lib/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(GUEST_CFLAGS) -I$(ROOT)/tests/lib -o $@ $< -lz -lpthread

# The ACPI power button: pd_s2idle's wake event (tests/qemu/services/wakeup).
GUEST_KMODS += button
# virtio-blk: pd_hibernate_disk's swap disk (run.py "# disk:").
GUEST_KMODS += virtio_pci virtio_blk
