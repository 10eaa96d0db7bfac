/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Source compatibility with mainline's <linux/rpmsg.h>.
 *
 * A driver written for mainline's rpmsg API builds unchanged against ampsoc
 * when this directory comes first on its include path. Debian's own
 * <linux/rpmsg.h> must lose: in Kbuild, NOSTDINC_FLAGS precedes LINUXINCLUDE
 * (which precedes ccflags-y), so a module's Kbuild says
 *
 *	NOSTDINC_FLAGS += -I$(AMPSOC)/include/compat -I$(AMPSOC)/include
 *	KBUILD_EXTRA_SYMBOLS += $(AMPSOC)/Module.symvers
 *
 * (docs/third-party-drivers.md). Mainline's names become static inlines
 * over ampsoc's prefixed exports, so no symbol can clash with one the
 * kernel exports or might export. docs/rpmsg.md lists what has no
 * counterpart.
 */
#ifndef _AMPSOC_COMPAT_LINUX_RPMSG_H
#define _AMPSOC_COMPAT_LINUX_RPMSG_H

/*
 * What mainline's header brings in besides its own declarations: the
 * userspace ABI (struct rpmsg_endpoint_info, the ioctls, RPMSG_ADDR_ANY),
 * and the __rpmsg16/32/64 wire types with their conversions, from the
 * kernel's own headers (Debian ships both; neither needs CONFIG_RPMSG).
 */
#include <uapi/linux/rpmsg.h>
#include <linux/rpmsg/byteorder.h>
#include <ampsoc/rpmsg.h>

/*
 * Wire byte order: a channel's is its transport's (rpdev->little_endian,
 * true on every ampsoc transport, which are virtio 1.0); without a channel
 * it is the CPU's.
 */
static inline bool ampsoc_compat_rpmsg_le(struct rpmsg_device *rpdev)
{
	return rpdev ? rpdev->little_endian : rpmsg_is_little_endian();
}

static inline u16 rpmsg16_to_cpu(struct rpmsg_device *rpdev, __rpmsg16 val)
{
	return __rpmsg16_to_cpu(ampsoc_compat_rpmsg_le(rpdev), val);
}

static inline __rpmsg16 cpu_to_rpmsg16(struct rpmsg_device *rpdev, u16 val)
{
	return __cpu_to_rpmsg16(ampsoc_compat_rpmsg_le(rpdev), val);
}

static inline u32 rpmsg32_to_cpu(struct rpmsg_device *rpdev, __rpmsg32 val)
{
	return __rpmsg32_to_cpu(ampsoc_compat_rpmsg_le(rpdev), val);
}

static inline __rpmsg32 cpu_to_rpmsg32(struct rpmsg_device *rpdev, u32 val)
{
	return __cpu_to_rpmsg32(ampsoc_compat_rpmsg_le(rpdev), val);
}

static inline u64 rpmsg64_to_cpu(struct rpmsg_device *rpdev, __rpmsg64 val)
{
	return __rpmsg64_to_cpu(ampsoc_compat_rpmsg_le(rpdev), val);
}

static inline __rpmsg64 cpu_to_rpmsg64(struct rpmsg_device *rpdev, u64 val)
{
	return __cpu_to_rpmsg64(ampsoc_compat_rpmsg_le(rpdev), val);
}

/* Channels a driver adds and removes itself. */
static inline int rpmsg_register_device_override(struct rpmsg_device *rpdev,
						 const char *driver_override)
{
	return ampsoc_rpmsg_register_device_override(rpdev, driver_override);
}

static inline int rpmsg_register_device(struct rpmsg_device *rpdev)
{
	return ampsoc_rpmsg_register_device(rpdev);
}

static inline int rpmsg_unregister_device(struct device *parent,
					  struct rpmsg_channel_info *chinfo)
{
	return ampsoc_rpmsg_unregister_device(parent, chinfo);
}

static inline int __register_rpmsg_driver(struct rpmsg_driver *drv,
					  struct module *owner)
{
	return __ampsoc_rpmsg_register_driver(drv, owner);
}

static inline void unregister_rpmsg_driver(struct rpmsg_driver *drv)
{
	ampsoc_rpmsg_unregister_driver(drv);
}

#define register_rpmsg_driver(drv) \
	__register_rpmsg_driver(drv, THIS_MODULE)

#define module_rpmsg_driver(__rpmsg_driver) \
	module_driver(__rpmsg_driver, register_rpmsg_driver, \
		      unregister_rpmsg_driver)

static inline struct rpmsg_endpoint *
rpmsg_create_ept(struct rpmsg_device *rpdev, rpmsg_rx_cb_t cb, void *priv,
		 struct rpmsg_channel_info chinfo)
{
	return ampsoc_rpmsg_create_ept(rpdev, cb, priv, chinfo);
}

static inline void rpmsg_destroy_ept(struct rpmsg_endpoint *ept)
{
	ampsoc_rpmsg_destroy_ept(ept);
}

static inline int rpmsg_send(struct rpmsg_endpoint *ept, void *data, int len)
{
	return ampsoc_rpmsg_send(ept, data, len);
}

static inline int rpmsg_sendto(struct rpmsg_endpoint *ept, void *data, int len,
			       u32 dst)
{
	return ampsoc_rpmsg_sendto(ept, data, len, dst);
}

static inline int rpmsg_send_offchannel(struct rpmsg_endpoint *ept, u32 src,
					u32 dst, void *data, int len)
{
	return ampsoc_rpmsg_send_offchannel(ept, src, dst, data, len);
}

static inline int rpmsg_trysend(struct rpmsg_endpoint *ept, void *data, int len)
{
	return ampsoc_rpmsg_trysend(ept, data, len);
}

static inline int rpmsg_trysendto(struct rpmsg_endpoint *ept, void *data,
				  int len, u32 dst)
{
	return ampsoc_rpmsg_trysendto(ept, data, len, dst);
}

static inline int rpmsg_trysend_offchannel(struct rpmsg_endpoint *ept, u32 src,
					   u32 dst, void *data, int len)
{
	return ampsoc_rpmsg_trysend_offchannel(ept, src, dst, data, len);
}

static inline __poll_t rpmsg_poll(struct rpmsg_endpoint *ept,
				  struct file *filp, poll_table *wait)
{
	return ampsoc_rpmsg_poll(ept, filp, wait);
}

static inline ssize_t rpmsg_get_mtu(struct rpmsg_endpoint *ept)
{
	return ampsoc_rpmsg_get_mtu(ept);
}

/* Post-6.1 mainline. */
static inline int rpmsg_set_flow_control(struct rpmsg_endpoint *ept,
					 bool pause, u32 dst)
{
	return ampsoc_rpmsg_set_flow_control(ept, pause, dst);
}

static inline struct rpmsg_device *
rpmsg_create_channel(struct rpmsg_device *rpdev,
		     struct rpmsg_channel_info *chinfo)
{
	return ampsoc_rpmsg_create_channel(rpdev, chinfo);
}

static inline int rpmsg_release_channel(struct rpmsg_device *rpdev,
					struct rpmsg_channel_info *chinfo)
{
	return ampsoc_rpmsg_release_channel(rpdev, chinfo);
}

static inline struct device *rpmsg_find_device(struct device *parent,
					       struct rpmsg_channel_info *chinfo)
{
	struct rpmsg_device *rpdev = ampsoc_rpmsg_find_device(parent, chinfo);

	return rpdev ? &rpdev->dev : NULL;
}

#endif /* _AMPSOC_COMPAT_LINUX_RPMSG_H */
