/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ampsoc PM-domain test fixture: the device setup and teardown the KTAP
 * modules of tests/kmod/pmdomain share.
 *
 * Each of those modules builds from one file, so the fixture is a header
 * of static inline functions rather than an object linked into each. The
 * domains themselves stay in the modules: each wraps struct ampsoc_pd in
 * its own type with its own callbacks. Device ids are the caller's, so
 * that every module keeps its own counter and device names.
 */
#ifndef _AMPSOC_PD_FIXTURE_H
#define _AMPSOC_PD_FIXTURE_H

#include <ampsoc/pm_domain.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/platform_device.h>
#include <linux/pm_runtime.h>
#include <linux/property.h>

/**
 * ampsoc_pdfx_dev_new() - a platform device in a domain, idle and synced
 * @pd: the domain to add the device to before registration, or NULL
 * @drv: device name, which picks the driver that binds it
 * @id: platform device id
 * @need_drv: fail unless a driver bound the device in platform_device_add()
 *
 * Adds the device to @pd, registers it, then runs one runtime resume and
 * suspend so that the domain counts the device as idle.
 *
 * Context: process context, may sleep.
 * Return: the device, or NULL if any step failed (all undone).
 */
static inline struct platform_device *
ampsoc_pdfx_dev_new(struct ampsoc_pd *pd, const char *drv, int id,
		    bool need_drv)
{
	struct platform_device *p = platform_device_alloc(drv, id);

	if (!p)
		return NULL;
	if (pd && ampsoc_pd_add_device(pd, &p->dev))
		goto err_put;
	if (platform_device_add(p))
		goto err_rm;
	if (need_drv && !p->dev.driver)
		goto err_unreg;
	/* One resume/suspend cycle tells the domain the device is idle. */
	if (pm_runtime_resume_and_get(&p->dev) < 0)
		goto err_unreg;
	pm_runtime_put_sync(&p->dev);
	return p;

err_unreg:
	if (pd)
		ampsoc_pd_remove_device(&p->dev);
	platform_device_unregister(p);
	return NULL;
err_rm:
	if (pd)
		ampsoc_pd_remove_device(&p->dev);
err_put:
	platform_device_put(p);
	return NULL;
}

/**
 * ampsoc_pdfx_dev_del() - undo ampsoc_pdfx_dev_new()
 * @p: the device, or NULL
 *
 * Takes the device out of its domain if it is still in one, then
 * unregisters it.
 *
 * Context: process context, may sleep.
 */
static inline void ampsoc_pdfx_dev_del(struct platform_device *p)
{
	if (!p)
		return;
	if (ampsoc_pd_of_dev(&p->dev))
		ampsoc_pd_remove_device(&p->dev);
	platform_device_unregister(p);
}

/**
 * ampsoc_pdfx_node_dev_new() - a registered device with a software node
 * @name: device name, which picks the driver that binds it, if any
 * @id: platform device id
 * @node: software node to attach before registration, or NULL
 *
 * The device is in no domain and gets no runtime PM cycle.
 *
 * Context: process context, may sleep.
 * Return: the device, or NULL if any step failed (all undone).
 */
static inline struct platform_device *
ampsoc_pdfx_node_dev_new(const char *name, int id,
			 const struct software_node *node)
{
	struct platform_device *p = platform_device_alloc(name, id);

	if (!p)
		return NULL;
	if (node && device_add_software_node(&p->dev, node))
		goto err;
	if (platform_device_add(p))
		goto err_node;
	return p;

err_node:
	device_remove_software_node(&p->dev);
err:
	platform_device_put(p);
	return NULL;
}

/**
 * ampsoc_pdfx_node_dev_del() - undo ampsoc_pdfx_node_dev_new()
 * @p: the device, or NULL
 *
 * Unregisters the device and removes its software node, if it has one.
 * It does not take the device out of a domain.
 *
 * Context: process context, may sleep.
 */
static inline void ampsoc_pdfx_node_dev_del(struct platform_device *p)
{
	if (!p)
		return;
	platform_device_del(p);
	device_remove_software_node(&p->dev);
	platform_device_put(p);
}

/**
 * ampsoc_pdfx_read_path() - read a (debugfs or sysfs) file into a string
 * @path: absolute path of the file
 * @buf: where to put the contents, NUL-terminated
 * @len: size of @buf, at least 1
 *
 * Reads at most @len - 1 bytes.
 *
 * Context: process context, may sleep.
 * Return: the number of bytes read, or a negative errno if @path does not
 * open.
 */
static inline ssize_t ampsoc_pdfx_read_path(const char *path, char *buf,
					    size_t len)
{
	struct file *f = filp_open(path, O_RDONLY, 0);
	loff_t pos = 0;
	ssize_t n, total = 0;

	if (IS_ERR(f))
		return PTR_ERR(f);
	while (total < len - 1) {
		n = kernel_read(f, buf + total, len - 1 - total, &pos);
		if (n <= 0)
			break;
		total += n;
	}
	buf[total] = 0;
	filp_close(f, NULL);
	return total;
}

#endif /* _AMPSOC_PD_FIXTURE_H */
