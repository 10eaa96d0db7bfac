/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Firmware image and resource-table parsing shared by the kernel module and
 * the host (unit tests, libFuzzer). Nothing here allocates or touches the
 * device: the parser only validates an image against itself and reports
 * what the loader needs, so the same source can be fuzzed on the host.
 *
 * The resource-table layout is mainline Linux's (include/linux/rsc_table.h
 * in Debian 6.1), spelled with an ampsoc_ prefix so that it never clashes
 * with the kernel's own header.
 */
#ifndef _AMPSOC_RPROC_FW_H
#define _AMPSOC_RPROC_FW_H

#ifdef __KERNEL__
#include <linux/elf.h>
#include <linux/errno.h>
#include <linux/types.h>
#else
#include "remoteproc_fw_shim.h"
#endif

/* Resource types, as mainline's enum fw_resource_type. */
#define AMPSOC_RSC_CARVEOUT	0
#define AMPSOC_RSC_DEVMEM	1
#define AMPSOC_RSC_TRACE	2
#define AMPSOC_RSC_VDEV		3
#define AMPSOC_RSC_LAST		4
#define AMPSOC_RSC_VENDOR_START	128
#define AMPSOC_RSC_VENDOR_END	512

#define AMPSOC_FW_RSC_ADDR_ANY	0xffffffffu

#define AMPSOC_RSC_NAME_LEN	32
/* A resource table has at most this many entries... */
#define AMPSOC_RSC_MAX_ENTRIES	256
/* ...and at most this many bytes (the kernel keeps a copy). */
#define AMPSOC_RSC_MAX_SIZE	65536
/* A vdev has at most this many vrings (mainline's RVDEV_NUM_VRINGS). */
#define AMPSOC_RSC_MAX_VRINGS	2
/* Largest split virtqueue the virtio spec allows. */
#define AMPSOC_RSC_MAX_VRING_NUM	32768
/* Bounds for a vring's alignment. */
#define AMPSOC_RSC_MIN_VRING_ALIGN	16
#define AMPSOC_RSC_MAX_VRING_ALIGN	65536

struct ampsoc_rsc_table {
	u32 ver;
	u32 num;
	u32 reserved[2];
	u32 offset[];
} __packed;

struct ampsoc_rsc_hdr {
	u32 type;
	u8 data[];
} __packed;

struct ampsoc_rsc_carveout {
	u32 da;
	u32 pa;
	u32 len;
	u32 flags;
	u32 reserved;
	u8 name[AMPSOC_RSC_NAME_LEN];
} __packed;

struct ampsoc_rsc_devmem {
	u32 da;
	u32 pa;
	u32 len;
	u32 flags;
	u32 reserved;
	u8 name[AMPSOC_RSC_NAME_LEN];
} __packed;

struct ampsoc_rsc_trace {
	u32 da;
	u32 len;
	u32 reserved;
	u8 name[AMPSOC_RSC_NAME_LEN];
} __packed;

struct ampsoc_rsc_vring {
	u32 da;
	u32 align;
	u32 num;
	u32 notifyid;
	u32 pa;
} __packed;

struct ampsoc_rsc_vdev {
	u32 id;
	u32 notifyid;
	u32 dfeatures;
	u32 gfeatures;
	u32 config_len;
	u8 status;
	u8 num_of_vrings;
	u8 reserved[2];
	struct ampsoc_rsc_vring vring[];
} __packed;

/* At most this many PT_LOAD segments per image. */
#define AMPSOC_FW_MAX_SEGS	64
/* Longest error message the parser produces. */
#define AMPSOC_FW_ERR_LEN	128

/**
 * struct ampsoc_fw_seg - one loadable segment of a firmware image
 * @da: device address (p_paddr)
 * @offset: file offset of its bytes
 * @filesz: bytes copied from the file
 * @memsz: bytes occupied in device memory (the rest is zeroed)
 */
struct ampsoc_fw_seg {
	u64 da;
	u64 offset;
	u64 filesz;
	u64 memsz;
};

/**
 * struct ampsoc_fw_info - what the parser learnt from a valid image
 * @elf_class: ELFCLASS32 or ELFCLASS64
 * @machine: e_machine
 * @entry: entry point (e_entry)
 * @num_segs: entries used in @segs, sorted by device address
 * @segs: the PT_LOAD segments with a non-zero memsz
 * @has_rsc: whether a .resource_table section exists
 * @rsc_offset: file offset of the resource table
 * @rsc_size: its size
 * @rsc_da: its device address once loaded (sh_addr)
 */
struct ampsoc_fw_info {
	u8 elf_class;
	u16 machine;
	u64 entry;
	unsigned int num_segs;
	struct ampsoc_fw_seg segs[AMPSOC_FW_MAX_SEGS];
	bool has_rsc;
	u64 rsc_offset;
	u64 rsc_size;
	u64 rsc_da;
};

/**
 * struct ampsoc_fw_expect - what the processor accepts
 * @elf_class: required ELF class, or 0 for either
 * @machine: required e_machine, or 0 for any
 */
struct ampsoc_fw_expect {
	u8 elf_class;
	u16 machine;
};

int ampsoc_fw_parse_elf(const void *data, size_t size,
			const struct ampsoc_fw_expect *expect,
			struct ampsoc_fw_info *info, char *err, size_t errlen);

int ampsoc_fw_check_rsc(const void *table, size_t size, char *err,
			size_t errlen);

/* Size of the fixed part of resource @type, or 0 for a vendor type. */
size_t ampsoc_fw_rsc_min_size(u32 type);

#endif /* _AMPSOC_RPROC_FW_H */
