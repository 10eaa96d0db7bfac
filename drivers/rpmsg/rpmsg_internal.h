/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ampsoc rpmsg: what the bus core, its built-in drivers and transports
 * share. Not for client drivers.
 */
#ifndef _AMPSOC_RPMSG_INTERNAL_H
#define _AMPSOC_RPMSG_INTERNAL_H

#include <ampsoc/rpmsg.h>
#include <linux/poll.h>

/**
 * struct ampsoc_rpmsg_device_ops - transport operations of a channel
 * @create_channel: create a local channel on the same transport
 * @release_channel: remove a channel created by @create_channel
 * @remote_create: create a channel the remote announced (name service)
 * @remote_release: remove a channel the remote announced; -EPERM for a
 *	channel Linux created itself, -ENXIO when none matches
 * @create_ept: create an endpoint
 * @announce_create: tell the remote about a new local service
 * @announce_destroy: tell the remote a local service went away
 * @get_stats: copy the transport's counters
 * @ns_reject: count a rejected name-service message
 */
struct ampsoc_rpmsg_device_ops {
	struct rpmsg_device *(*create_channel)(struct rpmsg_device *rpdev,
					       struct rpmsg_channel_info *ci);
	int (*release_channel)(struct rpmsg_device *rpdev,
			       struct rpmsg_channel_info *ci);
	struct rpmsg_device *(*remote_create)(struct rpmsg_device *rpdev,
					      struct rpmsg_channel_info *ci);
	int (*remote_release)(struct rpmsg_device *rpdev,
			      struct rpmsg_channel_info *ci);
	struct rpmsg_endpoint *(*create_ept)(struct rpmsg_device *rpdev,
					     rpmsg_rx_cb_t cb, void *priv,
					     struct rpmsg_channel_info ci);
	int (*announce_create)(struct rpmsg_device *rpdev);
	int (*announce_destroy)(struct rpmsg_device *rpdev);
	int (*get_stats)(struct rpmsg_device *rpdev,
			 struct ampsoc_rpmsg_stats *stats);
	void (*ns_reject)(struct rpmsg_device *rpdev);
};

/**
 * struct ampsoc_rpmsg_endpoint_ops - transport operations of an endpoint
 * @destroy_ept: destroy the endpoint; no callback runs after it returns
 * @send: send @len bytes from @src to @dst; @wait blocks for a buffer
 * @poll: poll for a free tx buffer
 * @get_mtu: largest payload
 * @set_flow_control: pause or resume what the remote @dst sends us
 * @get_outgoing_flow: 1 when the remote lets us send, 0 when it paused us
 * @hold_rx: keep the rx buffer @data after the callback returns
 * @release_rx: give back a held rx buffer
 * @get_tx: reserve a tx buffer, return its payload
 * @send_nocopy: send a payload from @get_tx
 * @release_tx: give back an unsent tx buffer
 */
struct ampsoc_rpmsg_endpoint_ops {
	void (*destroy_ept)(struct rpmsg_endpoint *ept);
	int (*send)(struct rpmsg_endpoint *ept, u32 src, u32 dst, void *data,
		    int len, bool wait);
	__poll_t (*poll)(struct rpmsg_endpoint *ept, struct file *filp,
			 poll_table *wait);
	ssize_t (*get_mtu)(struct rpmsg_endpoint *ept);
	int (*set_flow_control)(struct rpmsg_endpoint *ept, bool pause,
				u32 dst);
	int (*get_outgoing_flow)(struct rpmsg_endpoint *ept);
	int (*hold_rx)(struct rpmsg_endpoint *ept, void *data);
	void (*release_rx)(struct rpmsg_endpoint *ept, void *data);
	void *(*get_tx)(struct rpmsg_endpoint *ept, unsigned int *len,
			bool wait);
	int (*send_nocopy)(struct rpmsg_endpoint *ept, void *data, int len,
			   u32 dst);
	void (*release_tx)(struct rpmsg_endpoint *ept, void *data);
};

extern struct bus_type ampsoc_rpmsg_bus;
extern struct class *ampsoc_rpmsg_class;

int ampsoc_rpmsg_ns_register_device(struct rpmsg_device *rpdev);
int ampsoc_rpmsg_ctrldev_register_device(struct rpmsg_device *rpdev);
void ampsoc_rpmsg_remove_children(struct device *parent);

/* Built into ampsoc_rpmsg.ko next to the core. */
int ampsoc_rpmsg_ns_init(void);
void ampsoc_rpmsg_ns_exit(void);
int ampsoc_rpmsg_chrdev_init(void);
void ampsoc_rpmsg_chrdev_exit(void);
int ampsoc_rpmsg_ctrl_init(void);
void ampsoc_rpmsg_ctrl_exit(void);
int ampsoc_rpmsg_chrdev_eptdev_create(struct rpmsg_device *rpdev,
				      struct device *parent,
				      struct rpmsg_channel_info chinfo);
int ampsoc_rpmsg_chrdev_eptdev_destroy(struct device *dev, void *data);

#endif /* _AMPSOC_RPMSG_INTERNAL_H */
