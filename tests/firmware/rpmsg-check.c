// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc-rpmsg-check: a verifying rpmsg peer for Linux's traffic tests.
 *
 * Every data message, in both directions, follows the check protocol
 * (tests/lib/rpmsg_check.h); a conversation is a (local endpoint, remote
 * address) pair. The firmware checks magic, length, CRC and sequence
 * number of each message, counts what is wrong, and answers with its own
 * checked message of a pseudo-random size up to the MTU, numbered in its
 * own sequence for that conversation. Replies wait for a Linux buffer (5 s
 * at most, then they are counted as failed): nothing is dropped.
 *
 * Services (announced through the name service):
 *  - "ampsoc-check": the checker above; any number of Linux endpoints may
 *    talk to it at once, each is a conversation of its own;
 *  - "ampsoc-check-ctl": text commands, each answered with one line:
 *    "stats" (counters since the last "reset": rx tx bad_magic bad_len
 *    bad_crc bad_seq tx_fail peers switches mtu; switches counts data
 *    messages whose conversation differs from the previous one's, which
 *    shows that conversations interleave), "reset", "add I" / "del I"
 *    (announce / destroy the checker channel "ampsoc-check-I", I < 48),
 *    "crash MS" (answer, then stop serving Linux for MS milliseconds and
 *    fault: Linux's writers block on a full ring meanwhile).
 */
#include <errno.h>

#include <amp/amp.h>
#include <amp/rpmsg.h>

#include "rpmsg_check.h"
#include "vdev-buffer.h"

#define CHK_NUM_BUFS	256
#define CHK_VRING_ALIGN	16
#define CHK_BUF_DA	(AMP_CORE_SHM_BASE + 0x100000)
#define CHK_BUF_LEN	0x100000

#define CHK_MAX_PEERS	256
#define CHK_MAX_DYN	48
#define CHK_REPLY_NS	5000000000ull

AMP_RSC_VDEV_TYPE(chk_vdev, 2, 0);

struct chk_rsc {
	struct amp_rsc_table_hdr hdr;
	uint32_t offset[2 + SAMPLE_HAS_VDEV_BUFFER];
	struct amp_rsc_trace trace0;
#if SAMPLE_HAS_VDEV_BUFFER
	struct amp_rsc_carveout bufs;
#endif
	struct chk_vdev vdev0;
} AMP_RSC_PACKED;

AMP_RESOURCE_TABLE struct chk_rsc amp_resource_table = {
	.hdr = AMP_RSC_TABLE_HDR(struct chk_rsc),
	.offset = {
		offsetof(struct chk_rsc, trace0),
#if SAMPLE_HAS_VDEV_BUFFER
		offsetof(struct chk_rsc, bufs),
#endif
		offsetof(struct chk_rsc, vdev0),
	},
	.trace0 = AMP_RSC_TRACE_INIT("trace0"),
#if SAMPLE_HAS_VDEV_BUFFER
	.bufs = AMP_RSC_CARVEOUT_INIT(CHK_BUF_DA, AMP_RSC_ADDR_ANY, CHK_BUF_LEN, 0,
				      "vdev0buffer"),
#endif
	.vdev0 = AMP_RSC_VDEV_INIT(AMPSOC_VIRTIO_ID_RPMSG, 0,
				   1u << AMPSOC_VIRTIO_RPMSG_F_NS, 0, 2,
				   AMP_RSC_VRING_INIT(AMP_RSC_ADDR_ANY, CHK_VRING_ALIGN,
						      CHK_NUM_BUFS, 0),
				   AMP_RSC_VRING_INIT(AMP_RSC_ADDR_ANY, CHK_VRING_ALIGN,
						      CHK_NUM_BUFS, 1)),
};

struct chk_peer {
	uint32_t local, remote;
	uint32_t rx_seq, tx_seq;
	uint32_t rng;
};

static struct amp_rpmsg_dev rdev;
static struct chk_peer peers[CHK_MAX_PEERS];
static unsigned int nr_peers;
static struct chk_peer *last_peer;
static uint64_t crash_at;

static struct {
	uint32_t rx, tx, bad_magic, bad_len, bad_crc, bad_seq, tx_fail, switches;
} st;

static struct chk_peer *find_peer(uint32_t local, uint32_t remote, bool start)
{
	struct chk_peer *p;
	unsigned int i;

	for (i = 0; i < nr_peers; i++)
		if (peers[i].local == local && peers[i].remote == remote)
			return &peers[i];
	if (!start)
		return NULL;
	if (nr_peers == CHK_MAX_PEERS) {
		/* Forget the oldest conversations: Linux restarts them. */
		memmove(peers, peers + CHK_MAX_PEERS / 2,
			sizeof(peers) - sizeof(peers) / 2);
		nr_peers -= CHK_MAX_PEERS / 2;
		last_peer = NULL;
	}
	p = &peers[nr_peers++];
	p->local = local;
	p->remote = remote;
	return p;
}

/* Answer @p with a checked message of pseudo-random size, zero-copy. */
static void chk_reply(struct amp_rpmsg_ept *ept, struct chk_peer *p)
{
	uint32_t mtu, len, i;
	struct chk_hdr h;
	uint8_t *buf;

	buf = amp_rpmsg_get_tx_buffer(&rdev, &mtu, CHK_REPLY_NS);
	if (!buf) {
		st.tx_fail++;
		return;
	}
	len = sizeof(h) + chk_xorshift(&p->rng) % (mtu - sizeof(h) + 1);
	for (i = sizeof(h); i + 4 <= len; i += 4) {
		uint32_t r = chk_xorshift(&p->rng);

		memcpy(buf + i, &r, 4);
	}
	for (; i < len; i++)
		buf[i] = (uint8_t)chk_xorshift(&p->rng);
	h.magic = CHK_MAGIC;
	h.seq = p->tx_seq;
	h.len = (uint16_t)len;
	h.flags = p->tx_seq ? 0 : CHK_F_START;
	h.crc = chk_crc(&h, buf + sizeof(h), len - sizeof(h));
	memcpy(buf, &h, sizeof(h));
	if (amp_rpmsg_send_nocopy(ept, p->remote, buf, len)) {
		amp_rpmsg_release_tx(&rdev, buf);
		st.tx_fail++;
		return;
	}
	p->tx_seq++;
	st.tx++;
}

static int check_cb(struct amp_rpmsg_ept *ept, void *data, uint32_t len,
		    uint32_t src, void *priv)
{
	struct chk_peer *p;
	struct chk_hdr h;

	st.rx++;
	if (len < sizeof(h)) {
		st.bad_len++;
		return 0;
	}
	memcpy(&h, data, sizeof(h));
	if (h.magic != CHK_MAGIC) {
		st.bad_magic++;
		return 0;
	}
	if (h.len != len) {
		st.bad_len++;
		return 0;
	}
	if (h.crc != chk_crc(&h, (uint8_t *)data + sizeof(h), len - sizeof(h))) {
		st.bad_crc++;
		return 0;
	}
	p = find_peer(ept->addr, src, h.flags & CHK_F_START);
	if (!p) {
		st.bad_seq++;
		return 0;
	}
	if (h.flags & CHK_F_START) {
		p->rx_seq = 0;
		p->tx_seq = 0;
		p->rng = 0x9e3779b9u ^ (src * 2654435761u) ^ ept->addr;
	}
	if (h.seq != p->rx_seq) {
		if (st.bad_seq++ < 8)
			amp_log("ampsoc-rpmsg-check: %u from %u: seq %u, expected %u",
				ept->addr, src, h.seq, p->rx_seq);
	}
	p->rx_seq = h.seq + 1;
	if (last_peer && p != last_peer)
		st.switches++;
	last_peer = p;
	chk_reply(ept, p);
	return 0;
}

static struct amp_rpmsg_ept check_ept, ctl_ept;
static struct amp_rpmsg_ept dyn[CHK_MAX_DYN];
static bool dyn_used[CHK_MAX_DYN];

/* The decimal number after the first space of @cmd (0 if none). */
static unsigned long cmd_arg(const char *cmd)
{
	const char *p = strchr(cmd, ' ');
	unsigned long v = 0;

	if (!p)
		return 0;
	for (p++; *p >= '0' && *p <= '9' && v < 100000000ul; p++)
		v = v * 10 + (unsigned long)(*p - '0');
	return v;
}

static int ctl_cmd(const char *cmd, char *out, size_t size)
{
	unsigned long v = cmd_arg(cmd);
	char name[AMPSOC_RPMSG_NAME_SIZE];
	int ret;

	if (!strcmp(cmd, "stats"))
		return snprintf(out, size,
				"rx %u tx %u bad_magic %u bad_len %u bad_crc %u bad_seq %u tx_fail %u peers %u switches %u mtu %u",
				st.rx, st.tx, st.bad_magic, st.bad_len, st.bad_crc,
				st.bad_seq, st.tx_fail, nr_peers, st.switches,
				amp_rpmsg_mtu(&rdev));
	if (!strcmp(cmd, "reset")) {
		memset(&st, 0, sizeof(st));
		nr_peers = 0;
		last_peer = NULL;
		return snprintf(out, size, "ok");
	}
	if (!strncmp(cmd, "add ", 4) && v < CHK_MAX_DYN) {
		if (dyn_used[v])
			return snprintf(out, size, "err busy");
		snprintf(name, sizeof(name), "ampsoc-check-%lu", v);
		ret = amp_rpmsg_ept_create(&rdev, &dyn[v], name, AMPSOC_RPMSG_ADDR_ANY,
					   AMPSOC_RPMSG_ADDR_ANY, check_cb, NULL);
		dyn_used[v] = !ret;
		return snprintf(out, size, ret ? "err %d" : "ok %u", ret ? ret : (int)dyn[v].addr);
	}
	if (!strncmp(cmd, "del ", 4) && v < CHK_MAX_DYN) {
		if (!dyn_used[v])
			return snprintf(out, size, "err unused");
		amp_rpmsg_ept_destroy(&dyn[v]);
		dyn_used[v] = false;
		return snprintf(out, size, "ok");
	}
	if (!strncmp(cmd, "crash ", 6)) {
		crash_at = env_time_ns() + v * 1000000ull;
		return snprintf(out, size, "ok");
	}
	return snprintf(out, size, "err unknown");
}

static int ctl_cb(struct amp_rpmsg_ept *ept, void *data, uint32_t len,
		  uint32_t src, void *priv)
{
	char cmd[64], out[256];
	int n;

	if (len >= sizeof(cmd))
		len = sizeof(cmd) - 1;
	memcpy(cmd, data, len);
	cmd[len] = '\0';
	if (len && cmd[len - 1] == '\n')
		cmd[len - 1] = '\0';
	n = ctl_cmd(cmd, out, sizeof(out));
	if (n >= (int)sizeof(out))
		n = sizeof(out) - 1;
	if (amp_rpmsg_sendto(ept, src, out, n, CHK_REPLY_NS))
		st.tx_fail++;
	return 0;
}

/* Stop serving Linux (its writers fill the ring and block), then fault. */
static void __attribute__((noreturn)) stall_and_crash(void)
{
	uint32_t *nowhere = (uint32_t *)(uintptr_t)AMP_CORE_FAULT_DA;
	uint64_t now;

	amp_log("ampsoc-rpmsg-check: stalling, then crashing");
	while ((now = env_time_ns()) < crash_at)
		env_wait_event(crash_at - now);
	amp_log("ampsoc-rpmsg-check: crashing now (rx %u tx %u)", st.rx, st.tx);
	/* Nothing there: SIGSEGV, which the model reports as a crash. */
	__asm__ volatile("" : "+r"(nowhere));
	__atomic_store_n(nowhere, 0xdead, __ATOMIC_RELAXED);
	for (;;)
		;
}

int main(void)
{
	int ret;

	printf("ampsoc-rpmsg-check: core %s waiting for Linux\n", platform_core_name());
	ret = amp_rpmsg_wait_ready(&rdev, &amp_resource_table.vdev0, AMP_FOREVER);
	if (ret) {
		amp_log("ampsoc-rpmsg-check: vdev unusable: %d", ret);
		return 1;
	}
	ret = sample_use_vdev_buffer(&rdev);
	printf("ampsoc-rpmsg-check: link up, mtu %u, %s\n", amp_rpmsg_mtu(&rdev),
	       sample_buffers_by(&rdev, ret));
	ret = amp_rpmsg_ept_create(&rdev, &check_ept, "ampsoc-check", AMPSOC_RPMSG_ADDR_ANY,
				   AMPSOC_RPMSG_ADDR_ANY, check_cb, NULL);
	printf("ampsoc-rpmsg-check: service ampsoc-check at %u: %d\n", check_ept.addr, ret);
	ret = amp_rpmsg_ept_create(&rdev, &ctl_ept, "ampsoc-check-ctl", AMPSOC_RPMSG_ADDR_ANY,
				   AMPSOC_RPMSG_ADDR_ANY, ctl_cb, NULL);
	printf("ampsoc-rpmsg-check: service ampsoc-check-ctl at %u: %d\n", ctl_ept.addr, ret);
	for (;;) {
		if (crash_at)
			stall_and_crash();
		ret = amp_rpmsg_run_once(&rdev, AMP_FOREVER);
		if (ret == -EIO) {
			amp_log("ampsoc-rpmsg-check: Linux broke a ring (%u bad entries); stopping",
				rdev.stats.vq_errors);
			return 2;
		}
	}
}
