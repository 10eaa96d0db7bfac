/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Resource table: mainline Linux's remoteproc firmware format, byte for byte
 * (packed, little-endian), and the pieces a firmware builds its table from.
 *
 * A firmware declares exactly one table: a packed structure that starts
 * with struct amp_rsc_table_hdr and an offset per entry, followed by the
 * entries, each a u32 type and its resource:
 *
 *	AMP_RSC_VDEV_TYPE(my_vdev, 2, 0);
 *
 *	struct my_rsc {
 *		struct amp_rsc_table_hdr hdr;
 *		uint32_t offset[2];
 *		struct amp_rsc_trace trace0;
 *		struct my_vdev vdev0;
 *	} AMP_RSC_PACKED;
 *
 *	AMP_RESOURCE_TABLE struct my_rsc amp_resource_table = {
 *		.hdr = AMP_RSC_TABLE_HDR(struct my_rsc),
 *		.offset = {
 *			offsetof(struct my_rsc, trace0),
 *			offsetof(struct my_rsc, vdev0),
 *		},
 *		.trace0 = AMP_RSC_TRACE_INIT("trace0"),
 *		.vdev0 = AMP_RSC_VDEV_INIT(AMPSOC_VIRTIO_ID_RPMSG, 0, 1, 0, 2,
 *			AMP_RSC_VRING_INIT(AMP_RSC_ADDR_ANY, 16, 256, 0),
 *			AMP_RSC_VRING_INIT(AMP_RSC_ADDR_ANY, 16, 256, 1)),
 *	};
 *
 * The entry count comes from the length of offset[]; the startup code
 * checks the offsets (inside the table, in order, past the header) before
 * main() and crashes the core with a trace line if they are not. Fields
 * Linux writes back (carveout pa, vring da and notifyid, vdev status and
 * gfeatures) must be read with amp_rsc_read32()/amp_rsc_read8().
 */
#ifndef _AMP_RSC_TABLE_H
#define _AMP_RSC_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include <uapi/ampsoc/rsc_table.h>
/* AMPSOC_VIRTIO_ID_RPMSG, the id of the usual vdev. */
#include <uapi/ampsoc/virtio_rpmsg.h>

#define AMP_RSC_PACKED	__attribute__((packed))

/* mainline's layout: <uapi/ampsoc/rsc_table.h>, shared with Linux */
#define AMP_RSC_ADDR_ANY	AMPSOC_FW_RSC_ADDR_ANY

/* Virtio device status bits Linux writes into ampsoc_rsc_vdev.status. */
#define AMP_VIRTIO_STATUS_ACKNOWLEDGE	0x01
#define AMP_VIRTIO_STATUS_DRIVER	0x02
#define AMP_VIRTIO_STATUS_DRIVER_OK	0x04
#define AMP_VIRTIO_STATUS_FEATURES_OK	0x08
#define AMP_VIRTIO_STATUS_NEEDS_RESET	0x40
#define AMP_VIRTIO_STATUS_FAILED	0x80

/* ---- table entries: the u32 type followed by the resource ---------- */

struct amp_rsc_carveout {
	uint32_t type;
	struct ampsoc_rsc_carveout c;
} AMP_RSC_PACKED;

struct amp_rsc_devmem {
	uint32_t type;
	struct ampsoc_rsc_devmem d;
} AMP_RSC_PACKED;

struct amp_rsc_trace {
	uint32_t type;
	struct ampsoc_rsc_trace t;
} AMP_RSC_PACKED;

/*
 * Define struct @name, a vdev entry with @nvrings vrings and @cfglen bytes
 * of config space. Its fields are those of struct ampsoc_rsc_vdev, spelled out
 * so that the vrings and the config space can follow as fixed-size arrays.
 */
#define AMP_RSC_VDEV_TYPE(name, nvrings, cfglen)			\
	struct name {							\
		uint32_t type;						\
		uint32_t id;						\
		uint32_t notifyid;					\
		uint32_t dfeatures;					\
		uint32_t gfeatures;					\
		uint32_t config_len;					\
		uint8_t status;						\
		uint8_t num_of_vrings;					\
		uint8_t reserved[2];					\
		struct ampsoc_rsc_vring vring[nvrings];		\
		uint8_t config[cfglen];					\
	} AMP_RSC_PACKED

/* The same, with a config space of type @cfgtype (config_len its size). */
#define AMP_RSC_VDEV_CFG_TYPE(name, nvrings, cfgtype)			\
	struct name {							\
		uint32_t type;						\
		uint32_t id;						\
		uint32_t notifyid;					\
		uint32_t dfeatures;					\
		uint32_t gfeatures;					\
		uint32_t config_len;					\
		uint8_t status;						\
		uint8_t num_of_vrings;					\
		uint8_t reserved[2];					\
		struct ampsoc_rsc_vring vring[nvrings];		\
		cfgtype config;						\
	} AMP_RSC_PACKED

#define AMP_RSC_CARVEOUT_INIT(da, pa, len, flags, name)			\
	{ AMPSOC_RSC_CARVEOUT, { (da), (pa), (len), (flags), 0, name } }
#define AMP_RSC_DEVMEM_INIT(da, pa, len, flags, name)			\
	{ AMPSOC_RSC_DEVMEM, { (da), (pa), (len), (flags), 0, name } }
/* A trace buffer at a fixed device address. */
#define AMP_RSC_TRACE_AT(da, len, name)					\
	{ AMPSOC_RSC_TRACE, { (da), (len), 0, name } }
/* The SDK's trace buffer (amp_trace_printf() and printf() write there). */
#define AMP_RSC_TRACE_INIT(name)					\
	AMP_RSC_TRACE_AT(AMP_CORE_TRACE_DA, AMP_CORE_TRACE_SIZE, name)
#define AMP_RSC_VRING_INIT(da, align, num, notifyid)			\
	{ (da), (align), (num), (notifyid), 0 }
/* The same, for AMP_RSC_VDEV_CFG_TYPE: @config_ initialises its config. */
#define AMP_RSC_VDEV_CFG_INIT(id_, notifyid_, dfeatures_, config_len_, config_, \
			      nvrings_, ...)				\
	{ .type = AMPSOC_RSC_VDEV, .id = (id_), .notifyid = (notifyid_),	\
	  .dfeatures = (dfeatures_), .config_len = (config_len_),	\
	  .num_of_vrings = (nvrings_), .vring = { __VA_ARGS__ },	\
	  .config = config_ }
#define AMP_RSC_VDEV_INIT(id_, notifyid_, dfeatures_, config_len_, nvrings_, ...) \
	{ .type = AMPSOC_RSC_VDEV, .id = (id_), .notifyid = (notifyid_),	\
	  .dfeatures = (dfeatures_), .config_len = (config_len_),	\
	  .num_of_vrings = (nvrings_), .vring = { __VA_ARGS__ } }

/* ---- the table ------------------------------------------------------ */

/* The fixed part of struct ampsoc_rsc_table, to start a firmware's table. */
struct amp_rsc_table_hdr {
	uint32_t ver;
	uint32_t num;
	uint32_t reserved[2];
} AMP_RSC_PACKED;

/* Number of entries of table type @tbl: the length of its offset[]. */
#define AMP_RSC_NUM(tbl)	(sizeof(((tbl *)0)->offset) / sizeof(uint32_t))
/* Header initializer of table type @table. */
#define AMP_RSC_TABLE_HDR(table)	{ .ver = 1, .num = AMP_RSC_NUM(table) }
/* Where Linux looks for the table: put it before the variable. */
#define AMP_RESOURCE_TABLE \
	__attribute__((section(".resource_table"), used, aligned(8)))

/* Read a field Linux may have written since boot. */
static inline uint32_t amp_rsc_read32(const void *field)
{
	uint32_t v;

	__atomic_load((const uint32_t *)field, &v, __ATOMIC_ACQUIRE);
	return v;
}

static inline uint8_t amp_rsc_read8(const void *field)
{
	return __atomic_load_n((const uint8_t *)field, __ATOMIC_ACQUIRE);
}

#endif /* _AMP_RSC_TABLE_H */
