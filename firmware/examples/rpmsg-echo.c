// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc-rpmsg-echo: an rpmsg echo server with several channels. Once
 * Linux's virtio driver is ready it announces each service below through
 * the name service, then sends every message back to its sender. The
 * services are those Linux's own drivers bind to: "rpmsg-client-sample"
 * (samples/rpmsg), "rpmsg-raw" (rpmsg_char, /dev/rpmsgN) and ampsoc's own
 * "ampsoc-echo".
 *
 * Vrings and buffers are allocated by Linux (FW_RSC_ADDR_ANY) and must lie
 * in the core's memory; the library checks every address.
 */
#include <errno.h>

#include <amp/amp.h>
#include <amp/rpmsg.h>

#define ECHO_NUM_BUFS	256
#define ECHO_VRING_ALIGN 16

AMP_RSC_VDEV_TYPE(echo_vdev, 2, 0);

struct echo_rsc {
	struct amp_rsc_table_hdr hdr;
	uint32_t offset[2];
	struct amp_rsc_trace trace0;
	struct echo_vdev vdev0;
} AMP_RSC_PACKED;

AMP_RESOURCE_TABLE struct echo_rsc amp_resource_table = {
	.hdr = AMP_RSC_TABLE_HDR(struct echo_rsc),
	.offset = {
		offsetof(struct echo_rsc, trace0),
		offsetof(struct echo_rsc, vdev0),
	},
	.trace0 = AMP_RSC_TRACE_INIT("trace0"),
	.vdev0 = AMP_RSC_VDEV_INIT(AMP_VIRTIO_ID_RPMSG, 0,
				   1u << AMP_VIRTIO_RPMSG_F_NS, 0, 2,
		AMP_RSC_VRING_INIT(AMP_RSC_ADDR_ANY, ECHO_VRING_ALIGN,
				   ECHO_NUM_BUFS, 0),
		AMP_RSC_VRING_INIT(AMP_RSC_ADDR_ANY, ECHO_VRING_ALIGN,
				   ECHO_NUM_BUFS, 1)),
};

static const char *const services[] = {
	"rpmsg-client-sample", "rpmsg-raw", "ampsoc-echo",
};

static struct amp_rpmsg_dev rdev;
static struct amp_rpmsg_ept epts[AMP_ARRAY_SIZE(services)];
static uint32_t echoed, failed;

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
	printf("ampsoc-rpmsg-echo: link up, mtu %u, name service %s\n",
	       amp_rpmsg_mtu(&rdev), rdev.ns ? "on" : "off");
	for (i = 0; i < AMP_ARRAY_SIZE(services); i++) {
		ret = amp_rpmsg_ept_create(&rdev, &epts[i], services[i],
					   AMP_RPMSG_ADDR_ANY, AMP_RPMSG_ADDR_ANY,
					   echo_cb, NULL);
		printf("ampsoc-rpmsg-echo: service %s at %u: %d\n", services[i],
		       epts[i].addr, ret);
	}
	for (;;) {
		ret = amp_rpmsg_run_once(&rdev, AMP_FOREVER);
		if (ret == -EIO) {
			amp_log("ampsoc-rpmsg-echo: Linux broke a ring (%u bad entries); stopping",
				rdev.stats.vq_errors);
			return 2;
		}
	}
}
