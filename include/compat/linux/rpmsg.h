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
 *
 * Mainline's names become static inlines over ampsoc's prefixed exports, so
 * no symbol can clash with one the kernel exports or might export.
 */
#ifndef _AMPSOC_COMPAT_LINUX_RPMSG_H
#define _AMPSOC_COMPAT_LINUX_RPMSG_H

#include <ampsoc/rpmsg.h>

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
