# ampsocctl: the user's tool, installed in the guest as /usr/bin/ampsocctl.
GUEST_PROGS += $(BUILD)/guest/ampsocctl

$(BUILD)/guest/ampsocctl: $(ROOT)/tools/ampsocctl/ampsocctl.c
	@mkdir -p $(dir $@)
	$(CC) $(GUEST_CFLAGS) -o $@ $<
