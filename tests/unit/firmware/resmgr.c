// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit test of the SDK's resource-manager client (lib/resmgr.c).
 *
 * The rpmsg layer under it is scripted here: sends are captured and
 * answered by a fake Linux server whose behaviour each case picks (good
 * replies, errnos, stale or foreign replies, silence), and
 * amp_rpmsg_run_once() delivers what the server queued or lets the fake
 * clock run out. The wire layout is checked byte by byte against the
 * documented offsets.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ktap_user.h>
#include <amp/env.h>
#include <amp/resmgr.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define LINUX_ADDR	0x401
#define MY_ADDR		0x400

/* ---- the scripted rpmsg layer ------------------------------------------ */

static uint64_t now_ns;
static unsigned int sends;
static int send_error;
static uint8_t last_sent[64];
static uint32_t last_len, last_dst;
static char created_name[AMPSOC_RPMSG_NAME_SIZE];
static uint32_t created_addr, created_dst;

enum server_mode {
	SRV_OK,		/* refs counted, state 1 */
	SRV_ERRNO,	/* status = srv_errno */
	SRV_STALE_FIRST,/* a reply with a wrong id, then the right one */
	SRV_FOREIGN,	/* the reply comes from another address */
	SRV_BAD_OP,	/* the reply's op differs */
	SRV_BAD_STATUS,	/* a positive status */
	SRV_SHORT,	/* a 20-byte reply */
	SRV_SILENT,	/* no reply */
};

static enum server_mode mode;
static int srv_errno;
static uint32_t srv_refs;

struct msg {
	uint8_t data[64];
	uint32_t len;
	uint32_t src;
};

static struct msg inbox[8];
static unsigned int inbox_n;
static struct amp_rpmsg_ept *the_ept;

uint64_t env_time_ns(void)
{
	return now_ns;
}

int amp_rpmsg_ept_create(struct amp_rpmsg_dev *rdev, struct amp_rpmsg_ept *ept,
			 const char *name, uint32_t addr, uint32_t dst,
			 amp_rpmsg_cb cb, void *priv)
{
	memset(ept, 0, sizeof(*ept));
	strncpy(created_name, name, sizeof(created_name) - 1);
	created_addr = addr;
	created_dst = dst;
	ept->addr = MY_ADDR;
	ept->dst = dst;
	ept->cb = cb;
	ept->priv = priv;
	ept->rdev = rdev;
	the_ept = ept;
	return 0;
}

static void queue_msg(const void *data, uint32_t len, uint32_t src)
{
	if (inbox_n == ARRAY_SIZE(inbox))
		abort();
	memcpy(inbox[inbox_n].data, data, len);
	inbox[inbox_n].len = len;
	inbox[inbox_n].src = src;
	inbox_n++;
}

static void hello(uint32_t version, uint32_t max)
{
	struct ampsoc_resmgr_reply r = {
		.op = AMPSOC_RESMGR_OP_HELLO, .refs = max, .state = version,
	};

	queue_msg(&r, sizeof(r), LINUX_ADDR);
}

/* Linux's side: answer the request just sent (any op is echoed). */
static void serve(const struct ampsoc_resmgr_req *req)
{
	struct ampsoc_resmgr_reply r = {
		.id = req->id, .op = req->op, .type = req->type,
	};

	switch (mode) {
	case SRV_OK:
		if (req->op == AMPSOC_RESMGR_OP_REQUEST)
			srv_refs++;
		else if (req->op == AMPSOC_RESMGR_OP_RELEASE && srv_refs)
			srv_refs--;
		r.refs = srv_refs;
		r.state = srv_refs > 0;
		break;
	case SRV_ERRNO:
		r.status = (uint32_t)srv_errno;
		break;
	case SRV_STALE_FIRST: {
		struct ampsoc_resmgr_reply old = r;

		old.id = req->id - 1;
		old.status = (uint32_t)-EIO;
		queue_msg(&old, sizeof(old), LINUX_ADDR);
		r.refs = 7;
		break;
	}
	case SRV_FOREIGN:
		queue_msg(&r, sizeof(r), LINUX_ADDR + 1);
		return;
	case SRV_BAD_OP:
		r.op = AMPSOC_RESMGR_OP_QUERY;
		break;
	case SRV_BAD_STATUS:
		r.status = 5;
		break;
	case SRV_SHORT:
		queue_msg(&r, 20, LINUX_ADDR);
		return;
	case SRV_SILENT:
		return;
	}
	queue_msg(&r, sizeof(r), LINUX_ADDR);
}

int amp_rpmsg_sendto(struct amp_rpmsg_ept *ept, uint32_t dst, const void *data,
		     uint32_t len, uint64_t timeout_ns)
{
	sends++;
	if (send_error)
		return send_error;
	last_len = len < sizeof(last_sent) ? len : sizeof(last_sent);
	memcpy(last_sent, data, last_len);
	last_dst = dst;
	if (len == sizeof(struct ampsoc_resmgr_req))
		serve(data);
	return 0;
}

/* Deliver everything queued, or let the fake clock run to the timeout. */
int amp_rpmsg_run_once(struct amp_rpmsg_dev *rdev, uint64_t timeout_ns)
{
	unsigned int i, n = inbox_n;

	if (!n) {
		now_ns += timeout_ns;
		return 0;
	}
	rdev->in_poll = true;
	for (i = 0; i < n; i++)
		the_ept->cb(the_ept, inbox[i].data, inbox[i].len, inbox[i].src,
			    the_ept->priv);
	rdev->in_poll = false;
	inbox_n = 0;
	return (int)n;
}

/* ---- the cases ------------------------------------------------------------ */

static struct amp_rpmsg_dev rdev;
static struct amp_resmgr rm;

#define SEC	1000000000ull

static void reset(void)
{
	now_ns = 1000;
	sends = 0;
	send_error = 0;
	inbox_n = 0;
	mode = SRV_OK;
	srv_refs = 0;
	memset(&rdev, 0, sizeof(rdev));
}

static bool wire_layout(void)
{
	return KTAP_CHECK(sizeof(struct ampsoc_resmgr_req) == 48) &&
	       KTAP_CHECK(offsetof(struct ampsoc_resmgr_req, op) == 4) &&
	       KTAP_CHECK(offsetof(struct ampsoc_resmgr_req, type) == 6) &&
	       KTAP_CHECK(offsetof(struct ampsoc_resmgr_req, flags) == 8) &&
	       KTAP_CHECK(offsetof(struct ampsoc_resmgr_req, name) == 16) &&
	       KTAP_CHECK(sizeof(struct ampsoc_resmgr_reply) == 24) &&
	       KTAP_CHECK(offsetof(struct ampsoc_resmgr_reply, status) == 8) &&
	       KTAP_CHECK(offsetof(struct ampsoc_resmgr_reply, refs) == 12) &&
	       KTAP_CHECK(offsetof(struct ampsoc_resmgr_reply, state) == 16);
}

static bool init_announces(void)
{
	reset();
	return KTAP_CHECK(amp_resmgr_init(&rm, &rdev) == 0) &&
	       KTAP_CHECK(!strcmp(created_name, "rpmsg-resmgr")) &&
	       KTAP_CHECK(created_addr == AMPSOC_RPMSG_ADDR_ANY) &&
	       KTAP_CHECK(created_dst == AMPSOC_RPMSG_ADDR_ANY) &&
	       KTAP_CHECK(!amp_resmgr_ready(&rm));
}

static bool no_hello_is_enotconn(void)
{
	reset();
	amp_resmgr_init(&rm, &rdev);
	return KTAP_CHECK(amp_resmgr_request_domain(&rm, "dsp", 2 * SEC) == -ENOTCONN) &&
	       KTAP_CHECK(now_ns >= 2 * SEC) && KTAP_CHECK(sends == 0);
}

static bool bad_hello_ignored(void)
{
	reset();
	amp_resmgr_init(&rm, &rdev);
	hello(AMPSOC_RESMGR_VERSION + 1, 8);
	return KTAP_CHECK(amp_resmgr_request_domain(&rm, "dsp", SEC) == -ENOTCONN) &&
	       KTAP_CHECK(rm.stats.bad == 1) && KTAP_CHECK(rm.stats.hellos == 0);
}

/* The client after a good HELLO, as the following cases start. */
static void ready(void)
{
	reset();
	amp_resmgr_init(&rm, &rdev);
	hello(AMPSOC_RESMGR_VERSION, 8);
	amp_rpmsg_run_once(&rdev, 0);
}

static bool hello_then_request(void)
{
	struct amp_resmgr_result res = { 0 };
	const struct ampsoc_resmgr_req *req = (const void *)last_sent;
	static const char zeros[AMPSOC_RESMGR_NAME_LEN];
	int ret;

	ready();
	if (!KTAP_CHECK(amp_resmgr_ready(&rm)) || !KTAP_CHECK(rm.max_holdings == 8))
		return false;
	ret = amp_resmgr_call(&rm, AMPSOC_RESMGR_OP_REQUEST,
			      AMPSOC_RESMGR_TYPE_DOMAIN, "l4per_sub", SEC, &res);
	return KTAP_CHECK(ret == 0) && KTAP_CHECK(res.refs == 1) &&
	       KTAP_CHECK(res.on) && KTAP_CHECK(last_len == 48) &&
	       KTAP_CHECK(last_dst == LINUX_ADDR) && KTAP_CHECK(req->id == 1) &&
	       KTAP_CHECK(req->op == AMPSOC_RESMGR_OP_REQUEST) &&
	       KTAP_CHECK(req->type == AMPSOC_RESMGR_TYPE_DOMAIN) &&
	       KTAP_CHECK(req->flags == 0 && req->reserved == 0) &&
	       KTAP_CHECK(!strcmp(req->name, "l4per_sub")) &&
	       KTAP_CHECK(!memcmp(req->name + 9, zeros, sizeof(zeros) - 9)) &&
	       KTAP_CHECK(rm.wait_id == 0);
}

static bool refs_and_release(void)
{
	struct amp_resmgr_result res = { 0 };

	ready();
	return KTAP_CHECK(amp_resmgr_request_clock(&rm, "gpt2_fck", SEC) == 0) &&
	       KTAP_CHECK(amp_resmgr_request_clock(&rm, "gpt2_fck", SEC) == 0) &&
	       KTAP_CHECK(amp_resmgr_call(&rm, AMPSOC_RESMGR_OP_RELEASE,
					  AMPSOC_RESMGR_TYPE_CLOCK, "gpt2_fck",
					  SEC, &res) == 0) &&
	       KTAP_CHECK(res.refs == 1) &&
	       KTAP_CHECK(((const struct ampsoc_resmgr_req *)last_sent)->id == 3) &&
	       KTAP_CHECK(amp_resmgr_release_clock(&rm, "gpt2_fck", SEC) == 0) &&
	       KTAP_CHECK(srv_refs == 0);
}

static bool linux_errno_returned(void)
{
	struct amp_resmgr_result res = { .refs = 99 };

	ready();
	mode = SRV_ERRNO;
	srv_errno = -ENOENT;
	if (!KTAP_CHECK(amp_resmgr_call(&rm, AMPSOC_RESMGR_OP_REQUEST,
					AMPSOC_RESMGR_TYPE_DOMAIN, "nosuch",
					SEC, &res) == -ENOENT) ||
	    !KTAP_CHECK(res.refs == 99))
		return false;
	srv_errno = -EPERM;
	return KTAP_CHECK(amp_resmgr_release_domain(&rm, "dsp", SEC) == -EPERM);
}

static bool stale_reply_skipped(void)
{
	struct amp_resmgr_result res = { 0 };

	ready();
	mode = SRV_STALE_FIRST;
	return KTAP_CHECK(amp_resmgr_call(&rm, AMPSOC_RESMGR_OP_QUERY,
					  AMPSOC_RESMGR_TYPE_DOMAIN, "dsp", SEC,
					  &res) == 0) &&
	       KTAP_CHECK(res.refs == 7) && KTAP_CHECK(rm.stats.stale == 1);
}

static bool foreign_reply_refused(void)
{
	ready();
	mode = SRV_FOREIGN;
	return KTAP_CHECK(amp_resmgr_request_domain(&rm, "dsp", SEC) == -ETIMEDOUT) &&
	       KTAP_CHECK(rm.stats.bad == 1) && KTAP_CHECK(rm.wait_id == 0);
}

static bool mismatched_reply_eproto(void)
{
	ready();
	mode = SRV_BAD_OP;
	if (!KTAP_CHECK(amp_resmgr_request_domain(&rm, "dsp", SEC) == -EPROTO))
		return false;
	mode = SRV_BAD_STATUS;
	return KTAP_CHECK(amp_resmgr_request_domain(&rm, "dsp", SEC) == -EPROTO) &&
	       KTAP_CHECK(rm.stats.bad == 2);
}

static bool short_reply_refused(void)
{
	ready();
	mode = SRV_SHORT;
	return KTAP_CHECK(amp_resmgr_request_domain(&rm, "dsp", SEC) == -ETIMEDOUT) &&
	       KTAP_CHECK(rm.stats.bad == 1);
}

static bool late_reply_is_stale(void)
{
	struct ampsoc_resmgr_reply late;

	ready();
	mode = SRV_SILENT;
	if (!KTAP_CHECK(amp_resmgr_request_domain(&rm, "dsp", SEC) == -ETIMEDOUT))
		return false;
	memset(&late, 0, sizeof(late));
	late.id = ((const struct ampsoc_resmgr_req *)last_sent)->id;
	late.op = AMPSOC_RESMGR_OP_REQUEST;
	late.type = AMPSOC_RESMGR_TYPE_DOMAIN;
	queue_msg(&late, sizeof(late), LINUX_ADDR);
	mode = SRV_OK;
	return KTAP_CHECK(amp_resmgr_request_domain(&rm, "dsp", SEC) == 0) &&
	       KTAP_CHECK(rm.stats.stale == 1) && KTAP_CHECK(srv_refs == 1);
}

static bool names_checked_locally(void)
{
	char name[AMPSOC_RESMGR_NAME_LEN + 1];

	ready();
	memset(name, 'a', sizeof(name) - 1);
	name[AMPSOC_RESMGR_NAME_LEN] = '\0';
	if (!KTAP_CHECK(amp_resmgr_request_domain(&rm, name, SEC) == -ENAMETOOLONG) ||
	    !KTAP_CHECK(amp_resmgr_request_domain(&rm, "", SEC) == -EINVAL) ||
	    !KTAP_CHECK(amp_resmgr_request_domain(&rm, NULL, SEC) == -EINVAL) ||
	    !KTAP_CHECK(sends == 0))
		return false;
	name[AMPSOC_RESMGR_NAME_LEN - 1] = '\0';	/* 31 characters: fine */
	return KTAP_CHECK(amp_resmgr_request_domain(&rm, name, SEC) == 0);
}

static bool callback_context_refused(void)
{
	ready();
	rdev.in_poll = true;
	return KTAP_CHECK(amp_resmgr_request_domain(&rm, "dsp", SEC) == -EDEADLK) &&
	       KTAP_CHECK(sends == 0);
}

static bool send_error_returned(void)
{
	ready();
	send_error = -ENOMEM;
	return KTAP_CHECK(amp_resmgr_request_domain(&rm, "dsp", SEC) == -ENOMEM) &&
	       KTAP_CHECK(rm.wait_id == 0);
}

static bool ids_skip_zero(void)
{
	ready();
	rm.next_id = UINT32_MAX;
	return KTAP_CHECK(amp_resmgr_request_domain(&rm, "dsp", SEC) == 0) &&
	       KTAP_CHECK(((const struct ampsoc_resmgr_req *)last_sent)->id == UINT32_MAX) &&
	       KTAP_CHECK(amp_resmgr_request_domain(&rm, "dsp", SEC) == 0) &&
	       KTAP_CHECK(((const struct ampsoc_resmgr_req *)last_sent)->id == 1);
}

static bool raw_request_passed_through(void)
{
	struct ampsoc_resmgr_req req = { .id = 77, .op = AMPSOC_RESMGR_OP_HELLO };
	struct ampsoc_resmgr_reply reply;

	ready();
	mode = SRV_ERRNO;
	srv_errno = -EOPNOTSUPP;
	return KTAP_CHECK(amp_resmgr_send_raw(&rm, &req, sizeof(req), 77, SEC,
					      &reply) == 0) &&
	       KTAP_CHECK((int32_t)reply.status == -EOPNOTSUPP) &&
	       KTAP_CHECK(reply.id == 77) && KTAP_CHECK(last_len == sizeof(req)) &&
	       KTAP_CHECK(!memcmp(last_sent, &req, sizeof(req)));
}

static bool second_hello_counted(void)
{
	ready();
	hello(AMPSOC_RESMGR_VERSION, 4);
	amp_rpmsg_run_once(&rdev, 0);
	return KTAP_CHECK(rm.stats.hellos == 2) && KTAP_CHECK(rm.max_holdings == 4);
}

int main(void)
{
	static const struct {
		const char *name;
		bool (*fn)(void);
	} cases[] = {
		{ "wire_layout", wire_layout },
		{ "init_announces_rpmsg_resmgr", init_announces },
		{ "no_hello_is_enotconn", no_hello_is_enotconn },
		{ "bad_hello_ignored", bad_hello_ignored },
		{ "hello_then_request_on_the_wire", hello_then_request },
		{ "refs_and_release", refs_and_release },
		{ "linux_errno_returned", linux_errno_returned },
		{ "stale_reply_skipped", stale_reply_skipped },
		{ "foreign_reply_refused", foreign_reply_refused },
		{ "mismatched_reply_eproto", mismatched_reply_eproto },
		{ "short_reply_refused", short_reply_refused },
		{ "late_reply_is_stale", late_reply_is_stale },
		{ "names_checked_locally", names_checked_locally },
		{ "callback_context_refused", callback_context_refused },
		{ "send_error_returned", send_error_returned },
		{ "ids_skip_zero", ids_skip_zero },
		{ "raw_request_passed_through", raw_request_passed_through },
		{ "second_hello_counted", second_hello_counted },
	};
	unsigned int i;

	ktap_plan(ARRAY_SIZE(cases));
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		ktap_ok(cases[i].fn(), "%s", cases[i].name);
	return ktap_exit();
}
