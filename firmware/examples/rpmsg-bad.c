// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc-rpmsg-bad-MODE: a remote that attacks Linux's rpmsg on purpose,
 * for the bad-input tests. Built once per mode (BAD_MODE); each announces
 * and serves "ampsoc-echo" like ampsoc-rpmsg-echo, misbehaves once the
 * link is up, then keeps echoing so that a test can check Linux survived
 * and still works. Every misdeed is written to the trace buffer.
 *
 *   badlen   headers claiming more payload than the buffer holds, a used
 *            length beyond the buffer size, and one shorter than a header
 *   badid    a used-ring element whose id is out of range
 *   badidx   a used index more than the ring size ahead
 *   nsbad    name-service messages without a NUL, of the wrong size, with
 *            unknown flags
 *   nsflood  announcements of 1000 services that do not exist
 *   unknown  messages to addresses where Linux has no endpoint
 *   flood    announces "ampsoc-flood" and, after Linux's first message on
 *            it, sends to Linux as fast as buffers come back, forever
 */
#include <errno.h>

#include <amp/amp.h>
#include <amp/rpmsg.h>

#ifndef BAD_MODE
#error "build with -DBAD_MODE='\"mode\"'"
#endif

#define BAD_NUM_BUFS	256
#define BAD_TIMEOUT_NS	1000000000ull
#define BAD_BUF_DA	(AMP_CORE_SHM_BASE + 0x100000)
#define BAD_BUF_LEN	0x100000

AMP_RSC_VDEV_TYPE(bad_vdev, 2, 0);

struct bad_rsc {
	struct amp_rsc_table_hdr hdr;
	uint32_t offset[3];
	struct amp_rsc_trace trace0;
	struct amp_rsc_carveout bufs;
	struct bad_vdev vdev0;
} AMP_RSC_PACKED;

AMP_RESOURCE_TABLE struct bad_rsc amp_resource_table = {
	.hdr = AMP_RSC_TABLE_HDR(struct bad_rsc),
	.offset = {
		offsetof(struct bad_rsc, trace0),
		offsetof(struct bad_rsc, bufs),
		offsetof(struct bad_rsc, vdev0),
	},
	.trace0 = AMP_RSC_TRACE_INIT("trace0"),
	/* Where Linux puts the rpmsg buffers; it writes back their pa. */
	.bufs = AMP_RSC_CARVEOUT_INIT(BAD_BUF_DA, AMP_RSC_ADDR_ANY, BAD_BUF_LEN, 0,
				      "vdev0buffer"),
	.vdev0 = AMP_RSC_VDEV_INIT(AMP_VIRTIO_ID_RPMSG, 0,
				   1u << AMP_VIRTIO_RPMSG_F_NS, 0, 2,
		AMP_RSC_VRING_INIT(AMP_RSC_ADDR_ANY, 16, BAD_NUM_BUFS, 0),
		AMP_RSC_VRING_INIT(AMP_RSC_ADDR_ANY, 16, BAD_NUM_BUFS, 1)),
};

static struct amp_rpmsg_dev rdev;
static struct amp_rpmsg_ept echo, flood;

static int echo_cb(struct amp_rpmsg_ept *ept, void *data, uint32_t len,
		   uint32_t src, void *priv)
{
	amp_rpmsg_trysendto(ept, src, data, len);
	return 0;
}

/* Flood: only learns Linux's address (the library does) and counts. */
static int flood_cb(struct amp_rpmsg_ept *ept, void *data, uint32_t len,
		    uint32_t src, void *priv)
{
	return 0;
}

static void raw(uint32_t hdr_len, uint32_t used_len, const char *what)
{
	struct amp_rpmsg_hdr hdr = {
		.src = echo.addr, .dst = AMP_RPMSG_RESERVED_ADDRESSES, .len = hdr_len,
	};
	int ret;

	ret = amp_rpmsg_send_raw(&rdev, &hdr, "ampsoc!", 8, used_len, BAD_TIMEOUT_NS);
	amp_log("bad: %s (header len %u, used len %u): %d", what, hdr_len, used_len, ret);
}

static void ns_raw(const void *msg, uint32_t len, const char *what)
{
	int ret = amp_rpmsg_sendto(&echo, AMP_RPMSG_NS_ADDR, msg, len, BAD_TIMEOUT_NS);

	amp_log("bad: %s: %d", what, ret);
}

static void misbehave(const char *mode)
{
	struct amp_rpmsg_ns_msg ns;
	unsigned int i, n;
	int ret = 0;

	if (!strcmp(mode, "badlen")) {
		raw(400, 16 + 8, "header longer than the buffer used");
		raw(8, 4096, "used length beyond the buffer size");
		raw(8, 4, "used length shorter than a header");
	} else if (!strcmp(mode, "badid")) {
		amp_vq_put(&rdev.txq, rdev.txq.num + 5, 16);
		platform_notify_vq(rdev.txq.notifyid);
		amp_log("bad: used id %u of a %u-entry ring", rdev.txq.num + 5, rdev.txq.num);
	} else if (!strcmp(mode, "badidx")) {
		uint16_t ahead = rdev.txq.used_idx + rdev.txq.num + 3;

		AMP_WRITE_ONCE(rdev.txq.used->idx, ahead);
		platform_notify_vq(rdev.txq.notifyid);
		amp_log("bad: used index %u ahead", rdev.txq.num + 3);
	} else if (!strcmp(mode, "nsbad")) {
		memset(&ns, 0, sizeof(ns));
		memset(ns.name, 'A', sizeof(ns.name));
		ns.addr = echo.addr;
		ns_raw(&ns, sizeof(ns), "name without a NUL");
		strncpy(ns.name, "ampsoc-short", sizeof(ns.name));
		ns_raw(&ns, sizeof(ns) - 1, "announcement one byte short");
		ns.flags = 7;
		ns_raw(&ns, sizeof(ns), "unknown flags");
	} else if (!strcmp(mode, "nsflood")) {
		memset(&ns, 0, sizeof(ns));
		for (n = 0; n < 1000 && !ret; n++) {
			snprintf(ns.name, sizeof(ns.name), "ampsoc-flood-%u", n);
			ns.addr = 5000 + n;
			ret = amp_rpmsg_sendto(&echo, AMP_RPMSG_NS_ADDR, &ns, sizeof(ns),
					       BAD_TIMEOUT_NS);
		}
		amp_log("bad: %u announcements of services that do not exist: %d", n, ret);
	} else if (!strcmp(mode, "unknown")) {
		for (i = 0; i < 100 && !ret; i++)
			ret = amp_rpmsg_sendto(&echo, 0x7777 + (i & 1) * 0x10000,
					       "nobody", 6, BAD_TIMEOUT_NS);
		amp_log("bad: %u messages to unknown addresses: %d", i, ret);
	} else if (!strcmp(mode, "flood")) {
		ret = amp_rpmsg_ept_create(&rdev, &flood, "ampsoc-flood", AMP_RPMSG_ADDR_ANY,
					   AMP_RPMSG_ADDR_ANY, flood_cb, NULL);
		amp_log("bad: flood service at %u: %d", flood.addr, ret);
	} else {
		amp_log("bad: unknown mode %s", mode);
	}
}

/* Flood mode: once Linux has spoken on ampsoc-flood, never stop sending. */
static void flood_forever(void)
{
	uint64_t seq = 0, refused = 0;
	char msg[64];
	int ret;

	while (flood.dst == AMP_RPMSG_ADDR_ANY)
		amp_rpmsg_run_once(&rdev, AMP_FOREVER);
	amp_log("bad: flooding address %u", flood.dst);
	for (;;) {
		snprintf(msg, sizeof(msg), "flood %llu", (unsigned long long)seq);
		ret = amp_rpmsg_trysend(&flood, msg, sizeof(msg));
		if (!ret) {
			seq++;
			continue;
		}
		if (ret != -ENOMEM) {
			amp_log("bad: flood stopped after %llu: %d",
				(unsigned long long)seq, ret);
			return;
		}
		if (!refused++)
			amp_log("bad: Linux ran out of buffers after %llu",
				(unsigned long long)seq);
		amp_rpmsg_run_once(&rdev, 10000000);
	}
}

int main(void)
{
	int ret;

	printf("ampsoc-rpmsg-bad: mode %s on core %s\n", BAD_MODE, platform_core_name());
	ret = amp_rpmsg_wait_ready(&rdev, &amp_resource_table.vdev0, AMP_FOREVER);
	if (ret) {
		amp_log("ampsoc-rpmsg-bad: vdev unusable: %d", ret);
		return 1;
	}
	amp_rpmsg_use_carveout(&rdev, &amp_resource_table.bufs);
	ret = amp_rpmsg_ept_create(&rdev, &echo, "ampsoc-echo", AMP_RPMSG_ADDR_ANY,
				   AMP_RPMSG_ADDR_ANY, echo_cb, NULL);
	printf("ampsoc-rpmsg-bad: ampsoc-echo at %u: %d\n", echo.addr, ret);
	misbehave(BAD_MODE);
	if (!strcmp(BAD_MODE, "flood"))
		flood_forever();
	for (;;) {
		ret = amp_rpmsg_run_once(&rdev, AMP_FOREVER);
		if (ret == -EIO) {
			amp_log("ampsoc-rpmsg-bad: a ring is broken; idling");
			for (;;)
				platform_wait_irq(AMP_FOREVER);
		}
	}
}
