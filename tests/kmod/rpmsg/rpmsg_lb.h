/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ampsoc rpmsg loopback remote: an in-kernel virtio device of ID 7 that
 * plays the remote processor (device side of both split vrings), for tests
 * of the Linux rpmsg stack without remoteproc or the virtual SoC.
 */
#ifndef _AMPSOC_RPMSG_LB_H
#define _AMPSOC_RPMSG_LB_H

#include <linux/types.h>
#include <uapi/ampsoc/virtio_rpmsg.h>

struct ampsoc_rpmsg_lb;
struct virtio_device;

/* Remote addresses of the loopback's services. */
#define LB_ECHO_BASE	0x400	/* 0x400..0x43f echo back to the sender */
#define LB_ECHO_NUM	64
#define LB_SINK_ADDR	0x500	/* count and check, no reply */
#define LB_STREAM_ADDR	0x600	/* source of lb_stream() traffic */

/* Checked payloads: magic, sequence per source, crc32 of the rest. */
#define LB_MAGIC	0x434d5041	/* "APMC" */
struct lb_tagged {
	__le32 magic;
	__le32 seq;
	__le32 crc;
	u8 data[];
} __packed;

/**
 * struct ampsoc_rpmsg_lb_config - how the remote looks to Linux
 * @vring_num: entries per vring (power of two), 0 for 256
 * @features: device features offered (bits of AMPSOC_VIRTIO_RPMSG_F_*)
 * @h2r_buf_size: config-space proposal with F_BUFSZ
 * @r2h_buf_size: config-space proposal with F_BUFSZ
 * @shm_region: buffers must come from the device's shared region
 * @raw_ring: also reserve, after the buffers in the same region, the raw
 *            slot ring of ampsoc_rpmsg_lb_raw_ring() (benchmark baseline)
 * @services: comma-separated echo services announced at 0x400, 0x401, ...
 * @own_cpu: run the remote's thread on the last online CPU and its
 *           interrupts to Linux on another, as the remote_cpu parameter
 *           does (ignored with one CPU)
 */
struct ampsoc_rpmsg_lb_config {
	unsigned int vring_num;
	u64 features;
	u32 h2r_buf_size;
	u32 r2h_buf_size;
	bool shm_region;
	bool raw_ring;
	const char *services;
	bool own_cpu;
};

/**
 * struct ampsoc_rpmsg_lb_stats - what the remote saw
 * @kicks: notifications from Linux
 * @msgs: messages consumed from Linux's tx ring
 * @bytes: payload bytes consumed
 * @sink_msgs: messages to the sink
 * @bad_crc: checked payloads whose crc did not match
 * @reordered: checked payloads out of sequence for their source
 * @bad_desc: descriptors from Linux outside the region (rejected)
 * @ns_msgs: name-service messages from Linux
 * @ns_last_flags: flags of the last one
 * @ns_last_addr: address of the last one
 * @ns_last_name: name of the last one
 * @fc_msgs: flow-control messages from Linux
 * @fc_paused: pause requests among them
 * @stream_sent: stream messages delivered to Linux
 * @irqs: interrupts raised to Linux
 * @busy_ns: time the remote spent consuming Linux's tx ring and the raw ring
 * @raw_consumed: raw ring slots consumed
 * @raw_kicks: doorbells the raw ring's producer rang
 */
struct ampsoc_rpmsg_lb_stats {
	u64 kicks, msgs, bytes, sink_msgs, bad_crc, reordered, bad_desc;
	u64 ns_msgs, ns_last_flags, ns_last_addr;
	char ns_last_name[32];
	u64 fc_msgs, fc_paused, stream_sent, irqs;
	u64 busy_ns, raw_consumed, raw_kicks;
};

enum ampsoc_rpmsg_lb_bad {
	LB_BAD_USED_LEN = 1,	/* used length beyond the buffer */
	LB_BAD_HDR_LEN,		/* header length beyond the used length */
	LB_BAD_SHORT,		/* used length below the header */
	LB_BAD_DESC_ADDR,	/* descriptor address rewritten */
	LB_BAD_USED_ID,		/* used id out of range (breaks the ring) */
	LB_BAD_USED_IDX,	/* used index jumps past the ring (breaks) */
	LB_BAD_DESC_NEXT,	/* descriptor flags rewritten (breaks) */
};

struct ampsoc_rpmsg_lb *
ampsoc_rpmsg_lb_create(const struct ampsoc_rpmsg_lb_config *cfg);
void ampsoc_rpmsg_lb_destroy(struct ampsoc_rpmsg_lb *lb);
struct virtio_device *ampsoc_rpmsg_lb_vdev(struct ampsoc_rpmsg_lb *lb);
int ampsoc_rpmsg_lb_send(struct ampsoc_rpmsg_lb *lb, u32 src, u32 dst,
			 const void *data, unsigned int len);
int ampsoc_rpmsg_lb_announce(struct ampsoc_rpmsg_lb *lb, const char *name,
			     u32 addr, bool destroy);
int ampsoc_rpmsg_lb_inject(struct ampsoc_rpmsg_lb *lb,
			   enum ampsoc_rpmsg_lb_bad kind, u32 dst);
int ampsoc_rpmsg_lb_replay_tx_used(struct ampsoc_rpmsg_lb *lb);
int ampsoc_rpmsg_lb_stream(struct ampsoc_rpmsg_lb *lb, u32 dst, u32 count,
			   u32 size);
int ampsoc_rpmsg_lb_pause(struct ampsoc_rpmsg_lb *lb, u32 linux_addr,
			  bool pause);
void ampsoc_rpmsg_lb_get_stats(struct ampsoc_rpmsg_lb *lb,
			       struct ampsoc_rpmsg_lb_stats *stats);
int ampsoc_rpmsg_lb_wait_sink(struct ampsoc_rpmsg_lb *lb, u64 count,
			      unsigned int timeout_ms);
u64 ampsoc_rpmsg_lb_doorbell_rtt(struct ampsoc_rpmsg_lb *lb, unsigned int iters);
u64 ampsoc_rpmsg_lb_raw_ring(struct ampsoc_rpmsg_lb *lb, unsigned int count,
			     unsigned int len);
void ampsoc_rpmsg_lb_freeze(struct ampsoc_rpmsg_lb *lb, bool freeze);
int ampsoc_rpmsg_lb_flagrace(struct ampsoc_rpmsg_lb *lb, bool on);
unsigned int ampsoc_rpmsg_lb_rx_avail(struct ampsoc_rpmsg_lb *lb);
bool ampsoc_rpmsg_lb_queues_deleting(struct ampsoc_rpmsg_lb *lb);
u32 ampsoc_rpmsg_lb_crc(const void *data, unsigned int len);

#endif /* _AMPSOC_RPMSG_LB_H */
