// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc rpmsg bus core: bus "rpmsg", channel devices, driver matching and
 * the transport-independent endpoint API.
 *
 * Channels are devices named "<parent>.<service>.<src>.<dst>" under
 * /sys/bus/rpmsg/devices with mainline's attributes. A driver matches a
 * channel by driver_override first, then by service name; uevents carry
 * MODALIAS=rpmsg:<service> so that modules autoload.
 */
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "rpmsg_internal.h"

struct class *ampsoc_rpmsg_class;

/**
 * ampsoc_rpmsg_create_channel() - create a local channel
 * @rpdev: any channel of the transport that should carry the new one
 * @ci: name and addresses of the new channel
 *
 * Context: process context; may sleep.
 * Return: the new channel, or NULL on failure.
 */
struct rpmsg_device *ampsoc_rpmsg_create_channel(struct rpmsg_device *rpdev,
						 struct rpmsg_channel_info *ci)
{
	if (WARN_ON(!rpdev) || !rpdev->ops || !rpdev->ops->create_channel)
		return NULL;
	return rpdev->ops->create_channel(rpdev, ci);
}
EXPORT_SYMBOL_GPL(ampsoc_rpmsg_create_channel);

/**
 * ampsoc_rpmsg_release_channel() - remove a channel
 * @rpdev: any channel of the transport that carries it
 * @chinfo: name and addresses of the channel to remove
 *
 * Context: process context; may sleep.
 * Return: 0, -EINVAL for a bad argument or when no channel matches (as
 * mainline's virtio transport), -ENXIO when the transport cannot release.
 */
int ampsoc_rpmsg_release_channel(struct rpmsg_device *rpdev,
				 struct rpmsg_channel_info *chinfo)
{
	if (WARN_ON(!rpdev))
		return -EINVAL;
	if (!rpdev->ops || !rpdev->ops->release_channel)
		return -ENXIO;
	return rpdev->ops->release_channel(rpdev, chinfo);
}
EXPORT_SYMBOL_GPL(ampsoc_rpmsg_release_channel);

/**
 * ampsoc_rpmsg_create_ept() - create an endpoint on a channel
 * @rpdev: the channel
 * @cb: receive callback
 * @priv: passed to @cb
 * @chinfo: @chinfo.src is the wanted address, or RPMSG_ADDR_ANY for a
 *          dynamic one (from AMPSOC_RPMSG_RESERVED_ADDRESSES up)
 *
 * Context: process context; may sleep.
 * Return: the endpoint, or NULL when the address is taken or on failure.
 */
struct rpmsg_endpoint *ampsoc_rpmsg_create_ept(struct rpmsg_device *rpdev,
					       rpmsg_rx_cb_t cb, void *priv,
					       struct rpmsg_channel_info chinfo)
{
	if (WARN_ON(!rpdev) || !rpdev->ops || !rpdev->ops->create_ept)
		return NULL;
	return rpdev->ops->create_ept(rpdev, cb, priv, chinfo);
}
EXPORT_SYMBOL_GPL(ampsoc_rpmsg_create_ept);

/**
 * ampsoc_rpmsg_destroy_ept() - destroy an endpoint
 * @ept: the endpoint, or NULL
 *
 * No callback of @ept runs once this returns.
 *
 * Context: process context; may sleep; not from @ept's own callback.
 * Return: nothing.
 */
void ampsoc_rpmsg_destroy_ept(struct rpmsg_endpoint *ept)
{
	if (ept && ept->ops)
		ept->ops->destroy_ept(ept);
}
EXPORT_SYMBOL_GPL(ampsoc_rpmsg_destroy_ept);

static int rpmsg_do_send(struct rpmsg_endpoint *ept, u32 src, u32 dst,
			 void *data, int len, bool wait)
{
	if (WARN_ON(!ept))
		return -EINVAL;
	if (!ept->ops || !ept->ops->send)
		return -ENXIO;
	return ept->ops->send(ept, src, dst, data, len, wait);
}

/**
 * ampsoc_rpmsg_send() - send to the channel's remote address
 * @ept: the sending endpoint
 * @data: payload
 * @len: payload length, at most the MTU
 *
 * Waits up to 15 s for a free tx buffer (the transport returns at once
 * when its remote goes away).
 *
 * Context: process context; may sleep.
 * Return: 0, -EMSGSIZE, -ETIMEDOUT, -ENODEV when the remote is gone, or
 * another negative errno.
 */
int ampsoc_rpmsg_send(struct rpmsg_endpoint *ept, void *data, int len)
{
	if (WARN_ON(!ept))
		return -EINVAL;
	return rpmsg_do_send(ept, ept->addr, ept->rpdev->dst, data, len, true);
}
EXPORT_SYMBOL_GPL(ampsoc_rpmsg_send);

/**
 * ampsoc_rpmsg_sendto() - send to an explicit remote address
 * @ept: the sending endpoint
 * @data: payload
 * @len: payload length
 * @dst: remote address
 *
 * Context: process context; may sleep.
 * Return: as ampsoc_rpmsg_send().
 */
int ampsoc_rpmsg_sendto(struct rpmsg_endpoint *ept, void *data, int len,
			u32 dst)
{
	if (WARN_ON(!ept))
		return -EINVAL;
	return rpmsg_do_send(ept, ept->addr, dst, data, len, true);
}
EXPORT_SYMBOL_GPL(ampsoc_rpmsg_sendto);

/**
 * ampsoc_rpmsg_send_offchannel() - send with explicit addresses
 * @ept: the sending endpoint
 * @src: source address written in the header
 * @dst: remote address
 * @data: payload
 * @len: payload length
 *
 * Context: process context; may sleep.
 * Return: as ampsoc_rpmsg_send().
 */
int ampsoc_rpmsg_send_offchannel(struct rpmsg_endpoint *ept, u32 src, u32 dst,
				 void *data, int len)
{
	return rpmsg_do_send(ept, src, dst, data, len, true);
}
EXPORT_SYMBOL_GPL(ampsoc_rpmsg_send_offchannel);

/**
 * ampsoc_rpmsg_trysend() - send without waiting for a tx buffer
 * @ept: the sending endpoint
 * @data: payload
 * @len: payload length
 *
 * Context: process context; may sleep on a mutex but never waits for the
 * remote.
 * Return: 0, -ENOMEM when no tx buffer is free, or as ampsoc_rpmsg_send().
 */
int ampsoc_rpmsg_trysend(struct rpmsg_endpoint *ept, void *data, int len)
{
	if (WARN_ON(!ept))
		return -EINVAL;
	return rpmsg_do_send(ept, ept->addr, ept->rpdev->dst, data, len, false);
}
EXPORT_SYMBOL_GPL(ampsoc_rpmsg_trysend);

/**
 * ampsoc_rpmsg_trysendto() - sendto without waiting for a tx buffer
 * @ept: the sending endpoint
 * @data: payload
 * @len: payload length
 * @dst: remote address
 *
 * Context: as ampsoc_rpmsg_trysend().
 * Return: as ampsoc_rpmsg_trysend().
 */
int ampsoc_rpmsg_trysendto(struct rpmsg_endpoint *ept, void *data, int len,
			   u32 dst)
{
	if (WARN_ON(!ept))
		return -EINVAL;
	return rpmsg_do_send(ept, ept->addr, dst, data, len, false);
}
EXPORT_SYMBOL_GPL(ampsoc_rpmsg_trysendto);

/**
 * ampsoc_rpmsg_trysend_offchannel() - offchannel send without waiting
 * @ept: the sending endpoint
 * @src: source address
 * @dst: remote address
 * @data: payload
 * @len: payload length
 *
 * Context: as ampsoc_rpmsg_trysend().
 * Return: as ampsoc_rpmsg_trysend().
 */
int ampsoc_rpmsg_trysend_offchannel(struct rpmsg_endpoint *ept, u32 src,
				    u32 dst, void *data, int len)
{
	return rpmsg_do_send(ept, src, dst, data, len, false);
}
EXPORT_SYMBOL_GPL(ampsoc_rpmsg_trysend_offchannel);

/**
 * ampsoc_rpmsg_poll() - poll an endpoint for a free tx buffer
 * @ept: the endpoint
 * @filp: the file being polled
 * @wait: the poll table
 *
 * Context: process context.
 * Return: EPOLLOUT when a send would not wait, EPOLLERR|EPOLLHUP when the
 * remote is gone, 0 otherwise.
 */
__poll_t ampsoc_rpmsg_poll(struct rpmsg_endpoint *ept, struct file *filp,
			   poll_table *wait)
{
	if (WARN_ON(!ept))
		return 0;
	if (!ept->ops || !ept->ops->poll)
		return 0;
	return ept->ops->poll(ept, filp, wait);
}
EXPORT_SYMBOL_GPL(ampsoc_rpmsg_poll);

/**
 * ampsoc_rpmsg_get_mtu() - largest payload an endpoint can send
 * @ept: the endpoint
 *
 * Context: any.
 * Return: the MTU in bytes, or a negative errno.
 */
ssize_t ampsoc_rpmsg_get_mtu(struct rpmsg_endpoint *ept)
{
	if (WARN_ON(!ept))
		return -EINVAL;
	if (!ept->ops || !ept->ops->get_mtu)
		return -EOPNOTSUPP;
	return ept->ops->get_mtu(ept);
}
EXPORT_SYMBOL_GPL(ampsoc_rpmsg_get_mtu);

/**
 * ampsoc_rpmsg_set_flow_control() - pause or resume a remote sender
 * @ept: the receiving endpoint
 * @pause: true to ask the remote to stop sending to @ept
 * @dst: the remote endpoint concerned
 *
 * Context: process context; may sleep.
 * Return: 0, -EOPNOTSUPP when the remote did not negotiate flow control,
 * or another negative errno.
 */
int ampsoc_rpmsg_set_flow_control(struct rpmsg_endpoint *ept, bool pause,
				  u32 dst)
{
	if (WARN_ON(!ept))
		return -EINVAL;
	if (!ept->ops || !ept->ops->set_flow_control)
		return -EOPNOTSUPP;
	return ept->ops->set_flow_control(ept, pause, dst);
}
EXPORT_SYMBOL_GPL(ampsoc_rpmsg_set_flow_control);

/**
 * ampsoc_rpmsg_get_outgoing_flow() - may this endpoint send?
 * @ept: the endpoint
 *
 * Context: any.
 * Return: 1 when the remote accepts traffic, 0 when it paused @ept, or a
 * negative errno.
 */
int ampsoc_rpmsg_get_outgoing_flow(struct rpmsg_endpoint *ept)
{
	if (WARN_ON(!ept))
		return -EINVAL;
	if (!ept->ops || !ept->ops->get_outgoing_flow)
		return 1;
	return ept->ops->get_outgoing_flow(ept);
}
EXPORT_SYMBOL_GPL(ampsoc_rpmsg_get_outgoing_flow);

/**
 * ampsoc_rpmsg_hold_rx_buffer() - keep an rx buffer beyond the callback
 * @ept: the endpoint whose callback received @data
 * @data: the payload pointer passed to the callback
 *
 * The buffer is not given back to the remote until
 * ampsoc_rpmsg_release_rx_buffer().
 *
 * Context: only from @ept's receive callback.
 * Return: 0, or -EINVAL when @data is not the buffer being delivered.
 */
int ampsoc_rpmsg_hold_rx_buffer(struct rpmsg_endpoint *ept, void *data)
{
	if (WARN_ON(!ept))
		return -EINVAL;
	if (!ept->ops || !ept->ops->hold_rx)
		return -EOPNOTSUPP;
	return ept->ops->hold_rx(ept, data);
}
EXPORT_SYMBOL_GPL(ampsoc_rpmsg_hold_rx_buffer);

/**
 * ampsoc_rpmsg_release_rx_buffer() - give back a held rx buffer
 * @ept: the endpoint that held it
 * @data: the payload pointer
 *
 * Context: process context; may sleep.
 * Return: nothing.
 */
void ampsoc_rpmsg_release_rx_buffer(struct rpmsg_endpoint *ept, void *data)
{
	if (ept && ept->ops && ept->ops->release_rx)
		ept->ops->release_rx(ept, data);
}
EXPORT_SYMBOL_GPL(ampsoc_rpmsg_release_rx_buffer);

/**
 * ampsoc_rpmsg_get_tx_buffer() - reserve a tx buffer for zero-copy send
 * @ept: the sending endpoint
 * @len: set to the payload capacity
 * @wait: wait up to 15 s for a buffer
 *
 * Context: process context; may sleep when @wait.
 * Return: the payload area, or an ERR_PTR (-ENOMEM when none is free
 * without @wait, -ENODEV when the remote is gone).
 */
void *ampsoc_rpmsg_get_tx_buffer(struct rpmsg_endpoint *ept,
				 unsigned int *len, bool wait)
{
	if (WARN_ON(!ept || !len))
		return ERR_PTR(-EINVAL);
	if (!ept->ops || !ept->ops->get_tx)
		return ERR_PTR(-EOPNOTSUPP);
	return ept->ops->get_tx(ept, len, wait);
}
EXPORT_SYMBOL_GPL(ampsoc_rpmsg_get_tx_buffer);

/**
 * ampsoc_rpmsg_sendto_nocopy() - send a buffer from get_tx_buffer
 * @ept: the sending endpoint
 * @data: the payload area returned by ampsoc_rpmsg_get_tx_buffer()
 * @len: payload length
 * @dst: remote address
 *
 * On success the buffer belongs to the transport again; on failure the
 * caller still owns it and must release it.
 *
 * Context: process context.
 * Return: 0 or a negative errno.
 */
int ampsoc_rpmsg_sendto_nocopy(struct rpmsg_endpoint *ept, void *data,
			       int len, u32 dst)
{
	if (WARN_ON(!ept))
		return -EINVAL;
	if (!ept->ops || !ept->ops->send_nocopy)
		return -EOPNOTSUPP;
	return ept->ops->send_nocopy(ept, data, len, dst);
}
EXPORT_SYMBOL_GPL(ampsoc_rpmsg_sendto_nocopy);

/**
 * ampsoc_rpmsg_release_tx_buffer() - give back an unsent tx buffer
 * @ept: the endpoint
 * @data: the payload area
 *
 * Context: process context.
 * Return: nothing.
 */
void ampsoc_rpmsg_release_tx_buffer(struct rpmsg_endpoint *ept, void *data)
{
	if (ept && ept->ops && ept->ops->release_tx)
		ept->ops->release_tx(ept, data);
}
EXPORT_SYMBOL_GPL(ampsoc_rpmsg_release_tx_buffer);

/**
 * ampsoc_rpmsg_get_stats() - counters of the transport under a channel
 * @rpdev: the channel
 * @stats: filled in
 *
 * Context: any.
 * Return: 0 or -EOPNOTSUPP.
 */
int ampsoc_rpmsg_get_stats(struct rpmsg_device *rpdev,
			   struct ampsoc_rpmsg_stats *stats)
{
	if (!rpdev || !rpdev->ops || !rpdev->ops->get_stats)
		return -EOPNOTSUPP;
	return rpdev->ops->get_stats(rpdev, stats);
}
EXPORT_SYMBOL_GPL(ampsoc_rpmsg_get_stats);

static int rpmsg_device_match(struct device *dev, void *data)
{
	struct rpmsg_channel_info *chinfo = data;
	struct rpmsg_device *rpdev = to_rpmsg_device(dev);

	if (dev->bus != &ampsoc_rpmsg_bus)
		return 0;
	if (chinfo->src != RPMSG_ADDR_ANY && chinfo->src != rpdev->src)
		return 0;
	if (chinfo->dst != RPMSG_ADDR_ANY && chinfo->dst != rpdev->dst)
		return 0;
	if (strncmp(chinfo->name, rpdev->id.name, RPMSG_NAME_SIZE))
		return 0;
	return 1;
}

/**
 * ampsoc_rpmsg_find_device() - find a channel under a transport device
 * @parent: the transport device
 * @ci: name and addresses; RPMSG_ADDR_ANY matches any address
 *
 * Context: process context.
 * Return: the channel with a reference held (put_device() it), or NULL.
 */
struct rpmsg_device *ampsoc_rpmsg_find_device(struct device *parent,
					      struct rpmsg_channel_info *ci)
{
	struct device *dev = device_find_child(parent, ci, rpmsg_device_match);

	return dev ? to_rpmsg_device(dev) : NULL;
}
EXPORT_SYMBOL_GPL(ampsoc_rpmsg_find_device);

/**
 * ampsoc_rpmsg_add_static_channels() - declare channels a remote cannot
 *                                      announce
 * @transport: the transport device (the virtio device of the remote)
 * @ci: the channels: name, local address (or RPMSG_ADDR_ANY), remote address
 * @n: number of entries in @ci
 *
 * For platforms and boards whose remote has no name service. Channels are
 * created as if the remote had announced them and go away with the
 * transport.
 *
 * Context: process context; may sleep.
 * Return: 0, -ENODEV when @transport has no rpmsg transport bound, or
 * -EEXIST/-ENOMEM when a channel could not be created (earlier ones stay).
 */
int ampsoc_rpmsg_add_static_channels(struct device *transport,
				     const struct rpmsg_channel_info *ci,
				     unsigned int n)
{
	struct rpmsg_channel_info ctrl = { .name = "rpmsg_ctrl" };
	struct rpmsg_device *rpdev;
	unsigned int i;
	int ret = 0;

	rpdev = ampsoc_rpmsg_find_device(transport, &ctrl);
	if (!rpdev)
		return -ENODEV;
	for (i = 0; i < n && !ret; i++) {
		struct rpmsg_channel_info c = ci[i];

		if (!ampsoc_rpmsg_create_channel(rpdev, &c))
			ret = -EEXIST;
	}
	put_device(&rpdev->dev);
	return ret;
}
EXPORT_SYMBOL_GPL(ampsoc_rpmsg_add_static_channels);

/*
 * Static channels that a platform or board declared for the transports
 * below one of its devices. A transport creates them each time it probes,
 * so they come back with every boot of the remote.
 */
struct rpmsg_static_decl {
	struct list_head node;
	struct device *owner;
	unsigned int n;
	struct rpmsg_channel_info ci[];
};

static LIST_HEAD(rpmsg_static_decls);
static DEFINE_MUTEX(rpmsg_static_lock);	/* the list above */

/**
 * ampsoc_rpmsg_declare_static_channels() - declare the channels that the
 *	remotes below a device serve without announcing them
 * @owner: the platform's device (e.g. the remote processor's); every
 *	transport that probes below it gets the channels
 * @ci: the channels: name, local address (or RPMSG_ADDR_ANY), remote address
 * @n: number of entries in @ci, at most AMPSOC_RPMSG_MAX_STATIC
 *
 * The board-file counterpart of ampsoc_rpmsg_add_static_channels(): call it
 * at probe, before the remote boots, and undo it with
 * ampsoc_rpmsg_forget_static_channels() before @owner goes away. @ci is
 * copied.
 *
 * Context: process context; may sleep.
 * Return: 0, -EINVAL for a bad entry or count, -EEXIST if @owner already
 * declared channels, or -ENOMEM.
 */
int ampsoc_rpmsg_declare_static_channels(struct device *owner,
					 const struct rpmsg_channel_info *ci,
					 unsigned int n)
{
	struct rpmsg_static_decl *d, *o;
	unsigned int i;
	int ret = 0;

	if (!owner || !n || n > AMPSOC_RPMSG_MAX_STATIC)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!ci[i].name[0] ||
		    strnlen(ci[i].name, RPMSG_NAME_SIZE) == RPMSG_NAME_SIZE ||
		    ci[i].dst == RPMSG_ADDR_ANY)
			return -EINVAL;
	d = kzalloc(struct_size(d, ci, n), GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	d->owner = owner;
	d->n = n;
	memcpy(d->ci, ci, n * sizeof(*ci));
	mutex_lock(&rpmsg_static_lock);
	list_for_each_entry(o, &rpmsg_static_decls, node)
		if (o->owner == owner)
			ret = -EEXIST;
	if (!ret)
		list_add_tail(&d->node, &rpmsg_static_decls);
	mutex_unlock(&rpmsg_static_lock);
	if (ret)
		kfree(d);
	return ret;
}
EXPORT_SYMBOL_GPL(ampsoc_rpmsg_declare_static_channels);

/**
 * ampsoc_rpmsg_forget_static_channels() - withdraw a declaration
 * @owner: the device given to ampsoc_rpmsg_declare_static_channels()
 *
 * Channels already created stay until their transport goes away; later
 * transports no longer get them. Nothing happens if @owner declared none.
 *
 * Context: process context; may sleep.
 * Return: nothing.
 */
void ampsoc_rpmsg_forget_static_channels(struct device *owner)
{
	struct rpmsg_static_decl *d, *tmp;

	mutex_lock(&rpmsg_static_lock);
	list_for_each_entry_safe(d, tmp, &rpmsg_static_decls, node) {
		if (d->owner != owner)
			continue;
		list_del(&d->node);
		kfree(d);
	}
	mutex_unlock(&rpmsg_static_lock);
}
EXPORT_SYMBOL_GPL(ampsoc_rpmsg_forget_static_channels);

static bool rpmsg_is_below(struct device *dev, struct device *ancestor)
{
	for (dev = dev->parent; dev; dev = dev->parent)
		if (dev == ancestor)
			return true;
	return false;
}

/**
 * ampsoc_rpmsg_create_declared_channels() - create the declared static
 *	channels of a transport
 * @transport: the transport device, its rpmsg_ctrl channel registered
 *
 * For transports: call once the transport is up. A channel that cannot be
 * created is logged and skipped; the transport works without it.
 *
 * Context: process context; may sleep.
 * Return: the number of channels created.
 */
unsigned int ampsoc_rpmsg_create_declared_channels(struct device *transport)
{
	struct rpmsg_static_decl *d;
	unsigned int i, made = 0;

	mutex_lock(&rpmsg_static_lock);
	list_for_each_entry(d, &rpmsg_static_decls, node) {
		if (!rpmsg_is_below(transport, d->owner))
			continue;
		for (i = 0; i < d->n; i++) {
			if (ampsoc_rpmsg_add_static_channels(transport, &d->ci[i], 1)) {
				dev_err(transport, "static channel %s (dst %#x) not created\n",
					d->ci[i].name, d->ci[i].dst);
				continue;
			}
			made++;
		}
	}
	mutex_unlock(&rpmsg_static_lock);
	return made;
}
EXPORT_SYMBOL_GPL(ampsoc_rpmsg_create_declared_channels);

/* sysfs, per Documentation/ABI/testing/sysfs-bus-rpmsg */
static ssize_t name_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%s\n", to_rpmsg_device(dev)->id.name);
}
static DEVICE_ATTR_RO(name);

static ssize_t src_show(struct device *dev, struct device_attribute *attr,
			char *buf)
{
	return sysfs_emit(buf, "0x%x\n", to_rpmsg_device(dev)->src);
}
static DEVICE_ATTR_RO(src);

static ssize_t dst_show(struct device *dev, struct device_attribute *attr,
			char *buf)
{
	return sysfs_emit(buf, "0x%x\n", to_rpmsg_device(dev)->dst);
}
static DEVICE_ATTR_RO(dst);

static ssize_t announce_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  to_rpmsg_device(dev)->announce ? "true" : "false");
}
static DEVICE_ATTR_RO(announce);

static ssize_t modalias_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, RPMSG_DEVICE_MODALIAS_FMT "\n",
			  to_rpmsg_device(dev)->id.name);
}
static DEVICE_ATTR_RO(modalias);

static ssize_t driver_override_store(struct device *dev,
				     struct device_attribute *attr,
				     const char *buf, size_t count)
{
	int ret = driver_set_override(dev,
				      &to_rpmsg_device(dev)->driver_override,
				      buf, count);

	return ret ? ret : count;
}

static ssize_t driver_override_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	ssize_t len;

	device_lock(dev);
	len = sysfs_emit(buf, "%s\n", to_rpmsg_device(dev)->driver_override);
	device_unlock(dev);
	return len;
}
static DEVICE_ATTR_RW(driver_override);

static struct attribute *rpmsg_dev_attrs[] = {
	&dev_attr_name.attr,
	&dev_attr_modalias.attr,
	&dev_attr_dst.attr,
	&dev_attr_src.attr,
	&dev_attr_announce.attr,
	&dev_attr_driver_override.attr,
	NULL,
};
ATTRIBUTE_GROUPS(rpmsg_dev);

static int rpmsg_dev_match(struct device *dev, struct device_driver *drv)
{
	struct rpmsg_device *rpdev = to_rpmsg_device(dev);
	struct rpmsg_driver *rpdrv = to_rpmsg_driver(drv);
	const struct rpmsg_device_id *id;

	if (rpdev->driver_override)
		return !strcmp(rpdev->driver_override, drv->name);
	for (id = rpdrv->id_table; id && id->name[0]; id++)
		if (!strncmp(id->name, rpdev->id.name, RPMSG_NAME_SIZE))
			return 1;
	return 0;
}

static int rpmsg_uevent(struct device *dev, struct kobj_uevent_env *env)
{
	return add_uevent_var(env, "MODALIAS=" RPMSG_DEVICE_MODALIAS_FMT,
			      to_rpmsg_device(dev)->id.name);
}

/*
 * A driver with a callback gets an endpoint before its probe runs; the
 * channel is announced to the remote once the driver is bound.
 */
static int rpmsg_dev_probe(struct device *dev)
{
	struct rpmsg_device *rpdev = to_rpmsg_device(dev);
	struct rpmsg_driver *rpdrv = to_rpmsg_driver(dev->driver);
	struct rpmsg_channel_info chinfo = {};
	struct rpmsg_endpoint *ept = NULL;
	int err;

	if (rpdrv->callback) {
		strscpy(chinfo.name, rpdev->id.name, sizeof(chinfo.name));
		chinfo.src = rpdev->src;
		chinfo.dst = RPMSG_ADDR_ANY;
		ept = ampsoc_rpmsg_create_ept(rpdev, rpdrv->callback, NULL,
					      chinfo);
		if (!ept) {
			dev_err(dev, "failed to create endpoint\n");
			return -ENOMEM;
		}
		ept->flow_cb = rpdrv->flowcontrol;
		rpdev->ept = ept;
		rpdev->src = ept->addr;
	}

	err = rpdrv->probe ? rpdrv->probe(rpdev) : 0;
	if (err) {
		dev_err(dev, "%s: probe failed: %d\n", __func__, err);
		goto destroy;
	}

	if (ept && rpdev->ops->announce_create) {
		err = rpdev->ops->announce_create(rpdev);
		if (err) {
			dev_err(dev, "failed to announce creation\n");
			if (rpdrv->remove)
				rpdrv->remove(rpdev);
			goto destroy;
		}
	}
	return 0;

destroy:
	if (ept) {
		rpdev->ept = NULL;
		ampsoc_rpmsg_destroy_ept(ept);
	}
	return err;
}

static void rpmsg_dev_remove(struct device *dev)
{
	struct rpmsg_device *rpdev = to_rpmsg_device(dev);
	struct rpmsg_driver *rpdrv = to_rpmsg_driver(dev->driver);

	if (rpdev->ept && rpdev->ops->announce_destroy)
		rpdev->ops->announce_destroy(rpdev);
	if (rpdrv->remove)
		rpdrv->remove(rpdev);
	if (rpdev->ept) {
		ampsoc_rpmsg_destroy_ept(rpdev->ept);
		rpdev->ept = NULL;
	}
}

struct bus_type ampsoc_rpmsg_bus = {
	.name = "rpmsg",
	.match = rpmsg_dev_match,
	.dev_groups = rpmsg_dev_groups,
	.uevent = rpmsg_uevent,
	.probe = rpmsg_dev_probe,
	.remove = rpmsg_dev_remove,
};

/**
 * ampsoc_rpmsg_register_device_override() - add a channel to the bus
 * @rpdev: the channel, with parent, release, ops and id set
 * @driver_override: driver that must bind, or NULL
 *
 * On failure the device reference is dropped, so @rpdev is released.
 *
 * Context: process context; may sleep.
 * Return: 0 or a negative errno.
 */
int ampsoc_rpmsg_register_device_override(struct rpmsg_device *rpdev,
					  const char *driver_override)
{
	struct device *dev = &rpdev->dev;
	int ret;

	device_initialize(dev);
	if (driver_override)
		strscpy(rpdev->id.name, driver_override, RPMSG_NAME_SIZE);
	dev_set_name(dev, "%s.%s.%d.%d", dev_name(dev->parent),
		     rpdev->id.name, rpdev->src, rpdev->dst);
	dev->bus = &ampsoc_rpmsg_bus;
	if (driver_override) {
		ret = driver_set_override(dev, &rpdev->driver_override,
					  driver_override,
					  strlen(driver_override));
		if (ret) {
			put_device(dev);
			return ret;
		}
	}
	ret = device_add(dev);
	if (ret) {
		dev_err(dev, "device_add failed: %d\n", ret);
		put_device(dev);
	}
	return ret;
}
EXPORT_SYMBOL_GPL(ampsoc_rpmsg_register_device_override);

/**
 * ampsoc_rpmsg_register_device() - add a channel to the bus
 * @rpdev: the channel, with parent, release, ops and id set
 *
 * Context: process context; may sleep.
 * Return: 0 or a negative errno; on failure @rpdev is released.
 */
int ampsoc_rpmsg_register_device(struct rpmsg_device *rpdev)
{
	return ampsoc_rpmsg_register_device_override(rpdev, NULL);
}
EXPORT_SYMBOL_GPL(ampsoc_rpmsg_register_device);

/**
 * ampsoc_rpmsg_unregister_device() - remove a channel from the bus
 * @parent: the transport device
 * @chinfo: name and addresses of the channel
 *
 * Context: process context; may sleep.
 * Return: 0, or -EINVAL when no channel matches.
 */
int ampsoc_rpmsg_unregister_device(struct device *parent,
				   struct rpmsg_channel_info *chinfo)
{
	struct device *dev = device_find_child(parent, chinfo,
					       rpmsg_device_match);

	if (!dev)
		return -EINVAL;
	device_unregister(dev);
	put_device(dev);
	return 0;
}
EXPORT_SYMBOL_GPL(ampsoc_rpmsg_unregister_device);

static int rpmsg_remove_one(struct device *dev, void *data)
{
	if (dev->bus == &ampsoc_rpmsg_bus)
		device_unregister(dev);
	return 0;
}

/**
 * ampsoc_rpmsg_remove_children() - remove every channel under a transport
 * @parent: the transport device
 *
 * Context: process context; may sleep.
 * Return: nothing.
 */
void ampsoc_rpmsg_remove_children(struct device *parent)
{
	device_for_each_child(parent, NULL, rpmsg_remove_one);
}
EXPORT_SYMBOL_GPL(ampsoc_rpmsg_remove_children);

/**
 * __ampsoc_rpmsg_register_driver() - register an rpmsg driver
 * @rpdrv: the driver
 * @owner: its module
 *
 * Context: process context; may sleep.
 * Return: 0 or a negative errno.
 */
int __ampsoc_rpmsg_register_driver(struct rpmsg_driver *rpdrv,
				   struct module *owner)
{
	rpdrv->drv.bus = &ampsoc_rpmsg_bus;
	rpdrv->drv.owner = owner;
	return driver_register(&rpdrv->drv);
}
EXPORT_SYMBOL_GPL(__ampsoc_rpmsg_register_driver);

/**
 * ampsoc_rpmsg_unregister_driver() - unregister an rpmsg driver
 * @rpdrv: the driver
 *
 * Context: process context; may sleep.
 * Return: nothing.
 */
void ampsoc_rpmsg_unregister_driver(struct rpmsg_driver *rpdrv)
{
	driver_unregister(&rpdrv->drv);
}
EXPORT_SYMBOL_GPL(ampsoc_rpmsg_unregister_driver);

static int __init ampsoc_rpmsg_init(void)
{
	int ret;

	ampsoc_rpmsg_class = class_create(THIS_MODULE, "rpmsg");
	if (IS_ERR(ampsoc_rpmsg_class)) {
		pr_err("failed to create the rpmsg class\n");
		return PTR_ERR(ampsoc_rpmsg_class);
	}
	ret = bus_register(&ampsoc_rpmsg_bus);
	if (ret) {
		pr_err("failed to register the rpmsg bus: %d\n", ret);
		goto err_class;
	}
	ret = ampsoc_rpmsg_ns_init();
	if (ret)
		goto err_bus;
	ret = ampsoc_rpmsg_chrdev_init();
	if (ret)
		goto err_ns;
	ret = ampsoc_rpmsg_ctrl_init();
	if (ret)
		goto err_chr;
	return 0;

err_chr:
	ampsoc_rpmsg_chrdev_exit();
err_ns:
	ampsoc_rpmsg_ns_exit();
err_bus:
	bus_unregister(&ampsoc_rpmsg_bus);
err_class:
	class_destroy(ampsoc_rpmsg_class);
	return ret;
}
module_init(ampsoc_rpmsg_init);

static void __exit ampsoc_rpmsg_exit(void)
{
	ampsoc_rpmsg_ctrl_exit();
	ampsoc_rpmsg_chrdev_exit();
	ampsoc_rpmsg_ns_exit();
	bus_unregister(&ampsoc_rpmsg_bus);
	class_destroy(ampsoc_rpmsg_class);
}
module_exit(ampsoc_rpmsg_exit);

MODULE_DESCRIPTION("ampsoc remote-processor messaging bus");
MODULE_LICENSE("GPL");
