/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host-side builder of test firmware for ampsoc remoteproc: a correct image
 * for the fake remote processor and one malformed variant per entry of
 * tests/kmod/remoteproc/badfw_cases.h.
 */
#ifndef _AMPSOC_RPROC_FWGEN_H
#define _AMPSOC_RPROC_FWGEN_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stddef.h>
#include <stdint.h>
#endif

/* The fake remote processor's memory map (tests/kmod/remoteproc). */
#define FWGEN_MEM_DA		0x10000000u
#define FWGEN_MEM_SIZE		0x100000u
#define FWGEN_TEXT_DA		FWGEN_MEM_DA
#define FWGEN_DATA_DA		(FWGEN_MEM_DA + 0x1000)
#define FWGEN_TRACE_DA		(FWGEN_MEM_DA + 0x1800)
#define FWGEN_TRACE_LEN		0x800
#define FWGEN_TEXT_MAGIC	"AMPSOCFW"
#define FWGEN_GOOD64_NAME	"ampsoc-rproc-fake.elf"
#define FWGEN_GOOD32_NAME	"ampsoc-rproc-fake32.elf"
/* The correct image with the one-vring vdev first in the table. */
#define FWGEN_VDEV_FIRST_NAME	"ampsoc-rproc-fake-vdev-first.elf"
/*
 * The correct image without the one-vring vdev: Linux 6.1 frees two vrings
 * of every vdev when it removes one (a NULL dereference for a vdev with
 * one), so its own remoteproc can run this one only (tests/peer).
 */
#define FWGEN_PORTABLE_NAME	"ampsoc-rproc-fake-portable.elf"
#define FWGEN_VDEV_ID		7
#define FWGEN_VRING_NUM		16
/* A second vdev, bound by ampsoc_rproc_test's virtio driver. */
#define FWGEN_TEST_VDEV_ID	0x414d
#define FWGEN_TEST_VRING_NUM	8
#define FWGEN_VENDOR_OK		128
#define FWGEN_VENDOR_REFUSED	129
#define FWGEN_VENDOR_IGNORED	130

#ifndef __KERNEL__
enum fwgen_case {
	FWGEN_GOOD64,
	FWGEN_GOOD32,
	FWGEN_VDEV_FIRST,
	FWGEN_PORTABLE,
#define BADFW(name, err, stage) FWGEN_BAD_##name,
#include "badfw_cases.h"
#undef BADFW
	FWGEN_NUM_CASES
};

struct fwgen_desc {
	const char *name;
	int err;
	int parse_stage;
};

extern const struct fwgen_desc fwgen_cases[FWGEN_NUM_CASES];

/*
 * Build image @c into @buf (at least FWGEN_MAX bytes). Returns its size.
 */
#define FWGEN_MAX	4096
size_t fwgen_build(enum fwgen_case c, uint8_t *buf);
#endif

#endif /* _AMPSOC_RPROC_FWGEN_H */
