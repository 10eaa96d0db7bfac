// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/remoteprocN, mainline's character interface: write "start", "stop"
 * or "detach" (the same calls as the sysfs state attribute, with the same
 * results), and the RPROC_{SET,GET}_SHUTDOWN_ON_RELEASE ioctls of
 * <uapi/linux/remoteproc_cdev.h>. With shutdown-on-release set, closing the
 * file stops a running processor or detaches an attached one, so a
 * controlling program that dies does not leave it up.
 */
#include <linux/cdev.h>
#include <linux/compat.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <uapi/linux/remoteproc_cdev.h>

#include "remoteproc_internal.h"

#define AMPSOC_RPROC_NUM_MINORS	64

static dev_t ampsoc_rproc_major_dev;

static ssize_t ampsoc_rproc_cdev_write(struct file *filp, const char __user *ubuf,
				       size_t len, loff_t *pos)
{
	struct rproc *rproc =
		container_of(filp->f_inode->i_cdev, struct rproc, cdev);
	char cmd[11];
	int ret;

	if (!len || len > sizeof(cmd) - 1)
		return -EINVAL;
	if (copy_from_user(cmd, ubuf, len))
		return -EFAULT;
	cmd[len] = '\0';
	/*
	 * As mainline: the bytes written are compared with a prefix of each
	 * command, without a newline ("st" starts, "sto" stops).
	 */
	if (!strncmp(cmd, "start", len)) {
		ret = ampsoc_rproc_boot(rproc);
	} else if (!strncmp(cmd, "stop", len)) {
		ret = ampsoc_rproc_shutdown(rproc);
	} else if (!strncmp(cmd, "detach", len)) {
		ret = ampsoc_rproc_detach(rproc);
	} else {
		dev_err(&rproc->dev, "Unrecognized option\n");
		ret = -EINVAL;
	}
	return ret ? ret : len;
}

static long ampsoc_rproc_cdev_ioctl(struct file *filp, unsigned int ioctl,
				    unsigned long arg)
{
	struct rproc *rproc =
		container_of(filp->f_inode->i_cdev, struct rproc, cdev);
	void __user *argp = (void __user *)arg;
	s32 param;

	switch (ioctl) {
	case RPROC_SET_SHUTDOWN_ON_RELEASE:
		if (copy_from_user(&param, argp, sizeof(s32)))
			return -EFAULT;
		rproc->cdev_put_on_release = !!param;
		return 0;
	case RPROC_GET_SHUTDOWN_ON_RELEASE:
		param = rproc->cdev_put_on_release;
		if (copy_to_user(argp, &param, sizeof(s32)))
			return -EFAULT;
		return 0;
	default:
		dev_err(&rproc->dev, "Unsupported ioctl\n");
		return -EINVAL;
	}
}

static int ampsoc_rproc_cdev_release(struct inode *inode, struct file *filp)
{
	struct rproc *rproc = container_of(inode->i_cdev, struct rproc, cdev);
	unsigned int state = READ_ONCE(rproc->state);

	if (!rproc->cdev_put_on_release)
		return 0;
	if (state == RPROC_RUNNING)
		ampsoc_rproc_shutdown(rproc);
	else if (state == RPROC_ATTACHED)
		return ampsoc_rproc_detach(rproc);
	return 0;
}

static const struct file_operations ampsoc_rproc_cdev_fops = {
	.owner = THIS_MODULE,
	.write = ampsoc_rproc_cdev_write,
	.unlocked_ioctl = ampsoc_rproc_cdev_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.release = ampsoc_rproc_cdev_release,
	.llseek = noop_llseek,
};

/**
 * ampsoc_rproc_cdev_prepare() - initialise a processor's character device
 * @rproc: the processor, before device_add()
 *
 * Context: Process context.
 */
void ampsoc_rproc_cdev_prepare(struct rproc *rproc)
{
	cdev_init(&rproc->cdev, &ampsoc_rproc_cdev_fops);
	rproc->cdev.owner = THIS_MODULE;
	rproc->dev.devt = MKDEV(MAJOR(ampsoc_rproc_major_dev), rproc->index);
}

/**
 * ampsoc_rproc_cdev_add() - add the class device and /dev/remoteprocN together
 * @rproc: the processor
 *
 * Context: Process context.
 * Return: 0 or a negative errno.
 */
int ampsoc_rproc_cdev_add(struct rproc *rproc)
{
	return cdev_device_add(&rproc->cdev, &rproc->dev);
}

/**
 * ampsoc_rproc_cdev_del() - remove the class device and /dev/remoteprocN
 * @rproc: the processor
 *
 * Context: Process context.
 */
void ampsoc_rproc_cdev_del(struct rproc *rproc)
{
	cdev_device_del(&rproc->cdev, &rproc->dev);
}

/**
 * ampsoc_rproc_cdev_init() - reserve the "remoteproc" character device numbers
 *
 * Context: Module init.
 * Return: 0 or a negative errno.
 */
int ampsoc_rproc_cdev_init(void)
{
	return alloc_chrdev_region(&ampsoc_rproc_major_dev, 0, AMPSOC_RPROC_NUM_MINORS,
				   "remoteproc");
}

/**
 * ampsoc_rproc_cdev_exit() - release the character device numbers
 *
 * Context: Module exit.
 */
void ampsoc_rproc_cdev_exit(void)
{
	unregister_chrdev_region(ampsoc_rproc_major_dev, AMPSOC_RPROC_NUM_MINORS);
}
