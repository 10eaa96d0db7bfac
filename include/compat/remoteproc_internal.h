/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For drivers written as mainline's in-tree ones, which include the
 * framework's private "remoteproc_internal.h" for rproc_vq_interrupt(),
 * the rproc_elf_* helpers and rproc_set_feature(): ampsoc declares all of
 * them in <linux/remoteproc.h> (include/compat/linux/remoteproc.h) and
 * <ampsoc/remoteproc.h>. Found through the same -I as the compat directory.
 */
#ifndef _AMPSOC_COMPAT_REMOTEPROC_INTERNAL_H
#define _AMPSOC_COMPAT_REMOTEPROC_INTERNAL_H

#include <linux/remoteproc.h>

#endif /* _AMPSOC_COMPAT_REMOTEPROC_INTERNAL_H */
