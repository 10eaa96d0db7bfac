// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc rpmsg echo client: binds channels named "ampsoc-echo" (a remote
 * echo service), sends @count numbered messages one at a time and checks
 * that each comes back unchanged. Messages from any address other than
 * the service's, or before the client is set up, are dropped. Results are in the channel's sysfs
 * directory: echo_received, echo_errors and echo_ns (from the first send to
 * the last echo; 0 until all came back).
 *
 * Written against mainline's <linux/rpmsg.h> alone: ampsoc builds it
 * through include/compat (drivers/rpmsg/Kbuild), and tests/peer builds the
 * same file against Linux's own rpmsg, so that make bench has a kernel
 * client on both stacks.
 */
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/rpmsg.h>
#include <linux/slab.h>
#include <linux/string.h>

static unsigned int count = 100;
module_param(count, uint, 0644);
MODULE_PARM_DESC(count, "round trips per channel");

struct echo_client {
	unsigned int sent;
	unsigned int received;
	unsigned int errors;
	u64 t0;
	u64 ns;
	char msg[64];
};

static int echo_fill_send(struct rpmsg_device *rpdev, struct echo_client *ec)
{
	int len = scnprintf(ec->msg, sizeof(ec->msg), "ampsoc echo %u",
			    ec->sent);

	ec->sent++;
	return rpmsg_send(rpdev->ept, ec->msg, len);
}

/*
 * The endpoint exists before echo_probe() runs, so the remote can reach
 * this callback before there is any state: it drops what comes then, and
 * whatever does not come from the echo service.
 */
static int echo_cb(struct rpmsg_device *rpdev, void *data, int len,
		   void *priv, u32 src)
{
	struct echo_client *ec = dev_get_drvdata(&rpdev->dev);
	int ret;

	if (!ec || src != rpdev->dst) {
		dev_dbg_ratelimited(&rpdev->dev, "dropped a message from 0x%x\n",
				    src);
		return 0;
	}
	if (len != strlen(ec->msg) || memcmp(data, ec->msg, len)) {
		ec->errors++;
		dev_err_ratelimited(&rpdev->dev, "echo %u came back wrong\n",
				    ec->received);
	}
	ec->received++;
	if (ec->received >= count) {
		WRITE_ONCE(ec->ns, ktime_get_ns() - ec->t0);
		dev_info(&rpdev->dev, "%u round trips, %u errors\n",
			 ec->received, ec->errors);
		return 0;
	}
	ret = echo_fill_send(rpdev, ec);
	if (ret) {
		ec->errors++;
		dev_err(&rpdev->dev, "send failed: %d\n", ret);
	}
	return 0;
}

static ssize_t echo_received_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	struct echo_client *ec = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%u\n", ec ? READ_ONCE(ec->received) : 0);
}
static DEVICE_ATTR_RO(echo_received);

static ssize_t echo_errors_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct echo_client *ec = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%u\n", ec ? READ_ONCE(ec->errors) : 0);
}
static DEVICE_ATTR_RO(echo_errors);

static ssize_t echo_ns_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct echo_client *ec = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%llu\n", ec ? READ_ONCE(ec->ns) : 0);
}
static DEVICE_ATTR_RO(echo_ns);

static struct attribute *echo_attrs[] = {
	&dev_attr_echo_received.attr,
	&dev_attr_echo_errors.attr,
	&dev_attr_echo_ns.attr,
	NULL
};
ATTRIBUTE_GROUPS(echo);

static int echo_probe(struct rpmsg_device *rpdev)
{
	struct echo_client *ec;

	dev_info(&rpdev->dev, "new channel: 0x%x -> 0x%x\n", rpdev->src,
		 rpdev->dst);
	ec = devm_kzalloc(&rpdev->dev, sizeof(*ec), GFP_KERNEL);
	if (!ec)
		return -ENOMEM;
	dev_set_drvdata(&rpdev->dev, ec);
	if (!count)
		return 0;
	ec->t0 = ktime_get_ns();
	return echo_fill_send(rpdev, ec);
}

static const struct rpmsg_device_id echo_id_table[] = {
	{ .name = "ampsoc-echo" },
	{ },
};
MODULE_DEVICE_TABLE(rpmsg, echo_id_table);

static struct rpmsg_driver echo_client = {
	.drv.name = KBUILD_MODNAME,
	.drv.dev_groups = echo_groups,
	.id_table = echo_id_table,
	.probe = echo_probe,
	.callback = echo_cb,
};
module_rpmsg_driver(echo_client);

MODULE_DESCRIPTION("ampsoc rpmsg echo client");
MODULE_LICENSE("GPL");
