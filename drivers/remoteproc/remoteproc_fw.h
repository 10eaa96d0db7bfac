/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Firmware image and resource-table parsing shared by the kernel module and
 * the host (unit tests, libFuzzer). Nothing here allocates or touches the
 * device: the parser only validates an image against itself and reports
 * what the loader needs, so the same source can be fuzzed on the host.
 *
 * The resource-table layout is mainline Linux's, shared with the firmware
 * SDK in <uapi/ampsoc/rsc_table.h>; the limits below are what this parser
 * accepts.
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
#include <uapi/ampsoc/rsc_table.h>

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

/**
 * struct ampsoc_fw_win - a part of a firmware file, read into memory
 * @off: its offset in the file
 * @len: its length
 * @data: its bytes
 */
struct ampsoc_fw_win {
	u64 off;
	u64 len;
	const void *data;
};

int ampsoc_fw_parse_elf(const void *data, size_t size,
			const struct ampsoc_fw_expect *expect,
			struct ampsoc_fw_info *info, char *err, size_t errlen);

int ampsoc_fw_parse_elf_win(const struct ampsoc_fw_win *win, unsigned int nwin,
			    const struct ampsoc_fw_expect *expect,
			    struct ampsoc_fw_info *info, struct ampsoc_fw_win *need,
			    u64 *extent, char *err, size_t errlen);

int ampsoc_fw_check_rsc(const void *table, size_t size, char *err,
			size_t errlen);

/* Size of the fixed part of resource @type, or 0 for a vendor type. */
size_t ampsoc_fw_rsc_min_size(u32 type);

#endif /* _AMPSOC_RPROC_FW_H */
