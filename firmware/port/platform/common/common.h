/* SPDX-License-Identifier: GPL-2.0 */
/* What the platform_ ports share (port/platform/common/platform_common.c). */
#ifndef _AMP_PORT_COMMON_H
#define _AMP_PORT_COMMON_H

#include <stdint.h>

#include <uapi/ampsoc/bootrom.h>

/* @da..@da+@len as a pointer if it lies in one of the @n windows @w. */
void *amp_window_find(const struct ampsoc_bootrom_window *w, unsigned int n,
		      uint64_t da, uint64_t len);

#endif /* _AMP_PORT_COMMON_H */
