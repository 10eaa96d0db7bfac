// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc rpmsg name service: the "rpmsg_ns" driver bound to address 53 of
 * every transport that negotiated the name-service feature. A remote's
 * CREATE announcement adds a channel, DESTROY removes it. The remote is
 * untrusted: a message of the wrong size, a name without NUL, unknown
 * flags, an announcement the transport refuses (duplicate, too many
 * channels), or one about a channel that is not the remote's (the bus's
 * own rpmsg_ns and rpmsg_ctrl, local and static channels) is rejected,
 * counted, and logged once (rate-limited).
 */
#include <linux/module.h>
#include <linux/string.h>

#include "rpmsg_internal.h"

/* The bus's own channels: Linux makes them, no remote may name them. */
static const char * const rpmsg_ns_reserved[] = { "rpmsg_ns", "rpmsg_ctrl" };

static void rpmsg_ns_reject(struct rpmsg_device *rpdev)
{
	if (rpdev->ops && rpdev->ops->ns_reject)
		rpdev->ops->ns_reject(rpdev);
}

static bool rpmsg_ns_is_reserved(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rpmsg_ns_reserved); i++)
		if (!strcmp(name, rpmsg_ns_reserved[i]))
			return true;
	return false;
}

static int rpmsg_ns_cb(struct rpmsg_device *rpdev, void *data, int len,
		       void *priv, u32 src)
{
	struct rpmsg_channel_info chinfo = {};
	struct device *dev = rpdev->dev.parent;
	const struct ampsoc_rpmsg_device_ops *ops = rpdev->ops;
	struct ampsoc_rpmsg_ns_msg msg;
	u32 flags, addr;
	int ret;

	if (len != sizeof(msg)) {
		dev_err_ratelimited(dev, "name service: bad length %d\n", len);
		goto reject;
	}
	/*
	 * @data is in memory the remote can still write: check and use one
	 * copy, or a NUL removed after the check would let the name be read
	 * past its end.
	 */
	memcpy(&msg, data, sizeof(msg));
	if (strnlen(msg.name, RPMSG_NAME_SIZE) == RPMSG_NAME_SIZE ||
	    !msg.name[0]) {
		dev_err_ratelimited(dev, "name service: name not terminated\n");
		goto reject;
	}
	flags = le32_to_cpu(msg.flags);
	addr = le32_to_cpu(msg.addr);
	if (flags > AMPSOC_RPMSG_NS_DESTROY || addr == RPMSG_ADDR_ANY) {
		dev_err_ratelimited(dev, "name service: bad flags %u or address\n",
				    flags);
		goto reject;
	}
	memcpy(chinfo.name, msg.name, RPMSG_NAME_SIZE);
	chinfo.src = RPMSG_ADDR_ANY;
	chinfo.dst = addr;
	/*
	 * Removing rpmsg_ns from here would wait for this very callback;
	 * removing rpmsg_ctrl would take /dev/rpmsg_ctrlN and every endpoint
	 * device made through it away.
	 */
	if (rpmsg_ns_is_reserved(chinfo.name)) {
		dev_err_ratelimited(dev, "name service: %s is Linux's own channel\n",
				    chinfo.name);
		goto reject;
	}
	if (!ops || !ops->remote_create || !ops->remote_release)
		goto reject;
	if (flags == AMPSOC_RPMSG_NS_DESTROY) {
		ret = ops->remote_release(rpdev, &chinfo);
		if (ret == -EPERM)
			dev_err_ratelimited(dev, "name service: channel %s addr 0x%x is not the remote's\n",
					    chinfo.name, addr);
		else if (ret)
			dev_err_ratelimited(dev, "name service: no channel %s addr 0x%x\n",
					    chinfo.name, addr);
		if (ret)
			goto reject;
	} else if (!ops->remote_create(rpdev, &chinfo)) {
		/* the transport said why */
		goto reject;
	}
	dev_info_ratelimited(dev, "%s channel %s addr 0x%x\n",
			     flags ? "destroyed" : "created", chinfo.name, addr);
	return 0;

reject:
	rpmsg_ns_reject(rpdev);
	return -EINVAL;
}

static int rpmsg_ns_probe(struct rpmsg_device *rpdev)
{
	/* The default endpoint sits at address 53 (rpdev->src). */
	return rpdev->src == AMPSOC_RPMSG_NS_ADDR ? 0 : -EINVAL;
}

static struct rpmsg_driver rpmsg_ns_driver = {
	.drv.name = "rpmsg_ns",
	.probe = rpmsg_ns_probe,
	.callback = rpmsg_ns_cb,
};

int ampsoc_rpmsg_ns_init(void)
{
	return ampsoc_rpmsg_register_driver(&rpmsg_ns_driver);
}

void ampsoc_rpmsg_ns_exit(void)
{
	ampsoc_rpmsg_unregister_driver(&rpmsg_ns_driver);
}
