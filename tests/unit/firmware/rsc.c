// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit test of the resource-table macros (<amp/rsc_table.h>): the
 * table they build must be byte for byte what mainline Linux parses
 * (struct resource_table, fw_rsc_*; <uapi/ampsoc/rsc_table.h> spells them
 * ampsoc_rsc_*).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <ktap_user.h>
#include <amp/rsc_table.h>

AMP_RSC_VDEV_TYPE(test_vdev, 2, 8);

struct test_rsc {
	struct amp_rsc_table_hdr hdr;
	uint32_t offset[4];
	struct amp_rsc_carveout carve;
	struct amp_rsc_trace trace0;
	struct test_vdev vdev0;
	struct amp_rsc_devmem dev;
} AMP_RSC_PACKED;

AMP_RESOURCE_TABLE struct test_rsc amp_resource_table = {
	.hdr = AMP_RSC_TABLE_HDR(struct test_rsc),
	.offset = {
		offsetof(struct test_rsc, carve),
		offsetof(struct test_rsc, trace0),
		offsetof(struct test_rsc, vdev0),
		offsetof(struct test_rsc, dev),
	},
	.carve = AMP_RSC_CARVEOUT_INIT(0x10200000, AMP_RSC_ADDR_ANY, 0x100000, 0, "carve"),
	.trace0 = AMP_RSC_TRACE_INIT("trace0"),
	.vdev0 = AMP_RSC_VDEV_INIT(AMPSOC_VIRTIO_ID_RPMSG, 0, 1, 8, 2,
				   AMP_RSC_VRING_INIT(AMP_RSC_ADDR_ANY, 16, 256, 1),
				   AMP_RSC_VRING_INIT(0x10300000, 4096, 128, 2)),
	.dev = AMP_RSC_DEVMEM_INIT(0x40000000, 0x50000000, 0x1000, 3, "regs"),
};

static uint32_t le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

int main(void)
{
	const uint8_t *raw = (const void *)&amp_resource_table;
	const uint8_t *e;
	bool ok;

	ktap_plan(9);

	/* Mainline sizes (packed). */
	ktap_ok(sizeof(struct ampsoc_rsc_table) == 16 &&
		sizeof(struct amp_rsc_table_hdr) == 16 &&
		sizeof(struct ampsoc_rsc_hdr) == 4 &&
		sizeof(struct ampsoc_rsc_carveout) == 52 &&
		sizeof(struct ampsoc_rsc_devmem) == 52 &&
		sizeof(struct ampsoc_rsc_trace) == 44 &&
		sizeof(struct ampsoc_rsc_vring) == 20 &&
		sizeof(struct ampsoc_rsc_vdev) == 24, "mainline_struct_sizes");
	ktap_ok(offsetof(struct ampsoc_rsc_carveout, name) == 20 &&
		offsetof(struct ampsoc_rsc_trace, name) == 12 &&
		offsetof(struct ampsoc_rsc_vdev, config_len) == 16 &&
		offsetof(struct ampsoc_rsc_vdev, status) == 20 &&
		offsetof(struct ampsoc_rsc_vdev, num_of_vrings) == 21 &&
		offsetof(struct ampsoc_rsc_vdev, vring) == 24 &&
		offsetof(struct ampsoc_rsc_vring, notifyid) == 12 &&
		offsetof(struct ampsoc_rsc_vring, pa) == 16, "mainline_field_offsets");

	/* Header: ver 1, num 4, reserved 0, then 4 offsets. */
	ok = le32(raw) == 1 && le32(raw + 4) == 4 && le32(raw + 8) == 0 &&
	     le32(raw + 12) == 0;
	ok &= le32(raw + 16) == 32 && le32(raw + 20) == 32 + 56 &&
	      le32(raw + 24) == 32 + 56 + 48 &&
	      le32(raw + 28) == 32 + 56 + 48 + 4 + 24 + 40 + 8;
	ok &= sizeof(amp_resource_table) == 32 + 56 + 48 + 76 + 56;
	ktap_ok(ok, "table_header_and_offsets");

	e = raw + le32(raw + 16);
	ktap_ok(le32(e) == AMPSOC_RSC_CARVEOUT && le32(e + 4) == 0x10200000 &&
		le32(e + 8) == AMPSOC_FW_RSC_ADDR_ANY && le32(e + 12) == 0x100000 &&
		le32(e + 16) == 0 && le32(e + 20) == 0 &&
		!memcmp(e + 24, "carve\0", 6) && e[24 + 31] == 0, "carveout_entry");

	e = raw + le32(raw + 20);
	ktap_ok(le32(e) == AMPSOC_RSC_TRACE && le32(e + 4) == AMP_CORE_TRACE_DA &&
		le32(e + 8) == AMP_CORE_TRACE_SIZE && le32(e + 12) == 0 &&
		!strcmp((const char *)e + 16, "trace0"), "trace_entry");

	e = raw + le32(raw + 24);
	ok = le32(e) == AMPSOC_RSC_VDEV && le32(e + 4) == 7 && le32(e + 8) == 0 &&
	     le32(e + 12) == 1 && le32(e + 16) == 0 && le32(e + 20) == 8 &&
	     e[24] == 0 && e[25] == 2 && e[26] == 0 && e[27] == 0;
	/* vring 0 at +28, vring 1 at +48, config at +68 */
	ok &= le32(e + 28) == AMPSOC_FW_RSC_ADDR_ANY && le32(e + 32) == 16 &&
	      le32(e + 36) == 256 && le32(e + 40) == 1 && le32(e + 44) == 0;
	ok &= le32(e + 48) == 0x10300000 && le32(e + 52) == 4096 &&
	      le32(e + 56) == 128 && le32(e + 60) == 2 && le32(e + 64) == 0;
	ktap_ok(ok, "vdev_entry_with_vrings");
	ktap_ok((const uint8_t *)&amp_resource_table.vdev0.config - e == 4 + 24 + 2 * 20 &&
		amp_resource_table.vdev0.config[0] == 0, "vdev_config_follows_vrings");

	e = raw + le32(raw + 28);
	ktap_ok(le32(e) == AMPSOC_RSC_DEVMEM && le32(e + 4) == 0x40000000 &&
		le32(e + 8) == 0x50000000 && le32(e + 12) == 0x1000 &&
		le32(e + 16) == 3 && !strcmp((const char *)e + 24, "regs"),
		"devmem_entry");

	/* Walk it as Linux does: every offset inside, every entry a known type. */
	ok = true;
	for (uint32_t i = 0; i < amp_resource_table.hdr.num; i++) {
		uint32_t off = amp_resource_table.offset[i];

		ok &= off + 4 <= sizeof(amp_resource_table) &&
		      le32(raw + off) < AMPSOC_RSC_LAST;
	}
	ktap_ok(ok && amp_rsc_read8(&amp_resource_table.vdev0.status) == 0 &&
		amp_rsc_read32(&amp_resource_table.vdev0.vring[1].da) == 0x10300000,
		"linux_style_walk_and_readers");
	return ktap_exit();
}
