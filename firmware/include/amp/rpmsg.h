/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rpmsg, device side: endpoints, name service and zero-copy messaging over
 * the vdev of a resource table, wire-compatible with Linux's virtio_rpmsg_bus
 * and OpenAMP.
 *
 * The wire format (struct rpmsg_hdr, the name-service and flow-control
 * messages, the feature bits, the config space) is the one Linux's driver
 * uses: <uapi/ampsoc/virtio_rpmsg.h>. Buffers are 512 bytes unless F_BUFSZ
 * negotiates otherwise; with F_NS, endpoints with a name announce
 * themselves to Linux's name service. To give the buffer sizes, declare the
 * vdev with AMP_RSC_VDEV_CFG_TYPE(name, 2, struct ampsoc_rpmsg_vdev_config)
 * and initialise it with AMP_RSC_VDEV_CFG_INIT().
 *
 * Single-threaded use: call amp_rpmsg_poll() from the main loop; callbacks
 * run from it. All calls on one device are serialised by its env_lock.
 */
#ifndef _AMP_RPMSG_H
#define _AMP_RPMSG_H

#include <stdbool.h>
#include <stdint.h>

#include <amp/env.h>
#include <amp/virtqueue.h>
#include <uapi/ampsoc/virtio_rpmsg.h>

/* Buffers one device may hold (rx) or reserve (tx) at a time. */
#define AMP_RPMSG_MAX_HELD		16

struct amp_rpmsg_dev;
struct amp_rpmsg_ept;

/*
 * An endpoint's receive callback: @data/@len is the payload, in shared
 * memory, valid until the callback returns unless the callback keeps it
 * with amp_rpmsg_hold_rx(). @src is the sender's address. The return value
 * is ignored.
 */
typedef int (*amp_rpmsg_cb)(struct amp_rpmsg_ept *ept, void *data,
			    uint32_t len, uint32_t src, void *priv);

/*
 * A name-service message from Linux (a Linux service announcing itself):
 * @name is NUL-terminated, @flags AMPSOC_RPMSG_NS_CREATE or _DESTROY.
 */
typedef void (*amp_rpmsg_ns_cb)(struct amp_rpmsg_dev *rdev, const char *name,
				uint32_t addr, uint32_t flags, void *priv);

/**
 * struct amp_rpmsg_ept - an endpoint
 * @name: service name, announced if not empty and the name service is on
 * @addr: local address
 * @dst: default destination; learnt from the first message if ANY
 * @cb: receive callback
 * @priv: for the callback
 * @rdev: the device it lives on
 * @announced: Linux was told about it
 * @paused: Linux asked this endpoint to stop sending (flow control)
 * @next: list of the device's endpoints
 */
struct amp_rpmsg_ept {
	char name[AMPSOC_RPMSG_NAME_SIZE];
	uint32_t addr;
	uint32_t dst;
	bool announced;
	bool paused;
	amp_rpmsg_cb cb;
	void *priv;
	struct amp_rpmsg_dev *rdev;
	struct amp_rpmsg_ept *next;
};

/**
 * struct amp_rpmsg_stats - what the device saw and refused
 * @rx: messages delivered to an endpoint
 * @tx: messages sent
 * @bad_buf: rx buffers refused (too short, header length too big)
 * @no_ept: messages to an address with no endpoint
 * @bad_ns: name-service messages refused (size, missing NUL)
 * @bad_fc: flow-control messages refused (size, flags, unknown endpoint)
 * @vq_errors: bad ring entries (index, address, flags), both rings
 */
struct amp_rpmsg_stats {
	uint32_t rx;
	uint32_t tx;
	uint32_t bad_buf;
	uint32_t no_ept;
	uint32_t bad_ns;
	uint32_t bad_fc;
	uint32_t vq_errors;
};

struct amp_rpmsg_slot {
	void *va;
	uint16_t head;
};

/**
 * struct amp_rpmsg_dev - the device side of one rpmsg vdev
 * @txq: vring 0, buffers Linux gave us to fill
 * @rxq: vring 1, messages from Linux
 * @vdev: the vdev entry of the resource table (struct ampsoc_rsc_vdev)
 * @rx_buf_size: size of Linux's buffers to us, header included
 * @tx_buf_size: size of Linux's buffers for us to fill, header included
 * @ns: the name service was negotiated
 * @fc: flow control was negotiated
 * @ns_cb: optional handler of Linux's announcements
 * @ns_priv: for @ns_cb
 * @epts: endpoints
 * @ns_ept: the name-service endpoint (address 53)
 * @fc_ept: the flow-control endpoint (address 54)
 * @next_addr: next dynamic address to try
 * @held: rx buffers kept by callbacks
 * @tx_out: tx buffers handed to the application, not sent yet
 * @spare: tx buffers taken from Linux and given back unsent
 * @nr_spare: entries in @spare
 * @cur_rx: the buffer whose callback runs now
 * @cur_held: the current callback kept its buffer
 * @in_poll: amp_rpmsg_poll() is running: sends defer their kick
 * @tx_pending: a deferred kick of the tx ring is due
 * @tx_starved: the last attempt to take a buffer from Linux found none:
 *              amp_rpmsg_run_once() asks Linux to ring when it adds one
 * @lock: serialises the device
 * @stats: counters
 */
struct amp_rpmsg_dev {
	struct amp_vq txq;
	struct amp_vq rxq;
	void *vdev;
	uint32_t rx_buf_size;
	uint32_t tx_buf_size;
	bool ns;
	bool fc;
	amp_rpmsg_ns_cb ns_cb;
	void *ns_priv;
	struct amp_rpmsg_ept *epts;
	struct amp_rpmsg_ept ns_ept;
	struct amp_rpmsg_ept fc_ept;
	uint32_t next_addr;
	struct amp_rpmsg_slot held[AMP_RPMSG_MAX_HELD];
	struct amp_rpmsg_slot tx_out[AMP_RPMSG_MAX_HELD];
	struct amp_rpmsg_slot spare[AMP_RPMSG_MAX_HELD];
	unsigned int nr_spare;
	struct amp_rpmsg_slot cur_rx;
	bool cur_held;
	bool in_poll;
	bool tx_pending;
	bool tx_starved;
	struct env_lock lock;
	struct amp_rpmsg_stats stats;
};

/*
 * Bring up @rdev on the vdev entry @vdev of the loaded resource table (as
 * declared with AMP_RSC_VDEV_T: the u32 type, then struct ampsoc_rsc_vdev with
 * two vrings) once Linux's driver is ready. Kicks to Linux go through
 * platform_notify_vq() with the vring's notifyid. Returns 0; -EAGAIN if
 * Linux has not set DRIVER_OK yet; -EINVAL for a vdev that is not usable
 * (not rpmsg, not two vrings, a vring outside memory); -ENODEV if Linux
 * failed the device.
 */
int amp_rpmsg_init(struct amp_rpmsg_dev *rdev, void *vdev);

/*
 * A vring Linux put in its own DRAM (platform_ddr(): the core sees it, and
 * the vring's address lies there) means Linux allocated it and the buffers
 * with the DMA API, as mainline Linux does with no buffer carveout:
 * descriptor addresses of that vring are then taken as bus addresses of
 * Linux's DRAM, not device addresses.
 *
 * Linux puts physical addresses in descriptors (as mainline does) when its
 * rpmsg buffers come from a carveout named "vdev0buffer" (mainline's name):
 * give that carveout's table entry (struct amp_rsc_carveout, declared with
 * pa AMPSOC_FW_RSC_ADDR_ANY) after amp_rpmsg_init(), and descriptor addresses are
 * taken as physical addresses inside it, translated with the pa Linux wrote
 * back. Returns 0; -ENOENT if Linux wrote back no pa (descriptors then
 * carry device addresses, as without a carveout); -EINVAL if the carveout
 * is not in the core's memory.
 */
int amp_rpmsg_use_carveout(struct amp_rpmsg_dev *rdev, const void *carveout);

/* amp_rpmsg_init(), waiting up to @timeout_ns for Linux (-ETIMEDOUT). */
int amp_rpmsg_wait_ready(struct amp_rpmsg_dev *rdev, void *vdev,
			 uint64_t timeout_ns);

/* Handle Linux's own name-service announcements with @cb. */
void amp_rpmsg_set_ns_cb(struct amp_rpmsg_dev *rdev, amp_rpmsg_ns_cb cb,
			 void *priv);

/*
 * Create endpoint @ept at @addr (AMPSOC_RPMSG_ADDR_ANY: pick a free one at or
 * above 1024) talking to @dst by default. With a @name and the name service
 * on, announce it to Linux, which creates a channel. Returns 0, -EEXIST if
 * @addr is taken, -EINVAL, or a send error of the announcement (the
 * endpoint is then not created).
 */
int amp_rpmsg_ept_create(struct amp_rpmsg_dev *rdev, struct amp_rpmsg_ept *ept,
			 const char *name, uint32_t addr, uint32_t dst,
			 amp_rpmsg_cb cb, void *priv);
/* Remove @ept, announcing its destruction if it was announced. */
void amp_rpmsg_ept_destroy(struct amp_rpmsg_ept *ept);

/* Largest payload of one message towards Linux. */
uint32_t amp_rpmsg_mtu(struct amp_rpmsg_dev *rdev);

/*
 * Flow control (with F_FC): ask Linux's endpoint @dst to stop (@pause) or
 * resume sending to @ept. Returns 0, -EOPNOTSUPP without F_FC, or a send
 * error. Linux's requests to pause our endpoints are obeyed by the send
 * functions, which return -EAGAIN for a paused endpoint until Linux
 * resumes it.
 */
int amp_rpmsg_set_flow_control(struct amp_rpmsg_ept *ept, uint32_t dst,
			       bool pause);

/*
 * Send @len bytes from @ept to @dst. The try variants return -ENOMEM at
 * once when Linux has no free buffer; the others wait up to @timeout_ns
 * (-ETIMEDOUT). -EMSGSIZE if @len exceeds the MTU, -ENOTCONN if @dst is
 * ANY, -EAGAIN if Linux paused the endpoint, -EIO if the ring is broken.
 */
int amp_rpmsg_sendto(struct amp_rpmsg_ept *ept, uint32_t dst, const void *data,
		     uint32_t len, uint64_t timeout_ns);
int amp_rpmsg_trysendto(struct amp_rpmsg_ept *ept, uint32_t dst,
			const void *data, uint32_t len);
int amp_rpmsg_send(struct amp_rpmsg_ept *ept, const void *data, uint32_t len,
		   uint64_t timeout_ns);
int amp_rpmsg_trysend(struct amp_rpmsg_ept *ept, const void *data, uint32_t len);

/*
 * Zero-copy send: get a payload buffer of *@size bytes (waiting up to
 * @timeout_ns, 0 for none; NULL if none), fill it, then send it with
 * amp_rpmsg_send_nocopy() or give it back with amp_rpmsg_release_tx().
 */
void *amp_rpmsg_get_tx_buffer(struct amp_rpmsg_dev *rdev, uint32_t *size,
			      uint64_t timeout_ns);
int amp_rpmsg_send_nocopy(struct amp_rpmsg_ept *ept, uint32_t dst, void *data,
			  uint32_t len);
int amp_rpmsg_release_tx(struct amp_rpmsg_dev *rdev, void *data);

/*
 * Deliberate misbehaviour, for testing Linux's defences (never in a real
 * firmware): take one of Linux's buffers, write @hdr and @data_len bytes
 * of @data after it (both cut to the buffer), and hand it back claiming
 * @used_len bytes, whatever the header says. Waits up to @timeout_ns for a
 * buffer. Returns 0 or a negative errno as the send functions.
 */
int amp_rpmsg_send_raw(struct amp_rpmsg_dev *rdev, const struct rpmsg_hdr *hdr,
		       const void *data, uint32_t data_len, uint32_t used_len,
		       uint64_t timeout_ns);

/*
 * Zero-copy receive: from inside a callback, keep its buffer past the
 * callback (-ENOSPC if AMP_RPMSG_MAX_HELD are already kept); give it back
 * later with amp_rpmsg_release_rx().
 */
int amp_rpmsg_hold_rx(struct amp_rpmsg_ept *ept, void *data);
int amp_rpmsg_release_rx(struct amp_rpmsg_dev *rdev, void *data);

/*
 * Deliver what Linux sent: run callbacks, give buffers back, tell Linux.
 * Returns the number of messages handled (0: nothing pending) or -EIO once
 * a ring is broken.
 */
int amp_rpmsg_poll(struct amp_rpmsg_dev *rdev);

/*
 * Main-loop helper: poll, and when nothing is pending wait up to
 * @timeout_ns for Linux's doorbell. While the core is awake it sets
 * VRING_USED_F_NO_NOTIFY so that Linux rings once per burst, and clears it
 * (then looks again) before sleeping. Linux's returned rx buffers ring the
 * core only while it is starved of them (a send found none): otherwise
 * every message Linux consumes would cost a doorbell and a wakeup.
 * Returns like amp_rpmsg_poll().
 */
int amp_rpmsg_run_once(struct amp_rpmsg_dev *rdev, uint64_t timeout_ns);

#endif /* _AMP_RPMSG_H */
