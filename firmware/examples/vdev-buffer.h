/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rpmsg samples' "vdev0buffer" carveout, where ampsoc's Linux side puts
 * the rpmsg buffers and writes back their physical address. Built with
 * SAMPLE_NO_VDEV_BUFFER (the -nobuf images), a sample has no such
 * carveout: Linux allocates the buffers where it likes, as mainline Linux
 * on a kernel without CONFIG_DMA_DECLARE_COHERENT must (it fails a vdev
 * whose firmware has that carveout). These images run on mainline's stack
 * (docs/firmware-sdk.md, "Images for mainline's stack").
 * Included after the sample's resource table is declared.
 */
#ifndef _SAMPLE_VDEV_BUFFER_H
#define _SAMPLE_VDEV_BUFFER_H

#include <errno.h>

#include <amp/rpmsg.h>

#ifdef SAMPLE_NO_VDEV_BUFFER
#define SAMPLE_HAS_VDEV_BUFFER	0
#define sample_use_vdev_buffer(rdev)	(-ENOENT)
#else
#define SAMPLE_HAS_VDEV_BUFFER	1
#define sample_use_vdev_buffer(rdev) \
	amp_rpmsg_use_carveout((rdev), &amp_resource_table.bufs)
#endif

/* How descriptors address buffers, for the sample's "link up" line. */
static inline const char *sample_buffers_by(const struct amp_rpmsg_dev *rdev,
					    int carveout_ret)
{
	if (!carveout_ret)
		return "buffers by physical address";
	if (rdev->txq.bus_size)
		return "buffers by bus address in Linux's DRAM";
	return "buffers by device address";
}

#endif /* _SAMPLE_VDEV_BUFFER_H */
