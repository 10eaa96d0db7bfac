/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Names that tests/peer/Kbuild gives, with -D on the command line, to
 * entry points of mainline's remoteproc files, so that remoteproc_peer.c
 * can call them (see there).
 */
#ifndef _PEER_REMOTEPROC_PEER_H
#define _PEER_REMOTEPROC_PEER_H

#include <linux/types.h>

/* remoteproc_core.c's module_init and module_exit */
int peer_rproc_core_init(void);
void peer_rproc_core_exit(void);
/* remoteproc_virtio.c's builtin_platform_driver() */
int peer_rproc_virtio_init(void);
/* remoteproc_cdev.c's alloc_chrdev_region(), defined in remoteproc_peer.c */
int peer_rproc_alloc_chrdev_region(dev_t *dev, unsigned int baseminor,
				   unsigned int count, const char *name);

#endif /* _PEER_REMOTEPROC_PEER_H */
