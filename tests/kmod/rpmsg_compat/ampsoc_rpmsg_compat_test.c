// SPDX-License-Identifier: GPL-2.0
/*
 * KTAP tests of include/compat/linux/rpmsg.h: each name of mainline's rpmsg
 * API that a driver may use reaches the ampsoc function with the same
 * meaning, checked end to end against the loopback remote, and the wire
 * types and byte-order helpers of <linux/rpmsg.h> and
 * <linux/rpmsg/byteorder.h> behave as mainline's.
 *
 * Written as a mainline driver is: only <linux/rpmsg.h>, found in
 * include/compat first (this directory's Kbuild). The scenario
 * (rpmsg_compat_sample) loads ampsoc's virtio transport and a loopback
 * remote that announces "ampsoc-compat-test" before loading this module,
 * whose driver then binds to that channel while it registers.
 */
#include <linux/completion.h>
#include <linux/module.h>
#include <linux/rpmsg.h>
#include <linux/rpmsg/ns.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <ampsoc/ktap.h>

#define COMPAT_CHANNEL	"ampsoc-compat-test"
#define ECHO_FIRST	0x400	/* the loopback echoes at 0x400..0x43f */
#define ECHO_LAST	0x43f
#define WAIT		(5 * HZ)

static struct rpmsg_device *chan;

/* The last message an endpoint of this test received. */
struct rx_slot {
	struct completion done;
	u32 src;
	int len;
	char data[32];
};

static struct rx_slot chan_rx;
static char too_big[497];

static int compat_rx(struct rpmsg_device *rpdev, void *data, int len,
		     void *priv, u32 src)
{
	struct rx_slot *slot = priv ?: &chan_rx;

	slot->src = src;
	slot->len = len;
	memcpy(slot->data, data, min_t(int, len, sizeof(slot->data)));
	complete(&slot->done);
	return 0;
}

static int compat_probe(struct rpmsg_device *rpdev)
{
	chan = rpdev;
	return 0;
}

static void compat_remove(struct rpmsg_device *rpdev)
{
	chan = NULL;
}

static const struct rpmsg_device_id compat_ids[] = {
	{ .name = COMPAT_CHANNEL },
	{}
};

static struct rpmsg_driver compat_driver = {
	.drv.name = "ampsoc_rpmsg_compat_test",
	.id_table = compat_ids,
	.probe = compat_probe,
	.remove = compat_remove,
	.callback = compat_rx,
};

/* Expect one echo of @msg into @slot, from @src. */
static void expect_echo(struct ampsoc_ktap_test *t, struct rx_slot *slot,
			const char *msg, u32 src)
{
	if (!KTAP_EXPECT(t, wait_for_completion_timeout(&slot->done, WAIT)))
		return;
	KTAP_EXPECT_EQ(t, slot->len, strlen(msg));
	KTAP_EXPECT(t, !memcmp(slot->data, msg, strlen(msg)));
	KTAP_EXPECT_EQ(t, slot->src, src);
}

static bool have_channel(struct ampsoc_ktap_test *t)
{
	if (chan && chan->ept)
		return true;
	ampsoc_ktap_fail(t, "no %s channel bound", COMPAT_CHANNEL);
	return false;
}

static void byteorder_without_channel(struct ampsoc_ktap_test *t)
{
	__rpmsg16 v16 = cpu_to_rpmsg16(NULL, 0x1234);
	__rpmsg32 v32 = cpu_to_rpmsg32(NULL, 0x11223344);
	__rpmsg64 v64 = cpu_to_rpmsg64(NULL, 0x1122334455667788ULL);
	u16 h16 = 0x1234;
	u32 h32 = 0x11223344;
	u64 h64 = 0x1122334455667788ULL;

	/* No channel: the CPU's own order, as mainline's helpers. */
	KTAP_EXPECT(t, !memcmp(&v16, &h16, sizeof(h16)));
	KTAP_EXPECT(t, !memcmp(&v32, &h32, sizeof(h32)));
	KTAP_EXPECT(t, !memcmp(&v64, &h64, sizeof(h64)));
	KTAP_EXPECT_EQ(t, rpmsg16_to_cpu(NULL, v16), 0x1234);
	KTAP_EXPECT_EQ(t, rpmsg32_to_cpu(NULL, v32), 0x11223344);
	KTAP_EXPECT(t, rpmsg64_to_cpu(NULL, v64) == 0x1122334455667788ULL);
}

static void byteorder_follows_channel(struct ampsoc_ktap_test *t)
{
	static const u8 le[] = { 0x44, 0x33, 0x22, 0x11 };
	static const u8 be[] = { 0x11, 0x22, 0x33, 0x44 };
	struct rpmsg_device *big;
	__rpmsg16 v16;
	__rpmsg32 v32;
	__rpmsg64 v64;
	u8 b16[2];

	if (!have_channel(t))
		return;
	big = kzalloc(sizeof(*big), GFP_KERNEL);
	if (!KTAP_EXPECT(t, big))
		return;
	/* ampsoc's transport is virtio 1.0: little-endian. */
	KTAP_EXPECT(t, chan->little_endian);
	v32 = cpu_to_rpmsg32(chan, 0x11223344);
	KTAP_EXPECT(t, !memcmp(&v32, le, sizeof(le)));
	KTAP_EXPECT_EQ(t, rpmsg32_to_cpu(chan, v32), 0x11223344);

	/* A big-endian channel gets big-endian words, each width. */
	big->little_endian = false;
	v16 = cpu_to_rpmsg16(big, 0x1122);
	memcpy(b16, &v16, sizeof(b16));
	KTAP_EXPECT(t, b16[0] == 0x11 && b16[1] == 0x22);
	KTAP_EXPECT_EQ(t, rpmsg16_to_cpu(big, v16), 0x1122);
	v32 = cpu_to_rpmsg32(big, 0x11223344);
	KTAP_EXPECT(t, !memcmp(&v32, be, sizeof(be)));
	KTAP_EXPECT_EQ(t, rpmsg32_to_cpu(big, v32), 0x11223344);
	v64 = cpu_to_rpmsg64(big, 0x1122334455667788ULL);
	KTAP_EXPECT(t, !memcmp(&v64, "\x11\x22\x33\x44\x55\x66\x77\x88", 8));
	KTAP_EXPECT(t, rpmsg64_to_cpu(big, v64) == 0x1122334455667788ULL);
	kfree(big);
}

static void ns_message_layout(struct ampsoc_ktap_test *t)
{
	struct rpmsg_ns_msg ns = {};

	/* <linux/rpmsg/ns.h>: mainline's wire format, over the compat types */
	KTAP_EXPECT_EQ(t, sizeof(ns), 40);
	KTAP_EXPECT_EQ(t, offsetof(struct rpmsg_ns_msg, addr), RPMSG_NAME_SIZE);
	KTAP_EXPECT_EQ(t, RPMSG_NS_ADDR, 53);
	KTAP_EXPECT_EQ(t, RPMSG_NS_DESTROY, 1);
	ns.addr = cpu_to_rpmsg32(chan, 0x401);
	KTAP_EXPECT_EQ(t, rpmsg32_to_cpu(chan, ns.addr), 0x401);
}

static void send_and_mtu(struct ampsoc_ktap_test *t)
{
	if (!have_channel(t))
		return;
	/* 512-byte buffers less the 16-byte header */
	KTAP_EXPECT_EQ(t, rpmsg_get_mtu(chan->ept), 496);
	KTAP_EXPECT(t, rpmsg_poll(chan->ept, NULL, NULL) & EPOLLOUT);

	reinit_completion(&chan_rx.done);
	KTAP_EXPECT_EQ(t, rpmsg_send(chan->ept, "send", 4), 0);
	expect_echo(t, &chan_rx, "send", chan->dst);

	reinit_completion(&chan_rx.done);
	KTAP_EXPECT_EQ(t, rpmsg_trysend(chan->ept, "trysend", 7), 0);
	expect_echo(t, &chan_rx, "trysend", chan->dst);

	/* another echo address: the reply comes from there */
	reinit_completion(&chan_rx.done);
	KTAP_EXPECT_EQ(t, rpmsg_sendto(chan->ept, "sendto", 6, ECHO_LAST), 0);
	expect_echo(t, &chan_rx, "sendto", ECHO_LAST);

	reinit_completion(&chan_rx.done);
	KTAP_EXPECT_EQ(t, rpmsg_trysendto(chan->ept, "trysendto", 9,
					  ECHO_LAST - 1), 0);
	expect_echo(t, &chan_rx, "trysendto", ECHO_LAST - 1);

	/* one byte above the MTU */
	KTAP_EXPECT(t, rpmsg_send(chan->ept, too_big, sizeof(too_big)) < 0);
}

static void endpoints_and_offchannel(struct ampsoc_ktap_test *t)
{
	struct rpmsg_channel_info ci = { .src = RPMSG_ADDR_ANY,
					 .dst = RPMSG_ADDR_ANY };
	struct rx_slot *slot;
	struct rpmsg_endpoint *ept;

	if (!have_channel(t))
		return;
	slot = kzalloc(sizeof(*slot), GFP_KERNEL);
	if (!KTAP_EXPECT(t, slot))
		return;
	init_completion(&slot->done);
	strscpy(ci.name, COMPAT_CHANNEL, sizeof(ci.name));
	ept = rpmsg_create_ept(chan, compat_rx, slot, ci);
	if (!KTAP_EXPECT(t, ept))
		goto out;
	KTAP_EXPECT(t, ept->addr != chan->ept->addr);

	/* sent from the channel's endpoint with ept's address as source */
	KTAP_EXPECT_EQ(t, rpmsg_send_offchannel(chan->ept, ept->addr,
						ECHO_FIRST + 2, "off", 3), 0);
	expect_echo(t, slot, "off", ECHO_FIRST + 2);
	reinit_completion(&slot->done);
	KTAP_EXPECT_EQ(t, rpmsg_trysend_offchannel(chan->ept, ept->addr,
						   ECHO_FIRST + 3, "tryoff", 6),
		       0);
	expect_echo(t, slot, "tryoff", ECHO_FIRST + 3);
	rpmsg_destroy_ept(ept);
out:
	kfree(slot);
}

static void channels_by_name(struct ampsoc_ktap_test *t)
{
	struct rpmsg_channel_info ci = { .src = RPMSG_ADDR_ANY, .dst = 0x420 };
	struct rpmsg_device *made;
	struct device *dev;

	if (!have_channel(t))
		return;
	strscpy(ci.name, COMPAT_CHANNEL, sizeof(ci.name));
	ci.dst = chan->dst;
	dev = rpmsg_find_device(chan->dev.parent, &ci);
	KTAP_EXPECT(t, dev == &chan->dev);
	put_device(dev);

	strscpy(ci.name, "ampsoc-compat-made", sizeof(ci.name));
	ci.dst = 0x420;
	made = rpmsg_create_channel(chan, &ci);
	if (!KTAP_EXPECT(t, made))
		return;
	KTAP_EXPECT(t, !strcmp(made->id.name, "ampsoc-compat-made"));
	KTAP_EXPECT_EQ(t, made->dst, 0x420);
	dev = rpmsg_find_device(chan->dev.parent, &ci);
	KTAP_EXPECT(t, dev == &made->dev);
	put_device(dev);
	KTAP_EXPECT_EQ(t, rpmsg_release_channel(chan, &ci), 0);
	KTAP_EXPECT(t, !rpmsg_find_device(chan->dev.parent, &ci));
}

static bool override_bound;

static int override_probe(struct rpmsg_device *rpdev)
{
	override_bound = true;
	return 0;
}

static void override_remove(struct rpmsg_device *rpdev)
{
	override_bound = false;
}

/* No id table: it binds only where a driver_override names it. */
static struct rpmsg_driver override_driver = {
	.drv.name = "ampsoc_compat_override",
	.probe = override_probe,
	.remove = override_remove,
};

static void compat_release(struct device *dev)
{
	struct rpmsg_device *rpdev = container_of(dev, struct rpmsg_device,
						  dev);

	kfree(rpdev->driver_override);
	kfree(rpdev);
}

static struct rpmsg_device *new_device(u32 dst)
{
	struct rpmsg_device *rpdev = kzalloc(sizeof(*rpdev), GFP_KERNEL);

	if (!rpdev)
		return NULL;
	rpdev->dev.parent = chan->dev.parent;
	rpdev->dev.release = compat_release;
	rpdev->src = RPMSG_ADDR_ANY;
	rpdev->dst = dst;
	return rpdev;
}

static void register_device(struct ampsoc_ktap_test *t)
{
	struct rpmsg_channel_info ci = { .src = RPMSG_ADDR_ANY, .dst = 0x430 };
	struct rpmsg_device *rpdev;
	int err;

	if (!have_channel(t) ||
	    !KTAP_EXPECT_EQ(t, register_rpmsg_driver(&override_driver), 0))
		return;

	/*
	 * The override names the device and picks its driver. A device that
	 * fails to register is released at once: no use of it after that.
	 */
	rpdev = new_device(0x430);
	if (!KTAP_EXPECT(t, rpdev))
		goto out;
	strscpy(ci.name, override_driver.drv.name, sizeof(ci.name));
	err = rpmsg_register_device_override(rpdev, ci.name);
	if (!KTAP_EXPECT_EQ(t, err, 0))
		goto out;
	KTAP_EXPECT(t, override_bound);
	KTAP_EXPECT(t, !strcmp(rpdev->id.name, ci.name));
	KTAP_EXPECT_EQ(t, rpmsg_unregister_device(chan->dev.parent, &ci), 0);
	KTAP_EXPECT(t, !override_bound);

	/* a plain one: named by its id, no driver */
	rpdev = new_device(0x431);
	if (!KTAP_EXPECT(t, rpdev))
		goto out;
	strscpy(rpdev->id.name, "ampsoc-compat-plain", sizeof(rpdev->id.name));
	err = rpmsg_register_device(rpdev);
	if (!KTAP_EXPECT_EQ(t, err, 0))
		goto out;
	KTAP_EXPECT(t, !override_bound);
	strscpy(ci.name, "ampsoc-compat-plain", sizeof(ci.name));
	ci.dst = 0x431;
	KTAP_EXPECT_EQ(t, rpmsg_unregister_device(chan->dev.parent, &ci), 0);
	KTAP_EXPECT_EQ(t, rpmsg_unregister_device(chan->dev.parent, &ci),
		       -EINVAL);
out:
	unregister_rpmsg_driver(&override_driver);
}

static const struct ampsoc_ktap_case compat_cases[] = {
	AMPSOC_KTAP_CASE(byteorder_without_channel),
	AMPSOC_KTAP_CASE(byteorder_follows_channel),
	AMPSOC_KTAP_CASE(ns_message_layout),
	AMPSOC_KTAP_CASE(send_and_mtu),
	AMPSOC_KTAP_CASE(endpoints_and_offchannel),
	AMPSOC_KTAP_CASE(channels_by_name),
	AMPSOC_KTAP_CASE(register_device),
	{}
};

static const struct ampsoc_ktap_suite compat_suites[] = {
	AMPSOC_KTAP_SUITE(rpmsg_compat, compat_cases),
};

static int __init compat_test_init(void)
{
	int ret;

	init_completion(&chan_rx.done);
	/* binds at once to the channel the scenario had announced */
	ret = register_rpmsg_driver(&compat_driver);
	if (ret)
		return ret;
	ampsoc_ktap_run(compat_suites, ARRAY_SIZE(compat_suites));
	return 0;
}
module_init(compat_test_init);

static void __exit compat_test_exit(void)
{
	unregister_rpmsg_driver(&compat_driver);
	ampsoc_ktap_done();
}
module_exit(compat_test_exit);

MODULE_DESCRIPTION("ampsoc: mainline's rpmsg API through include/compat");
MODULE_LICENSE("GPL");
