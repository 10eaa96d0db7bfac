// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc-vring-poke: a remote that writes where only Linux may write, on
 * request, to test the vring firewall (docs/vsoc-rproc.md).
 *
 * It announces "ampsoc-echo" (every message sent back: rpmsg works as
 * usual as long as nobody pokes) and "ampsoc-vring-poke", a control
 * endpoint taking one text command per message:
 *
 *   where                   -> "tx DESC AVAIL USED rx DESC AVAIL USED",
 *                              the device addresses of both vrings' parts
 *                              (tx: the ring the core sends on, vring 0)
 *   desc|avail|used tx|rx   rewrite one byte of that part of that vring
 *                           with the value it holds (so, when the write
 *                           goes through, nothing changes), then answer
 *                           "poked PART RING ADDRESS"
 *
 * The descriptor table and the available ring belong to Linux: with the
 * board's firewall on, the write ends the core (a firewall fault at that
 * address) and there is no answer. The used ring is the core's own. The
 * trace buffer says what is about to be written, and where, first.
 *
 * The vrings are 4 KiB aligned, as mainline remote firmware usually lays
 * them out, so that the descriptor table and the available ring fill whole
 * pages of their own and the firewall can protect all of them.
 */
#include <errno.h>

#include <amp/amp.h>
#include <amp/rpmsg.h>

#define POKE_NUM_BUFS	256
#define POKE_VRING_ALIGN 4096
#define POKE_BUF_DA	(AMP_CORE_SHM_BASE + 0x100000)
#define POKE_BUF_LEN	0x100000
#define POKE_TIMEOUT	5000000000ull

AMP_RSC_VDEV_TYPE(poke_vdev, 2, 0);

struct poke_rsc {
	struct amp_rsc_table_hdr hdr;
	uint32_t offset[3];
	struct amp_rsc_trace trace0;
	struct amp_rsc_carveout bufs;
	struct poke_vdev vdev0;
} AMP_RSC_PACKED;

AMP_RESOURCE_TABLE struct poke_rsc amp_resource_table = {
	.hdr = AMP_RSC_TABLE_HDR(struct poke_rsc),
	.offset = {
		offsetof(struct poke_rsc, trace0),
		offsetof(struct poke_rsc, bufs),
		offsetof(struct poke_rsc, vdev0),
	},
	.trace0 = AMP_RSC_TRACE_INIT("trace0"),
	.bufs = AMP_RSC_CARVEOUT_INIT(POKE_BUF_DA, AMP_RSC_ADDR_ANY, POKE_BUF_LEN, 0,
				      "vdev0buffer"),
	.vdev0 = AMP_RSC_VDEV_INIT(AMPSOC_VIRTIO_ID_RPMSG, 0,
				   1u << AMPSOC_VIRTIO_RPMSG_F_NS, 0, 2,
				   AMP_RSC_VRING_INIT(AMP_RSC_ADDR_ANY, POKE_VRING_ALIGN,
						      POKE_NUM_BUFS, 0),
				   AMP_RSC_VRING_INIT(AMP_RSC_ADDR_ANY, POKE_VRING_ALIGN,
						      POKE_NUM_BUFS, 1)),
};

static struct amp_rpmsg_dev rdev;
static struct amp_rpmsg_ept echo_ept, ctl_ept;

/* A control command, recorded by its callback and run by main(). */
static struct {
	bool pending;
	uint32_t src;
	char text[32];
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

/* The first byte of @part ("desc", "avail", "used") of @vq, or NULL. */
static uint8_t *part_of(struct amp_vq *vq, const char *part)
{
	if (!strcmp(part, "desc"))
		return (uint8_t *)vq->desc;
	if (!strcmp(part, "avail"))
		return (uint8_t *)vq->avail;
	if (!strcmp(part, "used"))
		return (uint8_t *)vq->used;
	return NULL;
}

static void run_command(void)
{
	char out[160], *ring = strchr(cmd.text, ' ');
	uint8_t *p = NULL;
	struct amp_vq *vq = NULL;

	if (!strcmp(cmd.text, "where")) {
		snprintf(out, sizeof(out),
			 "tx %#lx %#lx %#lx rx %#lx %#lx %#lx",
			 (unsigned long)rdev.txq.desc, (unsigned long)rdev.txq.avail,
			 (unsigned long)rdev.txq.used, (unsigned long)rdev.rxq.desc,
			 (unsigned long)rdev.rxq.avail, (unsigned long)rdev.rxq.used);
	} else if (ring) {
		*ring++ = '\0';
		if (!strcmp(ring, "tx"))
			vq = &rdev.txq;
		else if (!strcmp(ring, "rx"))
			vq = &rdev.rxq;
		p = vq ? part_of(vq, cmd.text) : NULL;
	}
	if (p) {
		amp_log("vring-poke: writing the %s of the %s vring at %#lx",
			cmd.text, ring, (unsigned long)p);
		amp_log_flush();
		AMP_WRITE_ONCE(*p, AMP_READ_ONCE(*p));
		amp_log("vring-poke: the write went through");
		snprintf(out, sizeof(out), "poked %s %s %#lx", cmd.text, ring,
			 (unsigned long)p);
	} else if (strcmp(cmd.text, "where")) {
		snprintf(out, sizeof(out), "-22");
	}
	amp_rpmsg_sendto(&ctl_ept, cmd.src, out, strlen(out), POKE_TIMEOUT);
	cmd.pending = false;
}

int main(void)
{
	int ret;

	printf("ampsoc-vring-poke: core %s waiting for Linux\n",
	       platform_core_name());
	ret = amp_rpmsg_wait_ready(&rdev, &amp_resource_table.vdev0, AMP_FOREVER);
	if (ret) {
		amp_log("vring-poke: vdev unusable: %d", ret);
		return 1;
	}
	amp_rpmsg_use_carveout(&rdev, &amp_resource_table.bufs);
	ret = amp_rpmsg_ept_create(&rdev, &echo_ept, "ampsoc-echo",
				   AMPSOC_RPMSG_ADDR_ANY, AMPSOC_RPMSG_ADDR_ANY,
				   echo_cb, NULL);
	if (!ret)
		ret = amp_rpmsg_ept_create(&rdev, &ctl_ept, "ampsoc-vring-poke",
					   AMPSOC_RPMSG_ADDR_ANY,
					   AMPSOC_RPMSG_ADDR_ANY, ctl_cb, NULL);
	printf("ampsoc-vring-poke: link up, services: %d\n", ret);
	if (ret)
		return 1;
	for (;;) {
		if (cmd.pending)
			run_command();
		ret = amp_rpmsg_run_once(&rdev, AMP_FOREVER);
		if (ret == -EIO) {
			amp_log("vring-poke: Linux broke a ring; stopping");
			return 2;
		}
	}
}
