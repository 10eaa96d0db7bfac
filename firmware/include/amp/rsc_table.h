/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Resource table: mainline Linux's remoteproc firmware format, byte for byte
 * (packed, little-endian), and macros that build a firmware's table.
 *
 * A firmware declares exactly one table, listing its entries once:
 *
 *	#define MY_RESOURCES(X)						\
 *		X(trace0, struct amp_rsc_trace, AMP_RSC_TRACE_INIT("trace0"))	\
 *		X(vdev0, AMP_RSC_VDEV_T(2, 0),					\
 *		  AMP_RSC_VDEV_INIT(7, 0, 1, 0, 2,				\
 *			AMP_RSC_VRING_INIT(AMP_RSC_ADDR_ANY, 16, 256, 1),	\
 *			AMP_RSC_VRING_INIT(AMP_RSC_ADDR_ANY, 16, 256, 2)))
 *	AMP_RESOURCE_TABLE(MY_RESOURCES);
 *
 * This emits the variable amp_resource_table in the ".resource_table"
 * section: the header, one offset per entry and the entries in order, each
 * entry starting with its u32 type as mainline's struct fw_rsc_hdr. Fields of
 * an entry are reached by name (amp_resource_table.vdev0.status); values that
 * Linux writes back (carveout pa, vring da and notifyid, vdev status and
 * gfeatures) must be read with amp_rsc_read32()/amp_rsc_read8().
 */
#ifndef _AMP_RSC_TABLE_H
#define _AMP_RSC_TABLE_H

#include <stddef.h>
#include <stdint.h>

#define AMP_RSC_PACKED	__attribute__((packed))

/* ---- mainline's layout (include/linux/remoteproc.h, rsc_table.h) ---- */

struct resource_table {
	uint32_t ver;
	uint32_t num;
	uint32_t reserved[2];
	uint32_t offset[];
} AMP_RSC_PACKED;

struct fw_rsc_hdr {
	uint32_t type;
	uint8_t data[];
} AMP_RSC_PACKED;

enum fw_resource_type {
	RSC_CARVEOUT = 0,
	RSC_DEVMEM = 1,
	RSC_TRACE = 2,
	RSC_VDEV = 3,
	RSC_LAST = 4,
	RSC_VENDOR_START = 128,
	RSC_VENDOR_END = 512,
};

#define FW_RSC_ADDR_ANY		0xffffffffu
#define AMP_RSC_ADDR_ANY	FW_RSC_ADDR_ANY

struct fw_rsc_carveout {
	uint32_t da;
	uint32_t pa;
	uint32_t len;
	uint32_t flags;
	uint32_t reserved;
	uint8_t name[32];
} AMP_RSC_PACKED;

struct fw_rsc_devmem {
	uint32_t da;
	uint32_t pa;
	uint32_t len;
	uint32_t flags;
	uint32_t reserved;
	uint8_t name[32];
} AMP_RSC_PACKED;

struct fw_rsc_trace {
	uint32_t da;
	uint32_t len;
	uint32_t reserved;
	uint8_t name[32];
} AMP_RSC_PACKED;

struct fw_rsc_vdev_vring {
	uint32_t da;
	uint32_t align;
	uint32_t num;
	uint32_t notifyid;
	uint32_t pa;
} AMP_RSC_PACKED;

struct fw_rsc_vdev {
	uint32_t id;
	uint32_t notifyid;
	uint32_t dfeatures;
	uint32_t gfeatures;
	uint32_t config_len;
	uint8_t status;
	uint8_t num_of_vrings;
	uint8_t reserved[2];
	struct fw_rsc_vdev_vring vring[];
} AMP_RSC_PACKED;

/* Virtio device status bits Linux writes into fw_rsc_vdev.status. */
#define AMP_VIRTIO_STATUS_ACKNOWLEDGE	0x01
#define AMP_VIRTIO_STATUS_DRIVER	0x02
#define AMP_VIRTIO_STATUS_DRIVER_OK	0x04
#define AMP_VIRTIO_STATUS_FEATURES_OK	0x08
#define AMP_VIRTIO_STATUS_NEEDS_RESET	0x40
#define AMP_VIRTIO_STATUS_FAILED	0x80

/* Virtio device id of an rpmsg transport. */
#define AMP_VIRTIO_ID_RPMSG		7

/* ---- table entries: the u32 type followed by the resource ---------- */

struct amp_rsc_carveout {
	uint32_t type;
	struct fw_rsc_carveout c;
} AMP_RSC_PACKED;

struct amp_rsc_devmem {
	uint32_t type;
	struct fw_rsc_devmem d;
} AMP_RSC_PACKED;

struct amp_rsc_trace {
	uint32_t type;
	struct fw_rsc_trace t;
} AMP_RSC_PACKED;

/*
 * A vdev entry with @nvrings vrings and @cfglen bytes of config space. Its
 * fields are those of struct fw_rsc_vdev, spelled out so that the vrings and
 * the config space can follow as fixed-size arrays.
 */
#define AMP_RSC_VDEV_T(nvrings, cfglen)					\
	struct {							\
		uint32_t type;						\
		uint32_t id;						\
		uint32_t notifyid;					\
		uint32_t dfeatures;					\
		uint32_t gfeatures;					\
		uint32_t config_len;					\
		uint8_t status;						\
		uint8_t num_of_vrings;					\
		uint8_t reserved[2];					\
		struct fw_rsc_vdev_vring vring[nvrings];		\
		uint8_t config[cfglen];					\
	} AMP_RSC_PACKED

#define AMP_RSC_CARVEOUT_INIT(da, pa, len, flags, name)			\
	{ RSC_CARVEOUT, { (da), (pa), (len), (flags), 0, name } }
#define AMP_RSC_DEVMEM_INIT(da, pa, len, flags, name)			\
	{ RSC_DEVMEM, { (da), (pa), (len), (flags), 0, name } }
/* A trace buffer at a fixed device address. */
#define AMP_RSC_TRACE_AT(da, len, name)					\
	{ RSC_TRACE, { (da), (len), 0, name } }
/* The SDK's trace buffer (amp_trace_printf() and printf() write there). */
#define AMP_RSC_TRACE_INIT(name)					\
	AMP_RSC_TRACE_AT(AMP_CORE_TRACE_DA, AMP_CORE_TRACE_SIZE, name)
#define AMP_RSC_VRING_INIT(da, align, num, notifyid)			\
	{ (da), (align), (num), (notifyid), 0 }
#define AMP_RSC_VDEV_INIT(id_, notifyid_, dfeatures_, config_len_, nvrings_, ...) \
	{ .type = RSC_VDEV, .id = (id_), .notifyid = (notifyid_),	\
	  .dfeatures = (dfeatures_), .config_len = (config_len_),	\
	  .num_of_vrings = (nvrings_), .vring = { __VA_ARGS__ } }

/* ---- the table ------------------------------------------------------ */

#define AMP__RSC_COUNT(f, T, ...)	+ 1
#define AMP__RSC_FIELD(f, T, ...)	T f;
#define AMP__RSC_OFFSET(f, T, ...)	offsetof(struct amp_rsc_layout, f),
#define AMP__RSC_INIT(f, T, ...)	.f = __VA_ARGS__,

/*
 * AMP_RESOURCE_TABLE(LIST) - define the firmware's resource table.
 * @LIST: a macro taking one argument X and expanding to X(field, type, init)
 *	once per entry, in table order.
 */
#define AMP_RESOURCE_TABLE(LIST)					\
	struct amp_rsc_layout {						\
		uint32_t ver;						\
		uint32_t num;						\
		uint32_t reserved[2];					\
		uint32_t offset[0 LIST(AMP__RSC_COUNT)];		\
		LIST(AMP__RSC_FIELD)					\
	} AMP_RSC_PACKED;						\
	__attribute__((section(".resource_table"), used, aligned(8)))	\
	struct amp_rsc_layout amp_resource_table = {			\
		.ver = 1,						\
		.num = 0 LIST(AMP__RSC_COUNT),				\
		.offset = { LIST(AMP__RSC_OFFSET) },			\
		LIST(AMP__RSC_INIT)					\
	}

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
