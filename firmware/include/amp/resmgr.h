/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Resource-manager client: ask Linux to keep a power domain on, or a clock
 * enabled, for this core (Linux's side: drivers/rpmsg/rpmsg_resmgr.c; wire
 * format: <uapi/ampsoc/rpmsg_resmgr.h>; docs/rpmsg.md, "Resource manager").
 *
 * amp_resmgr_init() creates an endpoint announced as "rpmsg-resmgr". Once
 * Linux's driver binds the channel it says HELLO, and the client knows
 * where to send. Every call is synchronous: it sends one request and runs
 * the rpmsg device (amp_rpmsg_run_once(), so other endpoints' callbacks
 * run meanwhile) until the reply with the same id arrives or the timeout
 * passes. Calls must come from the main loop, not from an rpmsg callback
 * (-EDEADLK).
 *
 * Linux counts references per core and per resource: each request takes
 * one, each release drops one, and the resource goes off with the last
 * reference of every user. When the core stops or crashes, Linux drops
 * everything it held. A second HELLO (Linux's driver was rebound) means
 * Linux forgot this core's references: @hellos tells the application.
 */
#ifndef _AMP_RESMGR_H
#define _AMP_RESMGR_H

#include <stdbool.h>
#include <stdint.h>

#include <amp/rpmsg.h>
#include <uapi/ampsoc/rpmsg_resmgr.h>

/**
 * struct amp_resmgr_stats - what the client saw
 * @hellos: HELLO messages from Linux
 * @replies: replies matched to a request
 * @stale: replies to no pending request (late, after a timeout)
 * @bad: messages refused (size, sender, version)
 */
struct amp_resmgr_stats {
	uint32_t hellos;
	uint32_t replies;
	uint32_t stale;
	uint32_t bad;
};

/**
 * struct amp_resmgr - a resource-manager client
 * @ept: the "rpmsg-resmgr" endpoint
 * @rdev: the rpmsg device it lives on
 * @server: Linux's address, AMPSOC_RPMSG_ADDR_ANY until HELLO
 * @version: Linux's protocol version (from HELLO)
 * @max_holdings: resources this core may hold at a time (from HELLO)
 * @next_id: id of the next request (never 0)
 * @wait_id: id of the request waiting for its reply, 0 if none
 * @replied: @reply holds the reply to @wait_id
 * @reply: the reply, as received
 * @stats: counters
 */
struct amp_resmgr {
	struct amp_rpmsg_ept ept;
	struct amp_rpmsg_dev *rdev;
	uint32_t server;
	uint32_t version;
	uint32_t max_holdings;
	uint32_t next_id;
	uint32_t wait_id;
	bool replied;
	struct ampsoc_resmgr_reply reply;
	struct amp_resmgr_stats stats;
};

/**
 * struct amp_resmgr_result - what a request left behind
 * @refs: references this core holds on the resource now
 * @on: the resource is on (domain powered, clock enabled)
 */
struct amp_resmgr_result {
	uint32_t refs;
	bool on;
};

/*
 * Create the client's endpoint on @rdev and announce it. Returns 0 or the
 * error of amp_rpmsg_ept_create().
 */
int amp_resmgr_init(struct amp_resmgr *rm, struct amp_rpmsg_dev *rdev);

/* Linux has said HELLO: requests can be sent. */
bool amp_resmgr_ready(const struct amp_resmgr *rm);

/*
 * One request: @op is AMPSOC_RESMGR_OP_REQUEST, _RELEASE or _QUERY, @type
 * AMPSOC_RESMGR_TYPE_DOMAIN or _CLOCK. Waits up to @timeout_ns in all,
 * HELLO included. Fills @res (may be NULL) when Linux answered 0.
 * Returns 0 or Linux's errno (-ENOENT no such resource, -EPERM release of
 * what this core does not hold, -ENOSPC too many resources, -EOVERFLOW too
 * many references, -EBUSY Linux's queue is full), or locally: -EINVAL or
 * -ENAMETOOLONG for a bad name, -ENOTCONN no HELLO in time, -ETIMEDOUT no
 * reply in time, -EDEADLK called from an rpmsg callback, -EPROTO a reply
 * that does not match, or a send error.
 */
int amp_resmgr_call(struct amp_resmgr *rm, uint16_t op, uint16_t type,
		    const char *name, uint64_t timeout_ns,
		    struct amp_resmgr_result *res);

static inline int amp_resmgr_request_domain(struct amp_resmgr *rm,
					    const char *name,
					    uint64_t timeout_ns)
{
	return amp_resmgr_call(rm, AMPSOC_RESMGR_OP_REQUEST,
			       AMPSOC_RESMGR_TYPE_DOMAIN, name, timeout_ns, NULL);
}

static inline int amp_resmgr_release_domain(struct amp_resmgr *rm,
					    const char *name,
					    uint64_t timeout_ns)
{
	return amp_resmgr_call(rm, AMPSOC_RESMGR_OP_RELEASE,
			       AMPSOC_RESMGR_TYPE_DOMAIN, name, timeout_ns, NULL);
}

static inline int amp_resmgr_request_clock(struct amp_resmgr *rm,
					   const char *name,
					   uint64_t timeout_ns)
{
	return amp_resmgr_call(rm, AMPSOC_RESMGR_OP_REQUEST,
			       AMPSOC_RESMGR_TYPE_CLOCK, name, timeout_ns, NULL);
}

static inline int amp_resmgr_release_clock(struct amp_resmgr *rm,
					   const char *name,
					   uint64_t timeout_ns)
{
	return amp_resmgr_call(rm, AMPSOC_RESMGR_OP_RELEASE,
			       AMPSOC_RESMGR_TYPE_CLOCK, name, timeout_ns, NULL);
}

/*
 * Deliberate misbehaviour, for testing Linux's checks (never in a real
 * firmware): send @len raw bytes as a request and wait for the reply
 * carrying @id. Returns 0 with the reply in @reply, or an error as
 * amp_resmgr_call().
 */
int amp_resmgr_send_raw(struct amp_resmgr *rm, const void *msg, uint32_t len,
			uint32_t id, uint64_t timeout_ns,
			struct ampsoc_resmgr_reply *reply);

#endif /* _AMP_RESMGR_H */
