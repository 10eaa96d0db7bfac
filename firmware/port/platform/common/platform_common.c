// SPDX-License-Identifier: GPL-2.0
/*
 * The parts of the hardware seam that every ampsoc core does the same way,
 * on top of the rest of platform.h: memory is mapped at its device
 * addresses, and a vring kick is a mailbox word (the vring's notifyid, as
 * mainline remoteproc drivers pass it) or, without a mailbox, the core's
 * first doorbell.
 */
#include <errno.h>
#include <stddef.h>

#include <amp/platform.h>

#include "common.h"

void *amp_window_find(const struct ampsoc_bootrom_window *w, unsigned int n,
		      uint64_t da, uint64_t len)
{
	unsigned int i;

	for (i = 0; i < n; i++, w++)
		if (da >= w->da && len <= w->len && da - w->da <= w->len - len)
			return (void *)(uintptr_t)da;
	return NULL;
}

uint64_t platform_va_to_da(const void *va)
{
	uint64_t da = (uintptr_t)va;

	return platform_da_to_va(da, 1) ? da : UINT64_MAX;
}

int platform_notify_vq(uint32_t notifyid)
{
	int ret = platform_mbox_send(notifyid);

	if (ret != -ENODEV)
		return ret == -ENOSPC ? 0 : ret;	/* full: rung anyway */
	if (!platform_nr_vectors())
		return -ENODEV;
	return platform_notify(platform_vector(0));
}
