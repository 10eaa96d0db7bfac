/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ampsoc rpmsg: kernel API of the remote-processor messaging bus.
 *
 * The structures keep mainline's names and fields (struct rpmsg_device,
 * struct rpmsg_endpoint, struct rpmsg_driver, ...), so that drivers written
 * for mainline build unchanged through include/compat/linux/rpmsg.h, which
 * maps mainline's function names onto the ampsoc_rpmsg_ exports declared
 * here. Debian's own <linux/rpmsg.h> only carries stubs (CONFIG_RPMSG is
 * off); this header takes its include guard so that the stubs can never be
 * pulled in next to the real API.
 *
 * Wire format and userspace ABI are mainline's; see docs/rpmsg.md. The
 * wire format, ampsoc's extension included, is defined once for Linux and
 * the firmware in <uapi/ampsoc/virtio_rpmsg.h>.
 */
#ifndef _AMPSOC_RPMSG_H
#define _AMPSOC_RPMSG_H

#ifdef _LINUX_RPMSG_H
#error "Debian's <linux/rpmsg.h> stubs were included before <ampsoc/rpmsg.h>"
#endif
#define _LINUX_RPMSG_H

#include <linux/build_bug.h>
#include <linux/device.h>
#include <linux/kref.h>
#include <linux/mod_devicetable.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/types.h>

#include <uapi/ampsoc/virtio_rpmsg.h>

#ifndef RPMSG_ADDR_ANY
#define RPMSG_ADDR_ANY			AMPSOC_RPMSG_ADDR_ANY
#endif

/* The wire's name size is the one of the rpmsg_device_id table. */
static_assert(AMPSOC_RPMSG_NAME_SIZE == RPMSG_NAME_SIZE);

/*
 * virtio_get_shm_region() id under which a transport parent offers the
 * memory the rpmsg buffers must live in (see docs/rpmsg.md, "Glue").
 */
#define AMPSOC_RPMSG_SHM_ID_BUFFERS	0

struct rpmsg_device;
struct rpmsg_endpoint;
struct ampsoc_rpmsg_device_ops;
struct ampsoc_rpmsg_endpoint_ops;

/**
 * struct rpmsg_channel_info - channel description
 * @name: service name
 * @src: local address, or RPMSG_ADDR_ANY
 * @dst: remote address, or RPMSG_ADDR_ANY
 */
struct rpmsg_channel_info {
	char name[RPMSG_NAME_SIZE];
	u32 src;
	u32 dst;
};

/**
 * struct rpmsg_device - a channel on the rpmsg bus
 * @dev: the device on bus "rpmsg"
 * @id: service name, matched against drivers' id tables
 * @driver_override: driver name that must be bound, from sysfs
 * @src: local address
 * @dst: remote address
 * @ept: the endpoint created for the bound driver's callback
 * @announce: announce the channel to the remote (name service)
 * @little_endian: wire byte order of this channel's transport
 * @ops: transport operations
 */
struct rpmsg_device {
	struct device dev;
	struct rpmsg_device_id id;
	const char *driver_override;
	u32 src;
	u32 dst;
	struct rpmsg_endpoint *ept;
	bool announce;
	bool little_endian;
	const struct ampsoc_rpmsg_device_ops *ops;
};

typedef int (*rpmsg_rx_cb_t)(struct rpmsg_device *rpdev, void *data, int len,
			     void *priv, u32 src);
typedef int (*rpmsg_flowcontrol_cb_t)(struct rpmsg_device *rpdev, void *priv,
				      bool enable);

/**
 * struct rpmsg_endpoint - a local address with a receive callback
 * @rpdev: the channel this endpoint belongs to
 * @refcount: the endpoint lives until the last reference goes
 * @cb: receive callback, called in process context, must not block long
 * @flow_cb: called when the remote pauses (false) or resumes (true) us
 * @cb_lock: serialises callbacks against destruction
 * @addr: local address
 * @priv: callback's private data
 * @ops: transport operations
 */
struct rpmsg_endpoint {
	struct rpmsg_device *rpdev;
	struct kref refcount;
	rpmsg_rx_cb_t cb;
	rpmsg_flowcontrol_cb_t flow_cb;
	struct mutex cb_lock;	/* callbacks vs. destruction */
	u32 addr;
	void *priv;
	const struct ampsoc_rpmsg_endpoint_ops *ops;
};

/**
 * struct rpmsg_driver - a driver of rpmsg channels
 * @drv: the generic driver
 * @id_table: service names this driver binds to, ending with an empty entry
 * @probe: bind to a channel
 * @remove: unbind from a channel
 * @callback: receive callback of the channel's default endpoint
 * @flowcontrol: flow-control callback of the default endpoint
 */
struct rpmsg_driver {
	struct device_driver drv;
	const struct rpmsg_device_id *id_table;
	int (*probe)(struct rpmsg_device *dev);
	void (*remove)(struct rpmsg_device *dev);
	int (*callback)(struct rpmsg_device *rpdev, void *data, int len,
			void *priv, u32 src);
	int (*flowcontrol)(struct rpmsg_device *rpdev, void *priv, bool enable);
};

#define to_rpmsg_device(d)	container_of(d, struct rpmsg_device, dev)
#define to_rpmsg_driver(d)	container_of(d, struct rpmsg_driver, drv)

int __ampsoc_rpmsg_register_driver(struct rpmsg_driver *drv,
				   struct module *owner);
void ampsoc_rpmsg_unregister_driver(struct rpmsg_driver *drv);

#define ampsoc_rpmsg_register_driver(drv) \
	__ampsoc_rpmsg_register_driver(drv, THIS_MODULE)

struct rpmsg_device *ampsoc_rpmsg_create_channel(struct rpmsg_device *rpdev,
						 struct rpmsg_channel_info *ci);
int ampsoc_rpmsg_release_channel(struct rpmsg_device *rpdev,
				 struct rpmsg_channel_info *chinfo);

struct rpmsg_endpoint *ampsoc_rpmsg_create_ept(struct rpmsg_device *rpdev,
					       rpmsg_rx_cb_t cb, void *priv,
					       struct rpmsg_channel_info chinfo);
void ampsoc_rpmsg_destroy_ept(struct rpmsg_endpoint *ept);

int ampsoc_rpmsg_send(struct rpmsg_endpoint *ept, void *data, int len);
int ampsoc_rpmsg_sendto(struct rpmsg_endpoint *ept, void *data, int len,
			u32 dst);
int ampsoc_rpmsg_send_offchannel(struct rpmsg_endpoint *ept, u32 src, u32 dst,
				 void *data, int len);
int ampsoc_rpmsg_trysend(struct rpmsg_endpoint *ept, void *data, int len);
int ampsoc_rpmsg_trysendto(struct rpmsg_endpoint *ept, void *data, int len,
			   u32 dst);
int ampsoc_rpmsg_trysend_offchannel(struct rpmsg_endpoint *ept, u32 src,
				    u32 dst, void *data, int len);
__poll_t ampsoc_rpmsg_poll(struct rpmsg_endpoint *ept, struct file *filp,
			   poll_table *wait);
ssize_t ampsoc_rpmsg_get_mtu(struct rpmsg_endpoint *ept);
int ampsoc_rpmsg_set_flow_control(struct rpmsg_endpoint *ept, bool pause,
				  u32 dst);
int ampsoc_rpmsg_get_outgoing_flow(struct rpmsg_endpoint *ept);

/* Zero-copy (ampsoc extension). */
int ampsoc_rpmsg_hold_rx_buffer(struct rpmsg_endpoint *ept, void *data);
void ampsoc_rpmsg_release_rx_buffer(struct rpmsg_endpoint *ept, void *data);
void *ampsoc_rpmsg_get_tx_buffer(struct rpmsg_endpoint *ept,
				 unsigned int *len, bool wait);
int ampsoc_rpmsg_sendto_nocopy(struct rpmsg_endpoint *ept, void *data,
			       int len, u32 dst);
void ampsoc_rpmsg_release_tx_buffer(struct rpmsg_endpoint *ept, void *data);

/* Channels a driver adds and removes itself, as mainline's. */
int ampsoc_rpmsg_register_device(struct rpmsg_device *rpdev);
int ampsoc_rpmsg_register_device_override(struct rpmsg_device *rpdev,
					  const char *driver_override);
int ampsoc_rpmsg_unregister_device(struct device *parent,
				   struct rpmsg_channel_info *chinfo);

int ampsoc_rpmsg_add_static_channels(struct device *transport,
				     const struct rpmsg_channel_info *ci,
				     unsigned int n);
/* At most this many channels per ampsoc_rpmsg_declare_static_channels(). */
#define AMPSOC_RPMSG_MAX_STATIC	64
int ampsoc_rpmsg_declare_static_channels(struct device *owner,
					 const struct rpmsg_channel_info *ci,
					 unsigned int n);
void ampsoc_rpmsg_forget_static_channels(struct device *owner);
unsigned int ampsoc_rpmsg_create_declared_channels(struct device *transport);
struct rpmsg_device *ampsoc_rpmsg_find_device(struct device *parent,
					      struct rpmsg_channel_info *ci);

/**
 * module_ampsoc_rpmsg_driver() - register an rpmsg driver from a module
 * @__rpmsg_driver: the struct rpmsg_driver
 */
#define module_ampsoc_rpmsg_driver(__rpmsg_driver)			\
	module_driver(__rpmsg_driver, ampsoc_rpmsg_register_driver,	\
		      ampsoc_rpmsg_unregister_driver)

/**
 * struct ampsoc_rpmsg_stats - what a transport rejected from its remote
 * @rx: messages delivered to an endpoint
 * @tx: messages sent
 * @kicks: notifications sent to the remote
 * @bad_len: used-ring length or header length out of bounds
 * @bad_ring: used index/id out of range or a tampered descriptor
 * @bad_addr: buffer outside the region
 * @unknown_dst: messages to an address with no endpoint
 * @ns_rejected: name-service messages rejected (bad size, no NUL, flood,
 *               duplicate)
 * @fc_rejected: malformed flow-control messages
 * @rx_dropped_paused: messages that arrived for an endpoint that had
 *                     paused its peer (a remote ignoring flow control)
 */
struct ampsoc_rpmsg_stats {
	u64 rx;
	u64 tx;
	u64 kicks;
	u64 bad_len;
	u64 bad_ring;
	u64 bad_addr;
	u64 unknown_dst;
	u64 ns_rejected;
	u64 fc_rejected;
	u64 rx_dropped_paused;
};

int ampsoc_rpmsg_get_stats(struct rpmsg_device *rpdev,
			   struct ampsoc_rpmsg_stats *stats);

#endif /* _AMPSOC_RPMSG_H */
