// SPDX-License-Identifier: GPL-2.0
/*
 * Module entry points of the peer stack's remoteproc.ko (tests/peer/Kbuild).
 *
 * In 6.1, CONFIG_REMOTEPROC is a bool: mainline's remoteproc is always
 * built in. It runs remoteproc_init() at subsys_initcall and registers the
 * "rproc-virtio" platform driver at device_initcall, and part of that is
 * never undone. As one module, both would be init_module, so the Kbuild
 * renames them (peer_rproc_core_init/exit, peer_rproc_virtio_init) and
 * this file calls them in mainline's order, and undoes on unload what the
 * core's exit leaves:
 * - the rproc-virtio driver has no exit of its own: it is looked up by
 *   name and unregistered here;
 * - the char device region of /dev/remoteprocN is never released:
 *   remoteproc_cdev.c's alloc_chrdev_region() comes here (Kbuild), which
 *   records the region, and it is released here. Left registered, its
 *   name in /proc/devices would point into the unloaded module.
 */
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/platform_device.h>

#include "remoteproc_peer.h"

static dev_t peer_rproc_region;
static unsigned int peer_rproc_region_count;

int peer_rproc_alloc_chrdev_region(dev_t *dev, unsigned int baseminor,
				   unsigned int count, const char *name)
{
	int ret = alloc_chrdev_region(dev, baseminor, count, name);

	if (!ret) {
		peer_rproc_region = *dev;
		peer_rproc_region_count = count;
	}
	return ret;
}

static void peer_rproc_virtio_exit(void)
{
	struct device_driver *drv = driver_find("rproc-virtio",
						&platform_bus_type);

	if (drv)
		platform_driver_unregister(to_platform_driver(drv));
}

static int __init peer_remoteproc_init(void)
{
	int ret;

	/*
	 * The driver first: its devices only come from the core (one per
	 * vdev of a booting processor), so it stays idle until then, and a
	 * failing core init needs no __exit code to be undone.
	 */
	ret = peer_rproc_virtio_init();
	if (ret)
		return ret;
	ret = peer_rproc_core_init();
	if (ret)
		peer_rproc_virtio_exit();
	return ret;
}
module_init(peer_remoteproc_init);

static void __exit peer_remoteproc_exit(void)
{
	peer_rproc_core_exit();
	if (peer_rproc_region_count)
		unregister_chrdev_region(peer_rproc_region,
					 peer_rproc_region_count);
	peer_rproc_virtio_exit();
}
module_exit(peer_remoteproc_exit);
