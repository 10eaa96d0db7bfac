// SPDX-License-Identifier: GPL-2.0
/*
 * Resource-manager client over rpmsg (amp/resmgr.h): one synchronous
 * request at a time, matched to its reply by id.
 */
#include <errno.h>
#include <string.h>

#include <amp/env.h>
#include <amp/resmgr.h>

static int resmgr_cb(struct amp_rpmsg_ept *ept, void *data, uint32_t len,
		     uint32_t src, void *priv)
{
	struct amp_resmgr *rm = priv;
	struct ampsoc_resmgr_reply r;

	if (len != sizeof(r)) {
		rm->stats.bad++;
		return 0;
	}
	memcpy(&r, data, sizeof(r));
	/* HELLO has id 0; requests never do (a reply to op 0 is a reply). */
	if (r.op == AMPSOC_RESMGR_OP_HELLO && !r.id) {
		if (r.state != AMPSOC_RESMGR_VERSION || r.status) {
			rm->stats.bad++;
			return 0;
		}
		rm->server = src;
		rm->version = r.state;
		rm->max_holdings = r.refs;
		rm->stats.hellos++;
		return 0;
	}
	if (src != rm->server) {
		rm->stats.bad++;
		return 0;
	}
	if (!rm->wait_id || r.id != rm->wait_id || rm->replied) {
		rm->stats.stale++;
		return 0;
	}
	rm->reply = r;
	rm->replied = true;
	rm->stats.replies++;
	return 0;
}

int amp_resmgr_init(struct amp_resmgr *rm, struct amp_rpmsg_dev *rdev)
{
	memset(rm, 0, sizeof(*rm));
	rm->rdev = rdev;
	rm->server = AMPSOC_RPMSG_ADDR_ANY;
	rm->next_id = 1;
	return amp_rpmsg_ept_create(rdev, &rm->ept, AMPSOC_RESMGR_SERVICE,
				    AMPSOC_RPMSG_ADDR_ANY, AMPSOC_RPMSG_ADDR_ANY,
				    resmgr_cb, rm);
}

bool amp_resmgr_ready(const struct amp_resmgr *rm)
{
	return rm->server != AMPSOC_RPMSG_ADDR_ANY;
}

static uint64_t deadline_of(uint64_t timeout_ns)
{
	uint64_t now = env_time_ns();

	return timeout_ns > UINT64_MAX - now ? UINT64_MAX : now + timeout_ns;
}

/* Run the device until @done or the deadline; -ETIMEDOUT then. */
static int run_until(struct amp_resmgr *rm, const bool *done,
		     uint64_t deadline)
{
	uint64_t now;
	int ret;

	while (!*done) {
		now = env_time_ns();
		if (now >= deadline)
			return -ETIMEDOUT;
		ret = amp_rpmsg_run_once(rm->rdev, deadline - now);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int send_wait(struct amp_resmgr *rm, const void *msg, uint32_t len,
		     uint32_t id, uint64_t timeout_ns,
		     struct ampsoc_resmgr_reply *reply)
{
	uint64_t deadline = deadline_of(timeout_ns), now;
	int ret;

	if (rm->rdev->in_poll)
		return -EDEADLK;
	while (!amp_resmgr_ready(rm)) {
		now = env_time_ns();
		if (now >= deadline)
			return -ENOTCONN;
		ret = amp_rpmsg_run_once(rm->rdev, deadline - now);
		if (ret < 0)
			return ret;
	}
	rm->wait_id = id;
	rm->replied = false;
	now = env_time_ns();
	ret = amp_rpmsg_sendto(&rm->ept, rm->server, msg, len,
			       deadline > now ? deadline - now : 0);
	if (!ret)
		ret = run_until(rm, &rm->replied, deadline);
	if (!ret)
		*reply = rm->reply;
	rm->wait_id = 0;
	rm->replied = false;
	return ret;
}

int amp_resmgr_send_raw(struct amp_resmgr *rm, const void *msg, uint32_t len,
			uint32_t id, uint64_t timeout_ns,
			struct ampsoc_resmgr_reply *reply)
{
	return send_wait(rm, msg, len, id, timeout_ns, reply);
}

int amp_resmgr_call(struct amp_resmgr *rm, uint16_t op, uint16_t type,
		    const char *name, uint64_t timeout_ns,
		    struct amp_resmgr_result *res)
{
	struct ampsoc_resmgr_req req;
	struct ampsoc_resmgr_reply reply;
	size_t n = name ? strnlen(name, sizeof(req.name)) : 0;
	int32_t status;
	int ret;

	if (!n)
		return -EINVAL;
	if (n == sizeof(req.name))
		return -ENAMETOOLONG;
	memset(&req, 0, sizeof(req));
	req.id = rm->next_id++;
	if (!rm->next_id)
		rm->next_id = 1;
	req.op = op;
	req.type = type;
	memcpy(req.name, name, n);

	ret = send_wait(rm, &req, sizeof(req), req.id, timeout_ns, &reply);
	if (ret)
		return ret;
	if (reply.op != op || reply.type != type) {
		rm->stats.bad++;
		return -EPROTO;
	}
	status = (int32_t)reply.status;
	if (status > 0 || status < -4095) {
		rm->stats.bad++;
		return -EPROTO;
	}
	if (!status && res) {
		res->refs = reply.refs;
		res->on = reply.state == 1;
	}
	return status;
}
