/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rpmsg over virtio: the wire format between Linux's transport
 * (drivers/rpmsg/virtio_rpmsg_bus.c) and a remote (the firmware SDK's
 * firmware/lib/rpmsg.c, the test loopback in tests/kmod/rpmsg/).
 *
 * Mainline's part is byte for byte that of Linux's virtio_rpmsg_bus and
 * OpenAMP: a 16-byte header in front of every message, buffers of 512
 * bytes, the name service at address 53 with its 40-byte message. The
 * vdev of virtio device ID 7 has two vrings: vring 0 carries messages from
 * the remote to Linux (Linux's rx), vring 1 from Linux to the remote.
 *
 * ampsoc adds two feature bits, documented in docs/rpmsg.md and
 * docs/mainline-differences.md:
 *  - F_BUFSZ: the vdev config space (struct ampsoc_rpmsg_vdev_config)
 *    proposes a buffer size per direction;
 *  - F_FC: per-endpoint flow control, messages to address 54
 *    (struct ampsoc_rpmsg_fc_msg).
 *
 * Every field is little-endian. Everything the other side wrote is
 * untrusted: lengths are checked against the buffer, names for a NUL.
 */
#ifndef _UAPI_AMPSOC_VIRTIO_RPMSG_H
#define _UAPI_AMPSOC_VIRTIO_RPMSG_H

#include "types.h"

/* Virtio device ID of an rpmsg transport. */
#define AMPSOC_VIRTIO_ID_RPMSG		7

/* Virtio feature bits of the rpmsg device. */
#define AMPSOC_VIRTIO_RPMSG_F_NS	0	/* mainline: name service */
#define AMPSOC_VIRTIO_RPMSG_F_BUFSZ	20	/* ampsoc: buffer sizes in config */
#define AMPSOC_VIRTIO_RPMSG_F_FC	21	/* ampsoc: per-endpoint flow control */

/* Any address: "pick one" for a source, "not known yet" for a peer. */
#define AMPSOC_RPMSG_ADDR_ANY		0xffffffffu
/* Addresses below this one are never handed out dynamically. */
#define AMPSOC_RPMSG_RESERVED_ADDRESSES	1024
/* Name-service address (mainline's RPMSG_NS_ADDR). */
#define AMPSOC_RPMSG_NS_ADDR		53
/* Flow-control service address (with F_FC). */
#define AMPSOC_RPMSG_FC_ADDR		54

/* Bytes of a service name, NUL included (mainline's RPMSG_NAME_SIZE). */
#define AMPSOC_RPMSG_NAME_SIZE		32

/* Mainline's fixed buffer size, used unless F_BUFSZ is negotiated. */
#define AMPSOC_RPMSG_BUF_SIZE		512
/* Largest buffer F_BUFSZ may propose. */
#define AMPSOC_RPMSG_MAX_BUF_SIZE	65536
/* Bytes of struct rpmsg_hdr, in front of every payload. */
#define AMPSOC_RPMSG_HDR_SIZE		16

/**
 * struct rpmsg_hdr - the header of every message (mainline's)
 * @src: sender's address
 * @dst: receiver's address
 * @reserved: zero
 * @len: bytes of @data
 * @flags: zero
 * @data: the payload
 */
struct rpmsg_hdr {
	__le32 src;
	__le32 dst;
	__le32 reserved;
	__le16 len;
	__le16 flags;
	__u8 data[];
} __attribute__((packed));

/* Values of struct ampsoc_rpmsg_ns_msg.flags. */
#define AMPSOC_RPMSG_NS_CREATE		0
#define AMPSOC_RPMSG_NS_DESTROY		1

/**
 * struct ampsoc_rpmsg_ns_msg - a name-service message to address 53
 *	(mainline's struct rpmsg_ns_msg), 40 bytes
 * @name: service name, NUL-terminated inside the 32 bytes
 * @addr: the announcing endpoint's address
 * @flags: AMPSOC_RPMSG_NS_CREATE or AMPSOC_RPMSG_NS_DESTROY
 */
struct ampsoc_rpmsg_ns_msg {
	char name[AMPSOC_RPMSG_NAME_SIZE];
	__le32 addr;
	__le32 flags;
} __attribute__((packed));

/* struct ampsoc_rpmsg_fc_msg.flags: the receiver's endpoint must pause. */
#define AMPSOC_RPMSG_FC_PAUSED		0x1u

/**
 * struct ampsoc_rpmsg_fc_msg - a flow-control message to address 54
 *	(ampsoc, with F_FC), 12 bytes
 * @addr: the receiver's endpoint that must pause or resume
 * @peer: the sender's endpoint that asks for it
 * @flags: AMPSOC_RPMSG_FC_PAUSED or 0; other bits must be zero
 */
struct ampsoc_rpmsg_fc_msg {
	__le32 addr;
	__le32 peer;
	__le32 flags;
} __attribute__((packed));

/**
 * struct ampsoc_rpmsg_vdev_config - the vdev config space with F_BUFSZ
 * @h2r_buf_size: proposed size of a host-to-remote buffer, header
 *	included; 0 means 512
 * @r2h_buf_size: proposed size of a remote-to-host buffer, header
 *	included; 0 means 512
 *
 * A size is used if it is a multiple of 16 from 512 to 65536; otherwise
 * both sides fall back to 512.
 */
struct ampsoc_rpmsg_vdev_config {
	__le32 h2r_buf_size;
	__le32 r2h_buf_size;
} __attribute__((packed));

/* The sizes both sides rely on. */
AMPSOC_ABI_CHECK(rpmsg_hdr, sizeof(struct rpmsg_hdr) == AMPSOC_RPMSG_HDR_SIZE);
AMPSOC_ABI_CHECK(rpmsg_ns_msg, sizeof(struct ampsoc_rpmsg_ns_msg) == 40);
AMPSOC_ABI_CHECK(rpmsg_fc_msg, sizeof(struct ampsoc_rpmsg_fc_msg) == 12);
AMPSOC_ABI_CHECK(rpmsg_vdev_config,
		 sizeof(struct ampsoc_rpmsg_vdev_config) == 8);

#endif /* _UAPI_AMPSOC_VIRTIO_RPMSG_H */
