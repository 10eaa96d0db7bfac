// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc-rpmsg-echo: an rpmsg server with several channels. Once Linux's
 * virtio driver is ready it announces each service below through the name
 * service:
 *  - "rpmsg-client-sample" (samples/rpmsg), "rpmsg-raw" (rpmsg_char,
 *    /dev/rpmsgN) and "ampsoc-echo" send every message back to its sender;
 *  - "ampsoc-sink" counts what it receives and answers an empty message
 *    with "sink N messages B bytes", then starts counting again (one-way
 *    throughput towards the core);
 *  - "ampsoc-source" answers an 8-byte request {u32 count, u32 size} with
 *    count messages of size bytes (clamped to the MTU), each starting with
 *    its u32 sequence number, sent zero-copy as fast as Linux returns
 *    buffers (one-way throughput towards Linux);
 *  - "ampsoc-later" answers {u32 delay_ms, payload of up to 512 bytes}
 *    with the payload after delay_ms (at most 60 s), one request at a time
 *    (another one meanwhile is dropped and counted): a message that
 *    reaches Linux while it sleeps, with nothing after it.
 *
 * Vrings and buffers are allocated by Linux (AMPSOC_FW_RSC_ADDR_ANY) and must lie
 * in the core's memory; the library checks every address.
 *
 * ampsoc-rpmsg-echo.elf offers only the name service, as mainline-style
 * firmware does: 512-byte buffers. ampsoc-rpmsg-echo-big.elf (built with
 * ECHO_BUF_SIZE) also offers ampsoc's F_BUFSZ, proposing ECHO_BUF_SIZE in
 * both directions, and F_FC: while Linux pauses one of its endpoints, that
 * service's replies are dropped (counted) and the source stops producing.
 * ampsoc-rpmsg-echo-nons.elf (ECHO_NO_NS) offers no feature at all, like a
 * remote that cannot announce: its services sit at the fixed addresses
 * 1024 + their index below, which a board declares as static channels.
 */
#include <errno.h>

#include <amp/amp.h>
#include <amp/rpmsg.h>

#include "vdev-buffer.h"

#define ECHO_NUM_BUFS	256
#define ECHO_VRING_ALIGN 16
/* 2 x 256 buffers of up to 2 KiB */
#define ECHO_BUF_DA	(AMP_CORE_SHM_BASE + 0x100000)
#define ECHO_BUF_LEN	0x100000

#ifdef ECHO_BUF_SIZE
AMP_RSC_VDEV_CFG_TYPE(echo_vdev, 2, struct ampsoc_rpmsg_vdev_config);
#define ECHO_CONFIG	{ ECHO_BUF_SIZE, ECHO_BUF_SIZE }
#define ECHO_VDEV_INIT(...)						\
	AMP_RSC_VDEV_CFG_INIT(AMPSOC_VIRTIO_ID_RPMSG, 0,			\
			      1u << AMPSOC_VIRTIO_RPMSG_F_NS |		\
			      1u << AMPSOC_VIRTIO_RPMSG_F_BUFSZ |		\
			      1u << AMPSOC_VIRTIO_RPMSG_F_FC,		\
			      sizeof(struct ampsoc_rpmsg_vdev_config),	\
			      ECHO_CONFIG, 2, __VA_ARGS__)
#else
AMP_RSC_VDEV_TYPE(echo_vdev, 2, 0);
#ifdef ECHO_NO_NS
#define ECHO_NS_FEATURE	0u
#else
#define ECHO_NS_FEATURE	1u
#endif
#define ECHO_VDEV_INIT(...)						\
	AMP_RSC_VDEV_INIT(AMPSOC_VIRTIO_ID_RPMSG, 0,			\
			  ECHO_NS_FEATURE << AMPSOC_VIRTIO_RPMSG_F_NS, 0, 2,	\
			  __VA_ARGS__)
#endif

struct echo_rsc {
	struct amp_rsc_table_hdr hdr;
	uint32_t offset[2 + SAMPLE_HAS_VDEV_BUFFER];
	struct amp_rsc_trace trace0;
#if SAMPLE_HAS_VDEV_BUFFER
	struct amp_rsc_carveout bufs;
#endif
	struct echo_vdev vdev0;
} AMP_RSC_PACKED;

AMP_RESOURCE_TABLE struct echo_rsc amp_resource_table = {
	.hdr = AMP_RSC_TABLE_HDR(struct echo_rsc),
	.offset = {
		offsetof(struct echo_rsc, trace0),
#if SAMPLE_HAS_VDEV_BUFFER
		offsetof(struct echo_rsc, bufs),
#endif
		offsetof(struct echo_rsc, vdev0),
	},
	.trace0 = AMP_RSC_TRACE_INIT("trace0"),
	/* Where Linux puts the rpmsg buffers; it writes back their pa. */
#if SAMPLE_HAS_VDEV_BUFFER
	.bufs = AMP_RSC_CARVEOUT_INIT(ECHO_BUF_DA, AMP_RSC_ADDR_ANY, ECHO_BUF_LEN, 0,
				      "vdev0buffer"),
#endif
	.vdev0 = ECHO_VDEV_INIT(AMP_RSC_VRING_INIT(AMP_RSC_ADDR_ANY, ECHO_VRING_ALIGN,
						      ECHO_NUM_BUFS, 0),
				AMP_RSC_VRING_INIT(AMP_RSC_ADDR_ANY, ECHO_VRING_ALIGN,
						   ECHO_NUM_BUFS, 1)),
};

static struct amp_rpmsg_dev rdev;
static uint32_t echoed, failed;

static struct {
	uint32_t messages;
	uint64_t bytes;
} sink;

static struct {
	struct amp_rpmsg_ept *ept;
	uint32_t dst, left, size, seq, pauses;
	bool paused;
} source;

#define LATER_MAX_MS	60000u

static struct {
	struct amp_rpmsg_ept *ept;
	uint32_t dst, len, dropped;
	uint64_t due_ns;
	bool pending;
	uint8_t data[AMPSOC_RPMSG_BUF_SIZE];
} later;

static int echo_cb(struct amp_rpmsg_ept *ept, void *data, uint32_t len,
		   uint32_t src, void *priv)
{
	/* Never block the receive path: drop the echo if Linux has no buffer. */
	if (amp_rpmsg_trysendto(ept, src, data, len))
		failed++;
	else
		echoed++;
	return 0;
}

static int sink_cb(struct amp_rpmsg_ept *ept, void *data, uint32_t len,
		   uint32_t src, void *priv)
{
	char report[64];
	int n;

	if (len) {
		sink.messages++;
		sink.bytes += len;
		return 0;
	}
	n = snprintf(report, sizeof(report), "sink %u messages %llu bytes",
		     sink.messages, (unsigned long long)sink.bytes);
	amp_rpmsg_sendto(ept, src, report, n, AMP_FOREVER);
	sink.messages = 0;
	sink.bytes = 0;
	return 0;
}

/* Only records the request: main() sends, between polls. */
static int source_cb(struct amp_rpmsg_ept *ept, void *data, uint32_t len,
		     uint32_t src, void *priv)
{
	uint32_t req[2];

	if (len != sizeof(req) || source.left)
		return -EINVAL;
	memcpy(req, data, sizeof(req));
	source.ept = ept;
	source.dst = src;
	source.left = req[0];
	source.size = req[1] < sizeof(uint32_t) ? sizeof(uint32_t) : req[1];
	if (source.size > amp_rpmsg_mtu(&rdev))
		source.size = amp_rpmsg_mtu(&rdev);
	source.seq = 0;
	source.pauses = 0;
	source.paused = false;
	return 0;
}

/* Only records the request: main() answers it when it is due. */
static int later_cb(struct amp_rpmsg_ept *ept, void *data, uint32_t len,
		    uint32_t src, void *priv)
{
	uint32_t ms;

	if (len < sizeof(ms) || len - sizeof(ms) > sizeof(later.data) ||
	    later.pending) {
		later.dropped++;
		return -EINVAL;
	}
	memcpy(&ms, data, sizeof(ms));
	if (ms > LATER_MAX_MS)
		ms = LATER_MAX_MS;
	later.ept = ept;
	later.dst = src;
	later.len = len - sizeof(ms);
	memcpy(later.data, (uint8_t *)data + sizeof(ms), later.len);
	later.due_ns = env_time_ns() + ms * 1000000ull;
	later.pending = true;
	return 0;
}

/* Answer the delayed request once it is due; else how long until then. */
static uint64_t later_step(void)
{
	uint64_t now = env_time_ns();

	if (!later.pending)
		return AMP_FOREVER;
	if (now < later.due_ns)
		return later.due_ns - now;
	later.pending = false;
	if (amp_rpmsg_sendto(later.ept, later.dst, later.data, later.len,
			     1000000000ull))
		later.dropped++;
	return AMP_FOREVER;
}

/* One message of the current source request. */
static void source_step(void)
{
	uint32_t size, i;
	uint8_t *buf;

	buf = amp_rpmsg_get_tx_buffer(&rdev, &size, 1000000000ull);
	if (!buf) {
		amp_log("ampsoc-rpmsg-echo: source gave up after %u: Linux returns no buffers",
			source.seq);
		source.left = 0;
		return;
	}
	memcpy(buf, &source.seq, sizeof(source.seq));
	for (i = sizeof(source.seq); i < source.size; i++)
		buf[i] = (uint8_t)(source.seq + i);
	if (amp_rpmsg_send_nocopy(source.ept, source.dst, buf, source.size))
		amp_rpmsg_release_tx(&rdev, buf);
	source.seq++;
	if (!--source.left)
		amp_log("ampsoc-rpmsg-echo: source done: %u sent, paused %u times",
			source.seq, source.pauses);
}

/* Count Linux's pauses of the source; say when the first one came. */
static void source_track_pause(void)
{
	if (!source.left || source.ept->paused == source.paused)
		return;
	source.paused = source.ept->paused;
	if (source.paused && !source.pauses++)
		amp_log("ampsoc-rpmsg-echo: source paused by Linux after %u", source.seq);
}

static const struct {
	const char *name;
	amp_rpmsg_cb cb;
} services[] = {
	{ "rpmsg-client-sample", echo_cb },
	{ "rpmsg-raw", echo_cb },
	{ "ampsoc-echo", echo_cb },
	{ "ampsoc-sink", sink_cb },
	{ "ampsoc-source", source_cb },
	{ "ampsoc-later", later_cb },
};

static struct amp_rpmsg_ept epts[AMP_ARRAY_SIZE(services)];

int main(void)
{
	unsigned int i;
	int ret;

	printf("ampsoc-rpmsg-echo: core %s waiting for Linux\n", platform_core_name());
	ret = amp_rpmsg_wait_ready(&rdev, &amp_resource_table.vdev0, AMP_FOREVER);
	if (ret) {
		amp_log("ampsoc-rpmsg-echo: vdev unusable: %d", ret);
		return 1;
	}
	ret = sample_use_vdev_buffer(&rdev);
	printf("ampsoc-rpmsg-echo: link up, mtu %u, name service %s, flow control %s, %s\n",
	       amp_rpmsg_mtu(&rdev), rdev.ns ? "on" : "off", rdev.fc ? "on" : "off",
	       sample_buffers_by(&rdev, ret));
	for (i = 0; i < AMP_ARRAY_SIZE(services); i++) {
		ret = amp_rpmsg_ept_create(&rdev, &epts[i], services[i].name,
					   AMPSOC_RPMSG_ADDR_ANY, AMPSOC_RPMSG_ADDR_ANY,
					   services[i].cb, NULL);
		printf("ampsoc-rpmsg-echo: service %s at %u: %d\n", services[i].name,
		       epts[i].addr, ret);
	}
	for (;;) {
		uint64_t wait = later_step();

		source_track_pause();

		if (source.left && !source.ept->paused) {
			source_step();
			ret = amp_rpmsg_poll(&rdev);
		} else if (source.left) {
			/* Paused by Linux: only listen, for the resume. */
			ret = amp_rpmsg_run_once(&rdev, 10000000);
		} else {
			ret = amp_rpmsg_run_once(&rdev, wait);
		}
		if (ret == -EIO) {
			amp_log("ampsoc-rpmsg-echo: Linux broke a ring (%u bad entries); stopping",
				rdev.stats.vq_errors);
			return 2;
		}
	}
}
