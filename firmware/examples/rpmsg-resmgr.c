// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc-rpmsg-resmgr: a firmware that needs a power domain it does not
 * own, and asks Linux for it through the resource manager (amp/resmgr.h).
 *
 * Services it announces:
 *  - "rpmsg-resmgr": the resource-manager client. Whenever Linux says
 *    HELLO (at boot, and again if Linux's driver was rebound and forgot
 *    this core), the firmware requests RESMGR_DOMAIN and keeps it while it
 *    runs;
 *  - "ampsoc-echo": sends every message back, as ampsoc-rpmsg-echo does;
 *  - "ampsoc-resmgr-ctl": a control endpoint taking one text command per
 *    message and answering with one line:
 *      request|release TYPE NAME [COUNT]   TYPE: domain or clock; COUNT
 *                                          times, stopping at an error
 *      query TYPE NAME
 *        -> "STATUS REFS ON DONE": Linux's status (0 or -errno), the
 *           references held and whether the resource is on after the last
 *           successful call, and how many calls succeeded;
 *      bad MODE       one malformed request (short, long, nonul, op,
 *                     hello, type, flags, chars, empty)
 *        -> "STATUS": Linux's answer, e.g. -74 (EBADMSG);
 *      status         -> "hellos H replies R stale S bad B held 0|1";
 *      flood N        N well-formed requests in a row, without waiting
 *                     for any reply (REQUEST and RELEASE of l4per, REQUEST
 *                     of gpt2_fck, in turn), as a remote flooding Linux
 *                     right before it goes away would
 *        -> "SENT": how many Linux took (the rest found no buffer); the
 *           replies come later and are dropped as stale.
 *    An unknown command gets "-22".
 *
 * Everything it does is logged to the trace buffer.
 */
#include <errno.h>

#include <amp/amp.h>
#include <amp/resmgr.h>
#include <amp/rpmsg.h>

#include "vdev-buffer.h"

#define RESMGR_DOMAIN	"l4per_sub"
/* Per request; Linux answers in well under a millisecond. */
#define RESMGR_TIMEOUT	5000000000ull

#define RM_NUM_BUFS	256
#define RM_VRING_ALIGN	16
#define RM_BUF_DA	(AMP_CORE_SHM_BASE + 0x100000)
#define RM_BUF_LEN	0x100000

AMP_RSC_VDEV_TYPE(rm_vdev, 2, 0);

struct rm_rsc {
	struct amp_rsc_table_hdr hdr;
	uint32_t offset[2 + SAMPLE_HAS_VDEV_BUFFER];
	struct amp_rsc_trace trace0;
#if SAMPLE_HAS_VDEV_BUFFER
	struct amp_rsc_carveout bufs;
#endif
	struct rm_vdev vdev0;
} AMP_RSC_PACKED;

AMP_RESOURCE_TABLE struct rm_rsc amp_resource_table = {
	.hdr = AMP_RSC_TABLE_HDR(struct rm_rsc),
	.offset = {
		offsetof(struct rm_rsc, trace0),
#if SAMPLE_HAS_VDEV_BUFFER
		offsetof(struct rm_rsc, bufs),
#endif
		offsetof(struct rm_rsc, vdev0),
	},
	.trace0 = AMP_RSC_TRACE_INIT("trace0"),
#if SAMPLE_HAS_VDEV_BUFFER
	.bufs = AMP_RSC_CARVEOUT_INIT(RM_BUF_DA, AMP_RSC_ADDR_ANY, RM_BUF_LEN, 0,
				      "vdev0buffer"),
#endif
	.vdev0 = AMP_RSC_VDEV_INIT(AMPSOC_VIRTIO_ID_RPMSG, 0,
				   1u << AMPSOC_VIRTIO_RPMSG_F_NS, 0, 2,
				   AMP_RSC_VRING_INIT(AMP_RSC_ADDR_ANY, RM_VRING_ALIGN,
						      RM_NUM_BUFS, 0),
				   AMP_RSC_VRING_INIT(AMP_RSC_ADDR_ANY, RM_VRING_ALIGN,
						      RM_NUM_BUFS, 1)),
};

static struct amp_rpmsg_dev rdev;
static struct amp_resmgr rm;
static struct amp_rpmsg_ept echo_ept, ctl_ept;
static bool held;

/* A control command, recorded by its callback and run by main(). */
static struct {
	bool pending;
	uint32_t src;
	char text[96];
} cmd;

static int echo_cb(struct amp_rpmsg_ept *ept, void *data, uint32_t len,
		   uint32_t src, void *priv)
{
	amp_rpmsg_trysendto(ept, src, data, len);
	return 0;
}

static int ctl_cb(struct amp_rpmsg_ept *ept, void *data, uint32_t len,
		  uint32_t src, void *priv)
{
	static const char busy[] = "-16";

	if (cmd.pending || len >= sizeof(cmd.text)) {
		amp_rpmsg_trysendto(ept, src, busy, sizeof(busy) - 1);
		return 0;
	}
	memcpy(cmd.text, data, len);
	cmd.text[len] = '\0';
	cmd.src = src;
	cmd.pending = true;
	return 0;
}

/* Split the next space-separated word off *@s; NULL at the end. */
static char *next_word(char **s)
{
	char *w = *s, *sp;

	while (*w == ' ')
		w++;
	if (!*w)
		return NULL;
	sp = strchr(w, ' ');
	if (sp) {
		*sp = '\0';
		*s = sp + 1;
	} else {
		*s = w + strlen(w);
	}
	return w;
}

static int parse_uint(const char *s, uint32_t *v)
{
	uint32_t n = 0;

	if (!s || !*s)
		return -EINVAL;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || n > 100000)
			return -EINVAL;
		n = n * 10 + (uint32_t)(*s - '0');
	}
	*v = n;
	return 0;
}

static void hold_domain(void)
{
	struct amp_resmgr_result res = { 0 };
	int ret;

	ret = amp_resmgr_call(&rm, AMPSOC_RESMGR_OP_REQUEST,
			      AMPSOC_RESMGR_TYPE_DOMAIN, RESMGR_DOMAIN,
			      RESMGR_TIMEOUT, &res);
	held = !ret;
	amp_log("ampsoc-rpmsg-resmgr: requested domain %s: %d (refs %u, %s)",
		RESMGR_DOMAIN, ret, res.refs, res.on ? "on" : "off");
}

/* One malformed request; returns Linux's status or a local error. */
static int bad_request(const char *mode)
{
	uint8_t raw[sizeof(struct ampsoc_resmgr_req) + 1];
	struct ampsoc_resmgr_req *req = (void *)raw;
	struct ampsoc_resmgr_reply reply;
	uint32_t len = sizeof(*req), id = rm.next_id++;
	int ret;

	if (!rm.next_id)
		rm.next_id = 1;
	memset(raw, 0, sizeof(raw));
	req->id = id;
	req->op = AMPSOC_RESMGR_OP_QUERY;
	req->type = AMPSOC_RESMGR_TYPE_DOMAIN;
	memcpy(req->name, RESMGR_DOMAIN, sizeof(RESMGR_DOMAIN));
	if (!strcmp(mode, "short"))
		len = 8;
	else if (!strcmp(mode, "long"))
		len = sizeof(raw);
	else if (!strcmp(mode, "nonul"))
		memset(req->name, 'a', sizeof(req->name));
	else if (!strcmp(mode, "op"))
		req->op = 9;
	else if (!strcmp(mode, "hello"))
		req->op = AMPSOC_RESMGR_OP_HELLO;
	else if (!strcmp(mode, "type"))
		req->type = 7;
	else if (!strcmp(mode, "flags"))
		req->flags = 1;
	else if (!strcmp(mode, "chars"))
		memcpy(req->name, "../x", 5);
	else if (!strcmp(mode, "empty"))
		memset(req->name, 0, sizeof(req->name));
	else
		return -EINVAL;
	ret = amp_resmgr_send_raw(&rm, raw, len, id, RESMGR_TIMEOUT, &reply);
	if (!ret)
		ret = (int32_t)reply.status;
	amp_log("ampsoc-rpmsg-resmgr: bad request '%s': Linux says %d", mode, ret);
	return ret;
}

/* @n requests sent back to back; replies are left to come in as stale. */
static uint32_t flood(uint32_t n)
{
	static const struct {
		uint16_t op, type;
		const char *name;
	} kinds[] = {
		{ AMPSOC_RESMGR_OP_REQUEST, AMPSOC_RESMGR_TYPE_DOMAIN, "l4per" },
		{ AMPSOC_RESMGR_OP_RELEASE, AMPSOC_RESMGR_TYPE_DOMAIN, "l4per" },
		{ AMPSOC_RESMGR_OP_REQUEST, AMPSOC_RESMGR_TYPE_CLOCK, "gpt2_fck" },
	};
	struct ampsoc_resmgr_req req;
	uint32_t i, sent = 0;

	for (i = 0; i < n; i++) {
		memset(&req, 0, sizeof(req));
		req.id = rm.next_id++;
		if (!rm.next_id)
			rm.next_id = 1;
		req.op = kinds[i % 3].op;
		req.type = kinds[i % 3].type;
		memcpy(req.name, kinds[i % 3].name, strlen(kinds[i % 3].name) + 1);
		if (!amp_rpmsg_trysendto(&rm.ept, rm.server, &req, sizeof(req)))
			sent++;
	}
	amp_log("ampsoc-rpmsg-resmgr: flooded Linux with %u of %u requests",
		sent, n);
	return sent;
}

static int resource_call(const char *opname, char **rest, char *out,
			 size_t size)
{
	struct amp_resmgr_result res = { 0 };
	char *type_s = next_word(rest), *name = next_word(rest);
	char *count_s = next_word(rest);
	uint32_t count = 1, done = 0;
	uint16_t op, type;
	int ret = 0;

	if (!strcmp(opname, "request"))
		op = AMPSOC_RESMGR_OP_REQUEST;
	else if (!strcmp(opname, "release"))
		op = AMPSOC_RESMGR_OP_RELEASE;
	else
		op = AMPSOC_RESMGR_OP_QUERY;
	if (!type_s || !name)
		return -EINVAL;
	if (!strcmp(type_s, "domain"))
		type = AMPSOC_RESMGR_TYPE_DOMAIN;
	else if (!strcmp(type_s, "clock"))
		type = AMPSOC_RESMGR_TYPE_CLOCK;
	else
		return -EINVAL;
	if (count_s && parse_uint(count_s, &count))
		return -EINVAL;
	while (done < count) {
		ret = amp_resmgr_call(&rm, op, type, name, RESMGR_TIMEOUT, &res);
		if (ret)
			break;
		done++;
	}
	if (type == AMPSOC_RESMGR_TYPE_DOMAIN && !strcmp(name, RESMGR_DOMAIN) &&
	    op != AMPSOC_RESMGR_OP_QUERY && done)
		held = res.refs > 0;
	amp_log("ampsoc-rpmsg-resmgr: %s %s %s x%u: %d (refs %u, %s)", opname,
		type_s, name, done, ret, res.refs, res.on ? "on" : "off");
	snprintf(out, size, "%d %u %u %u", ret, res.refs, res.on ? 1 : 0, done);
	return 0;
}

static void run_command(void)
{
	char out[96], *rest = cmd.text, *word = next_word(&rest);
	int ret = -EINVAL;

	out[0] = '\0';
	if (!word) {
		ret = -EINVAL;
	} else if (!strcmp(word, "request") || !strcmp(word, "release") ||
		   !strcmp(word, "query")) {
		ret = resource_call(word, &rest, out, sizeof(out));
	} else if (!strcmp(word, "bad")) {
		word = next_word(&rest);
		ret = word ? bad_request(word) : -EINVAL;
		snprintf(out, sizeof(out), "%d", ret);
		ret = 0;
	} else if (!strcmp(word, "flood")) {
		uint32_t n;

		word = next_word(&rest);
		ret = parse_uint(word, &n);
		if (!ret)
			snprintf(out, sizeof(out), "%u", flood(n));
	} else if (!strcmp(word, "status")) {
		snprintf(out, sizeof(out), "hellos %u replies %u stale %u bad %u held %d",
			 rm.stats.hellos, rm.stats.replies, rm.stats.stale,
			 rm.stats.bad, held ? 1 : 0);
		ret = 0;
	}
	if (ret)
		snprintf(out, sizeof(out), "%d", ret);
	amp_rpmsg_sendto(&ctl_ept, cmd.src, out, strlen(out), RESMGR_TIMEOUT);
	cmd.pending = false;
}

int main(void)
{
	uint32_t seen_hellos = 0;
	int ret;

	printf("ampsoc-rpmsg-resmgr: core %s waiting for Linux\n",
	       platform_core_name());
	ret = amp_rpmsg_wait_ready(&rdev, &amp_resource_table.vdev0, AMP_FOREVER);
	if (ret) {
		amp_log("ampsoc-rpmsg-resmgr: vdev unusable: %d", ret);
		return 1;
	}
	ret = sample_use_vdev_buffer(&rdev);
	printf("ampsoc-rpmsg-resmgr: link up, %s\n", sample_buffers_by(&rdev, ret));
	ret = amp_rpmsg_ept_create(&rdev, &echo_ept, "ampsoc-echo",
				   AMPSOC_RPMSG_ADDR_ANY, AMPSOC_RPMSG_ADDR_ANY,
				   echo_cb, NULL);
	if (!ret)
		ret = amp_rpmsg_ept_create(&rdev, &ctl_ept, "ampsoc-resmgr-ctl",
					   AMPSOC_RPMSG_ADDR_ANY,
					   AMPSOC_RPMSG_ADDR_ANY, ctl_cb, NULL);
	if (!ret)
		ret = amp_resmgr_init(&rm, &rdev);
	printf("ampsoc-rpmsg-resmgr: link up, mtu %u, services: %d\n",
	       amp_rpmsg_mtu(&rdev), ret);
	if (ret)
		return 1;
	for (;;) {
		/* A HELLO: Linux (again) serves us and holds nothing for us. */
		if (rm.stats.hellos != seen_hellos) {
			seen_hellos = rm.stats.hellos;
			amp_log("ampsoc-rpmsg-resmgr: Linux serves resources (v%u, up to %u)",
				rm.version, rm.max_holdings);
			hold_domain();
		}
		if (cmd.pending)
			run_command();
		ret = amp_rpmsg_run_once(&rdev, AMP_FOREVER);
		if (ret == -EIO) {
			amp_log("ampsoc-rpmsg-resmgr: Linux broke a ring; stopping");
			return 2;
		}
	}
}
