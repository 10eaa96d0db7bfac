// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc-fuzz-remote: the remote of the coverage-guided campaign
 * (docs/fuzz-remote.md). It runs "programs" that Linux's userspace (the
 * agent, tests/fuzz-remote/agent.c) hands it over rpmsg, and answers each
 * with "done" once it ran it.
 *
 * Its endpoints:
 *  - FZ_CTL_ADDR: the control endpoint. A message that starts with
 *    FZ_MAGIC is a program: up to FZ_MAX_OPS operations of FZ_OP_SIZE
 *    bytes each (struct fz_op) after it; anything else is ignored;
 *  - "rpmsg-resmgr": the resource-manager client, so that programs can
 *    send any request to Linux's resource manager;
 *  - "ampsoc-echo": echoes, for a sanity check after a campaign.
 *
 * The operations (kind modulo FZ_NR_KINDS):
 *  MSG     one raw message: any src, dst, header length, flags, reserved,
 *          used length, payload (a pattern of its seed);
 *  NS      one name-service message: create/destroy/other flags, names of
 *          Linux's own channels, of drivers, made up or without a NUL,
 *          any address, any length;
 *  RESMGR  one resource-manager request: any op, type, flags, name (of
 *          the board's domains and clocks or not), waits a little for
 *          the reply;
 *  RING    tampers with the used ring of Linux's rx queue, as far as the
 *          vring firewall lets a core write: the used index ahead, an id
 *          out of range, a used length beyond the buffer;
 *  CRASH   the core faults (SIGSEGV) or aborts: Linux recovers it;
 *  SLEEP   does nothing for up to 20 ms, serving nothing;
 *  FLOOD   up to 255 messages in a row to one address, without serving;
 *  EPT     creates or destroys one endpoint of its own (so announces a
 *          channel or its end through the library).
 */
#include <errno.h>

#include <amp/amp.h>
#include <amp/resmgr.h>
#include <amp/rpmsg.h>

#include "prog.h"

#define FZ_NUM_BUFS	256
#define FZ_BUF_DA	(AMP_CORE_SHM_BASE + 0x100000)
#define FZ_BUF_LEN	0x100000
#define FZ_TIMEOUT_NS	200000000ull
/* Linux answers a request in well under this; a refused one never. */
#define FZ_REPLY_NS	20000000ull

AMP_RSC_VDEV_TYPE(fz_vdev, 2, 0);

struct fz_rsc {
	struct amp_rsc_table_hdr hdr;
	uint32_t offset[3];
	struct amp_rsc_trace trace0;
	struct amp_rsc_carveout bufs;
	struct fz_vdev vdev0;
} AMP_RSC_PACKED;

AMP_RESOURCE_TABLE struct fz_rsc amp_resource_table = {
	.hdr = AMP_RSC_TABLE_HDR(struct fz_rsc),
	.offset = {
		offsetof(struct fz_rsc, trace0),
		offsetof(struct fz_rsc, bufs),
		offsetof(struct fz_rsc, vdev0),
	},
	.trace0 = AMP_RSC_TRACE_INIT("trace0"),
	.bufs = AMP_RSC_CARVEOUT_INIT(FZ_BUF_DA, AMP_RSC_ADDR_ANY, FZ_BUF_LEN, 0,
				      "vdev0buffer"),
	.vdev0 = AMP_RSC_VDEV_INIT(AMPSOC_VIRTIO_ID_RPMSG, 0,
				   1u << AMPSOC_VIRTIO_RPMSG_F_NS, 0, 2,
		AMP_RSC_VRING_INIT(AMP_RSC_ADDR_ANY, 16, FZ_NUM_BUFS, 0),
		AMP_RSC_VRING_INIT(AMP_RSC_ADDR_ANY, 16, FZ_NUM_BUFS, 1)),
};

static struct amp_rpmsg_dev rdev;
static struct amp_resmgr rm;
static struct amp_rpmsg_ept ctl, echo;
static struct amp_rpmsg_ept extra[FZ_NR_EXTRA];

/* The program waiting to run, and who sent it. */
static uint8_t prog[FZ_MAX_OPS * FZ_OP_SIZE];
static uint32_t prog_len, agent;
static bool prog_ready;

static const char *const fz_names[] = {
	"rpmsg-raw", "rpmsg-resmgr", "rpmsg_ns", "rpmsg_ctrl", "ampsoc-echo",
	"rpmsg-client-sample", "ampsoc-fuzz", "",
};

static const char *const fz_res[] = {
	"l4per_sub", "l4per", "ipu", "dsp", "wkup", "gpt2_fck", "dma_fck",
	"l4per_ick", "sys_clk", "nothing", "", "l4per_sub\x01",
};

static int ctl_cb(struct amp_rpmsg_ept *ept, void *data, uint32_t len,
		  uint32_t src, void *priv)
{
	if (prog_ready || len < FZ_MAGIC_LEN || len > FZ_MAGIC_LEN + sizeof(prog) ||
	    memcmp(data, FZ_MAGIC, FZ_MAGIC_LEN))
		return 0;
	prog_len = len - FZ_MAGIC_LEN;
	memcpy(prog, (uint8_t *)data + FZ_MAGIC_LEN, prog_len);
	agent = src;
	prog_ready = true;
	return 0;
}

static int echo_cb(struct amp_rpmsg_ept *ept, void *data, uint32_t len,
		   uint32_t src, void *priv)
{
	amp_rpmsg_trysendto(ept, src, data, len);
	return 0;
}

static int sink_cb(struct amp_rpmsg_ept *ept, void *data, uint32_t len,
		   uint32_t src, void *priv)
{
	return 0;
}

/* A destination of a message: addresses Linux uses, or any. */
static uint32_t fz_dst(uint16_t sel, uint32_t v)
{
	switch (sel % 10) {
	case 0:
		return agent;
	case 1:
		return AMPSOC_RPMSG_NS_ADDR;
	case 2:
		return AMPSOC_RPMSG_FC_ADDR;
	case 3:
		return rm.server;
	case 4:
		return echo.dst;
	case 5:
		return AMPSOC_RPMSG_RESERVED_ADDRESSES + (v & 63);
	case 6:
		return agent + (v & 3);
	case 7:
		return 0;
	default:
		return v;
	}
}

static void fill(uint8_t *p, uint32_t len, uint32_t seed)
{
	uint32_t i;

	for (i = 0; i < len; i++) {
		seed = seed * 1103515245u + 12345u;
		p[i] = seed >> 16;
	}
}

static void op_msg(const struct fz_op *op)
{
	uint8_t data[AMPSOC_RPMSG_BUF_SIZE];
	struct rpmsg_hdr hdr;
	uint32_t plen = op->d & 0x1ff, used;
	int ret;

	if (plen > amp_rpmsg_mtu(&rdev))
		plen = amp_rpmsg_mtu(&rdev);
	fill(data, plen, op->c);
	hdr.src = op->a & 0x80 ? op->c : ctl.addr;
	hdr.dst = fz_dst(op->b, op->c);
	hdr.len = op->a & 1 ? op->d >> 16 : plen;
	hdr.flags = op->a & 2 ? op->b : 0;
	hdr.reserved = op->a & 4 ? op->c : 0;
	used = sizeof(hdr) + plen;
	if (op->a & 8)
		used = (op->d >> 9) & 0x3ff;
	ret = amp_rpmsg_send_raw(&rdev, &hdr, data, plen, used, FZ_TIMEOUT_NS);
	if (ret)
		amp_log("fz: msg: %d", ret);
}

static void op_ns(const struct fz_op *op)
{
	struct ampsoc_rpmsg_ns_msg m;
	uint32_t len = sizeof(m);
	unsigned int k = op->b % (AMP_ARRAY_SIZE(fz_names) + 2);

	memset(&m, 0, sizeof(m));
	if (k < AMP_ARRAY_SIZE(fz_names))
		strncpy(m.name, fz_names[k], sizeof(m.name) - 1);
	else if (k == AMP_ARRAY_SIZE(fz_names))
		snprintf(m.name, sizeof(m.name), "fz-%u", op->c & 15);
	else
		fill((uint8_t *)m.name, sizeof(m.name), op->c);
	switch (op->a & 3) {
	case 0:
		m.addr = AMPSOC_RPMSG_RESERVED_ADDRESSES + 0x100 + (op->c & 15);
		break;
	case 1:
		m.addr = op->c;
		break;
	case 2:
		m.addr = (op->c & 1) ? AMPSOC_RPMSG_NS_ADDR : 0;
		break;
	default:
		m.addr = agent;
		break;
	}
	m.flags = (op->a >> 2) & 3;
	if (op->a & 0x40)
		m.flags = op->d;
	if (op->a & 0x80)
		len = op->d % 80;
	amp_rpmsg_sendto(&ctl, AMPSOC_RPMSG_NS_ADDR, &m, len, FZ_TIMEOUT_NS);
}

static void op_resmgr(const struct fz_op *op)
{
	struct ampsoc_resmgr_req req;
	struct ampsoc_resmgr_reply reply;
	uint32_t len = sizeof(req);
	unsigned int k = op->b % AMP_ARRAY_SIZE(fz_res);
	int ret;

	if (!amp_resmgr_ready(&rm)) {
		amp_rpmsg_run_once(&rdev, FZ_REPLY_NS);
		if (!amp_resmgr_ready(&rm))
			return;
	}
	memset(&req, 0, sizeof(req));
	req.id = op->c;
	req.op = op->a & 0x10 ? op->a >> 5 : 1u + (op->a & 3u);
	req.type = op->a & 4 ? op->d >> 16 : 1u + ((op->a >> 3) & 1u);
	req.flags = op->a & 0x80 ? op->d : 0;
	strncpy(req.name, fz_res[k], sizeof(req.name));
	if (op->a & 0x40)
		len = op->d % 64;
	ret = amp_resmgr_send_raw(&rm, &req, len, req.id, FZ_REPLY_NS, &reply);
	if (ret && ret != -ETIMEDOUT)
		amp_log("fz: resmgr: %d", ret);
}

static void op_ring(const struct fz_op *op)
{
	struct amp_vq *vq = &rdev.txq;
	struct amp_vring_used_elem *e;
	struct amp_vq_buf b;

	switch (op->a % 3) {
	case 0:		/* the index ahead */
		AMP_WRITE_ONCE(vq->used->idx, (uint16_t)(vq->used_idx + 1 + (op->c % 65535)));
		break;
	case 1:		/* an id out of range, or any id */
	case 2:		/* a used length beyond the buffer */
		if (amp_vq_get(vq, &b))
			return;
		e = &vq->used->ring[vq->used_idx & (vq->num - 1)];
		AMP_WRITE_ONCE(e->id, op->a % 3 == 1 ? vq->num + op->c % 1024 : b.head);
		AMP_WRITE_ONCE(e->len, op->a % 3 == 2 ? b.len + 1 + op->c : 16);
		env_wmb();
		AMP_WRITE_ONCE(vq->used->idx, ++vq->used_idx);
		break;
	}
	platform_notify_vq(vq->notifyid);
}

static void __attribute__((noreturn)) op_crash(const struct fz_op *op)
{
	uint32_t *nowhere = (uint32_t *)(uintptr_t)AMP_CORE_FAULT_DA;

	amp_log("fz: crash %u", op->a & 1);
	if (op->a & 1)
		platform_abort();
	__asm__ volatile("" : "+r"(nowhere));
	__atomic_store_n(nowhere, 0xdead, __ATOMIC_RELAXED);
	platform_abort();
}

static void op_sleep(const struct fz_op *op)
{
	uint64_t end = env_time_ns() + (op->c % 20) * 1000000ull;

	while (env_time_ns() < end)
		platform_wait_irq(end - env_time_ns());
}

static void op_flood(const struct fz_op *op)
{
	uint8_t data[64];
	uint32_t dst = fz_dst(op->b, op->c), n = op->a, i;

	fill(data, sizeof(data), op->c);
	for (i = 0; i < n; i++)
		if (amp_rpmsg_trysendto(&ctl, dst, data, op->d % sizeof(data)))
			break;
}

static void op_ept(const struct fz_op *op)
{
	struct amp_rpmsg_ept *e = &extra[op->b % FZ_NR_EXTRA];
	unsigned int k = op->c % AMP_ARRAY_SIZE(fz_names);
	char name[AMPSOC_RPMSG_NAME_SIZE];

	if (e->rdev) {
		amp_rpmsg_ept_destroy(e);
		memset(e, 0, sizeof(*e));
		return;
	}
	if (k + 1 == AMP_ARRAY_SIZE(fz_names))
		snprintf(name, sizeof(name), "fz-%u", op->d & 15);
	else
		strncpy(name, fz_names[k], sizeof(name));
	if (amp_rpmsg_ept_create(&rdev, e, name, op->a & 1 ? AMPSOC_RPMSG_ADDR_ANY :
				 AMPSOC_RPMSG_RESERVED_ADDRESSES + 0x200 + (op->d & 15),
				 AMPSOC_RPMSG_ADDR_ANY, sink_cb, NULL))
		memset(e, 0, sizeof(*e));
}

static void run_prog(void)
{
	struct fz_op o, *op = &o;
	uint32_t i;

	for (i = 0; i + FZ_OP_SIZE <= prog_len; i += FZ_OP_SIZE) {
		memcpy(&o, prog + i, sizeof(o));
		switch (op->kind % FZ_NR_KINDS) {
		case FZ_MSG:
			op_msg(op);
			break;
		case FZ_NS:
			op_ns(op);
			break;
		case FZ_RESMGR:
			op_resmgr(op);
			break;
		case FZ_RING:
			op_ring(op);
			break;
		case FZ_CRASH:
			op_crash(op);
		case FZ_SLEEP:
			op_sleep(op);
			break;
		case FZ_FLOOD:
			op_flood(op);
			break;
		default:
			op_ept(op);
			break;
		}
		/* Let Linux's replies and kicks in between. */
		amp_rpmsg_poll(&rdev);
	}
}

int main(void)
{
	int ret;

	printf("ampsoc-fuzz-remote: on core %s\n", platform_core_name());
	ret = amp_rpmsg_wait_ready(&rdev, &amp_resource_table.vdev0, AMP_FOREVER);
	if (ret) {
		amp_log("ampsoc-fuzz-remote: vdev unusable: %d", ret);
		return 1;
	}
	amp_rpmsg_use_carveout(&rdev, &amp_resource_table.bufs);
	ret = amp_resmgr_init(&rm, &rdev);
	if (!ret)
		ret = amp_rpmsg_ept_create(&rdev, &echo, "ampsoc-echo", AMPSOC_RPMSG_ADDR_ANY,
					   AMPSOC_RPMSG_ADDR_ANY, echo_cb, NULL);
	if (!ret)
		ret = amp_rpmsg_ept_create(&rdev, &ctl, "ampsoc-fuzz", FZ_CTL_ADDR,
					   AMPSOC_RPMSG_ADDR_ANY, ctl_cb, NULL);
	printf("ampsoc-fuzz-remote: control at %u: %d\n", FZ_CTL_ADDR, ret);
	for (;;) {
		ret = amp_rpmsg_run_once(&rdev, AMP_FOREVER);
		if (prog_ready) {
			run_prog();
			prog_ready = false;
			/* The transport may be dead by now: then nobody hears it. */
			amp_rpmsg_sendto(&ctl, agent, "done", 4, FZ_TIMEOUT_NS);
		}
		if (ret == -EIO) {
			amp_log("ampsoc-fuzz-remote: a ring is broken; idling");
			for (;;)
				platform_wait_irq(AMP_FOREVER);
		}
	}
}
