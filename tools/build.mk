# ampsocctl: the user's tool, installed in the guest as /usr/bin/ampsocctl.
GUEST_PROGS += $(BUILD)/guest/ampsocctl

$(BUILD)/guest/ampsocctl: $(ROOT)/tools/ampsocctl/ampsocctl.c
	@mkdir -p $(dir $@)
	$(CC) $(GUEST_CFLAGS) -o $@ $<

# The same source for this machine (make install, README "Install the
# tools"): the host's compiler, dynamically linked against the host's libc.
AMPSOCCTL_HOST := $(BUILD)/host/ampsocctl
AMPSOCCTL_MAN  := $(ROOT)/tools/ampsocctl/ampsocctl.8
HOST_BINS += $(AMPSOCCTL_HOST)

$(AMPSOCCTL_HOST): $(ROOT)/tools/ampsocctl/ampsocctl.c
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) -o $@ $<
