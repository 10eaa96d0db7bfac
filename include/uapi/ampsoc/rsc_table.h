/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The resource table of a remoteproc firmware image: mainline Linux's
 * layout (include/linux/remoteproc.h, Debian's <linux/rsc_table.h>), byte
 * for byte, under an ampsoc_ prefix so that it never meets the kernel's own
 * definitions. Linux's loader (drivers/remoteproc/remoteproc_fw.c) parses
 * it, the vsoc remote-core driver (drivers/vsoc/vsoc_rproc.c) reads its
 * vrings, the firmware SDK (firmware/include/amp/rsc_table.h) builds it.
 *
 * The table is packed; its fields are in the remote's byte order, which is
 * little-endian on every ampsoc core, as mainline assumes. A table starts
 * with struct ampsoc_rsc_table and an offset per entry; each entry is a
 * struct ampsoc_rsc_hdr (the type) followed by the resource. Linux writes
 * some fields back (a carveout's pa, a vring's da and notifyid, a vdev's
 * status and gfeatures); everything in it is untrusted to Linux.
 */
#ifndef _UAPI_AMPSOC_RSC_TABLE_H
#define _UAPI_AMPSOC_RSC_TABLE_H

#include "types.h"

/* Resource types, as mainline's enum fw_resource_type. */
#define AMPSOC_RSC_CARVEOUT	0
#define AMPSOC_RSC_DEVMEM	1
#define AMPSOC_RSC_TRACE	2
#define AMPSOC_RSC_VDEV		3
#define AMPSOC_RSC_LAST		4
#define AMPSOC_RSC_VENDOR_START	128
#define AMPSOC_RSC_VENDOR_END	512

/* "Any address": the firmware leaves the choice to Linux. */
#define AMPSOC_FW_RSC_ADDR_ANY	0xffffffffu

/* Bytes of a resource's name, NUL included. */
#define AMPSOC_RSC_NAME_LEN	32

/* The table header, followed by @num offsets from the table's start. */
struct ampsoc_rsc_table {
	__u32 ver;
	__u32 num;
	__u32 reserved[2];
	__u32 offset[];
} __attribute__((packed));

/* Every entry starts with its type; the resource follows in @data. */
struct ampsoc_rsc_hdr {
	__u32 type;
	__u8 data[];
} __attribute__((packed));

/* AMPSOC_RSC_CARVEOUT: memory Linux allocates (@pa written back). */
struct ampsoc_rsc_carveout {
	__u32 da;
	__u32 pa;
	__u32 len;
	__u32 flags;
	__u32 reserved;
	__u8 name[AMPSOC_RSC_NAME_LEN];
} __attribute__((packed));

/* AMPSOC_RSC_DEVMEM: device memory Linux maps for the core. */
struct ampsoc_rsc_devmem {
	__u32 da;
	__u32 pa;
	__u32 len;
	__u32 flags;
	__u32 reserved;
	__u8 name[AMPSOC_RSC_NAME_LEN];
} __attribute__((packed));

/* AMPSOC_RSC_TRACE: a text buffer the core writes and Linux shows. */
struct ampsoc_rsc_trace {
	__u32 da;
	__u32 len;
	__u32 reserved;
	__u8 name[AMPSOC_RSC_NAME_LEN];
} __attribute__((packed));

/* One vring of a vdev (@da and @notifyid may be written back). */
struct ampsoc_rsc_vring {
	__u32 da;
	__u32 align;
	__u32 num;
	__u32 notifyid;
	__u32 pa;
} __attribute__((packed));

/*
 * AMPSOC_RSC_VDEV: a virtio device; @num_of_vrings vrings follow, then
 * @config_len bytes of its config space.
 */
struct ampsoc_rsc_vdev {
	__u32 id;
	__u32 notifyid;
	__u32 dfeatures;
	__u32 gfeatures;
	__u32 config_len;
	__u8 status;
	__u8 num_of_vrings;
	__u8 reserved[2];
	struct ampsoc_rsc_vring vring[];
} __attribute__((packed));

AMPSOC_ABI_CHECK(rsc_table, sizeof(struct ampsoc_rsc_table) == 16);
AMPSOC_ABI_CHECK(rsc_carveout, sizeof(struct ampsoc_rsc_carveout) == 52);
AMPSOC_ABI_CHECK(rsc_devmem, sizeof(struct ampsoc_rsc_devmem) == 52);
AMPSOC_ABI_CHECK(rsc_trace, sizeof(struct ampsoc_rsc_trace) == 44);
AMPSOC_ABI_CHECK(rsc_vring, sizeof(struct ampsoc_rsc_vring) == 20);
AMPSOC_ABI_CHECK(rsc_vdev, sizeof(struct ampsoc_rsc_vdev) == 24);

#endif /* _UAPI_AMPSOC_RSC_TABLE_H */
