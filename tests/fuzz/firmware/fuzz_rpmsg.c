// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the firmware SDK's rpmsg library against a driver side
 * that writes anything anywhere. The input is the vdev's negotiated fields,
 * the whole shared memory (rings, descriptors, buffers) and then a list of
 * writes Linux makes between the library's polls. The library may refuse
 * everything, but every pointer it hands a callback must lie in the
 * shared memory, and ASan/UBSan must stay quiet.
 */
#include <stdarg.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <amp/env.h>
#include <amp/log.h>
#include <amp/platform.h>
#include <amp/rpmsg.h>
#include <amp/rsc_table.h>

#define MEM_DA		0x10200000ull
#define MEM_SIZE	0x20000u

static uint8_t *mem;
static uint64_t now_ns;

void *platform_da_to_va(uint64_t da, uint64_t len)
{
	if (da < MEM_DA || len > MEM_SIZE || da - MEM_DA > MEM_SIZE - len)
		return NULL;
	return mem + (da - MEM_DA);
}

/* The simulated core sees no DRAM of Linux's unless a test says so. */
static uint64_t sim_ddr_da, sim_ddr_len;

int platform_ddr(uint64_t *da, uint64_t *len)
{
	if (!sim_ddr_len)
		return -ENODEV;
	*da = sim_ddr_da;
	*len = sim_ddr_len;
	return 0;
}

uint64_t platform_va_to_da(const void *va)
{
	const uint8_t *p = va;

	return p >= mem && p < mem + MEM_SIZE ? MEM_DA + (p - mem) : UINT64_MAX;
}

int platform_notify_vq(uint32_t notifyid)
{
	return 0;
}

int platform_wait_irq(uint64_t timeout_ns)
{
	now_ns += timeout_ns == UINT64_MAX ? 1000000 : timeout_ns;
	return 0;
}

uint64_t platform_time_ns(void)
{
	return now_ns;
}

void platform_abort(void)
{
	abort();
}

void amp_log(const char *fmt, ...)
{
}

AMP_RSC_VDEV_CFG_TYPE(fuzz_vdev, 2, struct ampsoc_rpmsg_vdev_config);

static struct amp_rpmsg_dev rdev;
static struct amp_rpmsg_ept epts[2];
static bool up[2];
static void *held;

static void check_inside(const void *p, uint32_t len)
{
	const uint8_t *b = p;

	if (b < mem || len > MEM_SIZE || b > mem + MEM_SIZE - len)
		abort();
}

static int fuzz_cb(struct amp_rpmsg_ept *ept, void *data, uint32_t len,
		   uint32_t src, void *priv)
{
	uint8_t sum = 0;

	check_inside(data, len);
	for (uint32_t i = 0; i < len; i++)	/* touch every byte: ASan */
		sum += ((uint8_t *)data)[i];
	if (!held && (sum & 1) && !amp_rpmsg_hold_rx(ept, data))
		held = data;
	if (sum & 2)
		amp_rpmsg_trysendto(ept, src, data, len > 64 ? 64 : len);
	return 0;
}

static uint32_t take32(const uint8_t **p, size_t *n)
{
	uint32_t v = 0;

	if (*n >= 4) {
		memcpy(&v, *p, 4);
		*p += 4;
		*n -= 4;
	}
	return v;
}

/* libFuzzer's entry point; the build links it under libFuzzer's name. */
int fw_rpmsg_fuzz_one(const uint8_t *data, size_t size);

int fw_rpmsg_fuzz_one(const uint8_t *data, size_t size)
{
	static struct fuzz_vdev vdev;
	uint32_t shape, tx_size;
	size_t n;
	void *buf;

	if (!mem)
		mem = malloc(MEM_SIZE);
	memset(mem, 0, MEM_SIZE);
	memset(&vdev, 0, sizeof(vdev));
	held = NULL;
	now_ns = 0;

	/* Negotiated fields and the vring shape, as Linux wrote them. */
	shape = take32(&data, &size);
	vdev.type = AMPSOC_RSC_VDEV;
	vdev.id = AMPSOC_VIRTIO_ID_RPMSG;
	vdev.num_of_vrings = 2;
	vdev.status = AMP_VIRTIO_STATUS_DRIVER_OK;
	vdev.gfeatures = take32(&data, &size);
	vdev.config_len = sizeof(vdev.config);
	vdev.config.h2r_buf_size = take32(&data, &size);
	vdev.config.r2h_buf_size = take32(&data, &size);
	for (int i = 0; i < 2; i++) {
		vdev.vring[i].num = 1u << ((shape >> (8 * i)) & 7);
		vdev.vring[i].align = 1u << ((shape >> (8 * i + 3)) & 7);
		vdev.vring[i].da = MEM_DA + (take32(&data, &size) & (MEM_SIZE - 1));
		vdev.vring[i].notifyid = i;
	}
	/* The shared memory's initial contents. */
	n = size < MEM_SIZE / 2 ? size : MEM_SIZE / 2;
	memcpy(mem + (shape >> 16) % (MEM_SIZE / 2), data, n);
	data += n;
	size -= n;

	/*
	 * Half the runs get plausible descriptors, so that the search reaches
	 * message dispatch: addresses folded into the shared memory, in
	 * 16-byte steps.
	 */
	if (shape & (1u << 31)) {
		for (int i = 0; i < 2; i++) {
			uint64_t da = vdev.vring[i].da & ~15ull;
			struct amp_vring_desc *d = platform_da_to_va(da, 16ull * vdev.vring[i].num);

			vdev.vring[i].da = da;
			for (uint32_t k = 0; d && k < vdev.vring[i].num; k++)
				d[k].addr = MEM_DA + (d[k].addr % MEM_SIZE & ~15ull);
		}
	}
	if (amp_rpmsg_init(&rdev, &vdev))
		return 0;
	/* Sometimes descriptors carry physical addresses of a carveout. */
	if (shape & (1u << 30)) {
		struct amp_rsc_carveout c = AMP_RSC_CARVEOUT_INIT(MEM_DA + 0x8000, 0, 0x8000, 0,
								  "vdev0buffer");

		c.c.pa = take32(&data, &size);
		amp_rpmsg_use_carveout(&rdev, &c);
	}
	up[0] = !amp_rpmsg_ept_create(&rdev, &epts[0], "fuzz", AMPSOC_RPMSG_ADDR_ANY,
				      AMPSOC_RPMSG_ADDR_ANY, fuzz_cb, NULL);
	up[1] = !amp_rpmsg_ept_create(&rdev, &epts[1], NULL, 1024 + (shape & 3), 0x400,
				      fuzz_cb, NULL);

	/* Then Linux writes between polls: {u16 offset, u8 len, bytes}. */
	for (int round = 0; round < 8; round++) {
		amp_rpmsg_poll(&rdev);
		if (up[1])
			amp_rpmsg_trysend(&epts[1], "x", 1);
		buf = amp_rpmsg_get_tx_buffer(&rdev, &tx_size, 0);
		if (buf) {
			check_inside(buf, tx_size);
			memset(buf, 0x5a, tx_size);
			if ((round & 1) && up[0])
				amp_rpmsg_send_nocopy(&epts[0], 0x400, buf, tx_size);
			else
				amp_rpmsg_release_tx(&rdev, buf);
		}
		if (held && (round & 2)) {
			amp_rpmsg_release_rx(&rdev, held);
			held = NULL;
		}
		if (size >= 3) {
			uint32_t off = (data[0] | data[1] << 8) % MEM_SIZE;
			uint32_t len = data[2];

			data += 3;
			size -= 3;
			if (len > size)
				len = size;
			if (len > MEM_SIZE - off)
				len = MEM_SIZE - off;
			memcpy(mem + off, data, len);
			data += len;
			size -= len;
		}
	}
	for (int i = 0; i < 2; i++)
		if (up[i])
			amp_rpmsg_ept_destroy(&epts[i]);
	return 0;
}
