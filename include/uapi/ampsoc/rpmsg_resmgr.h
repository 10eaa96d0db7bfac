/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ampsoc rpmsg resource manager: the wire protocol.
 *
 * One header for both ends: the Linux server (drivers/rpmsg/rpmsg_resmgr.c) and
 * the firmware SDK's client (firmware/lib/resmgr.c). A remote announces a
 * channel named AMPSOC_RESMGR_SERVICE; when Linux binds it, Linux sends a
 * HELLO reply to the announced address, from which the remote learns
 * Linux's address. Each request then gets exactly one reply carrying the
 * request's id. docs/rpmsg.md ("Resource manager") describes the protocol.
 *
 * All fields are little-endian; the sizes are fixed and checked at the end
 * of this file. A message of any other size is refused.
 */
#ifndef _AMPSOC_RPMSG_RESMGR_H
#define _AMPSOC_RPMSG_RESMGR_H

#include "types.h"

/* The service (channel) name the remote announces. */
#define AMPSOC_RESMGR_SERVICE		"rpmsg-resmgr"
#define AMPSOC_RESMGR_VERSION		1
/* Resource names: NUL-terminated within this many bytes, [A-Za-z0-9_.-]. */
#define AMPSOC_RESMGR_NAME_LEN		32

/* ampsoc_resmgr_req.op and ampsoc_resmgr_reply.op */
#define AMPSOC_RESMGR_OP_HELLO		0	/* Linux to remote only */
#define AMPSOC_RESMGR_OP_REQUEST	1	/* take a reference */
#define AMPSOC_RESMGR_OP_RELEASE	2	/* drop a reference */
#define AMPSOC_RESMGR_OP_QUERY		3	/* state, no change */

/* ampsoc_resmgr_req.type */
#define AMPSOC_RESMGR_TYPE_DOMAIN	1	/* a PM domain, by name */
#define AMPSOC_RESMGR_TYPE_CLOCK	2	/* a clock, by clkdev con_id */

/**
 * struct ampsoc_resmgr_req - a request, remote to Linux (48 bytes)
 * @id: chosen by the remote, copied into the reply; not 0 (a reply with
 *	id 0 and op HELLO is Linux's HELLO)
 * @op: AMPSOC_RESMGR_OP_REQUEST, _RELEASE or _QUERY
 * @type: AMPSOC_RESMGR_TYPE_*
 * @flags: must be 0
 * @reserved: must be 0
 * @name: the resource, NUL-terminated
 */
struct ampsoc_resmgr_req {
	__le32 id;
	__le16 op;
	__le16 type;
	__le32 flags;
	__le32 reserved;
	char name[AMPSOC_RESMGR_NAME_LEN];
};

/**
 * struct ampsoc_resmgr_reply - a reply, Linux to remote (24 bytes)
 * @id: the request's id (0 for HELLO, or when the request was too short
 *	to carry one)
 * @op: the request's op, or AMPSOC_RESMGR_OP_HELLO
 * @type: the request's type
 * @status: 0, or a negative Linux errno (two's complement)
 * @refs: references this remote holds on the resource after the request;
 *	for HELLO, the most resources one remote may hold at a time
 * @state: 1 if the resource is on (domain powered, clock enabled), 0 if
 *	not; for HELLO, AMPSOC_RESMGR_VERSION
 * @reserved: 0
 */
struct ampsoc_resmgr_reply {
	__le32 id;
	__le16 op;
	__le16 type;
	__le32 status;
	__le32 refs;
	__le32 state;
	__le32 reserved;
};

/* Sizes are ABI: a negative array size stops any build that breaks them. */
#define AMPSOC_RESMGR_CHECK(name, cond) \
	extern char ampsoc_resmgr_check_##name[(cond) ? 1 : -1]

AMPSOC_RESMGR_CHECK(req, sizeof(struct ampsoc_resmgr_req) == 48);
AMPSOC_RESMGR_CHECK(reply, sizeof(struct ampsoc_resmgr_reply) == 24);

#endif /* _AMPSOC_RPMSG_RESMGR_H */
