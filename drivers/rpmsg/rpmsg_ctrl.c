// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc rpmsg control devices, /dev/rpmsg_ctrlN, one per transport, on
 * mainline's ABI: RPMSG_CREATE_EPT_IOCTL makes an endpoint device
 * /dev/rpmsgM, RPMSG_CREATE_DEV_IOCTL and RPMSG_RELEASE_DEV_IOCTL add and
 * remove local (announced) channels.
 */
#include <linux/cdev.h>
#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <uapi/linux/rpmsg.h>

#include "rpmsg_internal.h"

#define RPMSG_DEV_MAX	(MINORMASK + 1)

static dev_t rpmsg_ctrl_major;
static DEFINE_IDA(rpmsg_ctrl_ida);
static DEFINE_IDA(rpmsg_ctrl_minor_ida);

/**
 * struct rpmsg_ctrldev - a control device
 * @rpdev: the transport's rpmsg_ctrl channel
 * @cdev: the character device
 * @dev: the device, class "rpmsg"
 * @ctrl_lock: serialises ioctls against removal
 */
struct rpmsg_ctrldev {
	struct rpmsg_device *rpdev;
	struct cdev cdev;
	struct device dev;
	struct mutex ctrl_lock;	/* ioctls vs. removal */
};

#define dev_to_ctrldev(d) container_of(d, struct rpmsg_ctrldev, dev)
#define cdev_to_ctrldev(c) container_of(c, struct rpmsg_ctrldev, cdev)

static int rpmsg_ctrldev_open(struct inode *inode, struct file *filp)
{
	struct rpmsg_ctrldev *ctrldev = cdev_to_ctrldev(inode->i_cdev);

	get_device(&ctrldev->dev);
	filp->private_data = ctrldev;
	return 0;
}

static int rpmsg_ctrldev_release(struct inode *inode, struct file *filp)
{
	struct rpmsg_ctrldev *ctrldev = cdev_to_ctrldev(inode->i_cdev);

	put_device(&ctrldev->dev);
	return 0;
}

static long rpmsg_ctrldev_ioctl(struct file *fp, unsigned int cmd,
				unsigned long arg)
{
	struct rpmsg_ctrldev *ctrldev = fp->private_data;
	void __user *argp = (void __user *)arg;
	struct rpmsg_endpoint_info eptinfo;
	struct rpmsg_channel_info chinfo = {};
	int ret = 0;

	/* as mainline: the argument is read first, whatever the command */
	if (copy_from_user(&eptinfo, argp, sizeof(eptinfo)))
		return -EFAULT;
	if (cmd != RPMSG_CREATE_EPT_IOCTL && cmd != RPMSG_CREATE_DEV_IOCTL &&
	    cmd != RPMSG_RELEASE_DEV_IOCTL)
		return -EINVAL;
	memcpy(chinfo.name, eptinfo.name, RPMSG_NAME_SIZE);
	chinfo.name[RPMSG_NAME_SIZE - 1] = '\0';
	chinfo.src = eptinfo.src;
	chinfo.dst = eptinfo.dst;

	mutex_lock(&ctrldev->ctrl_lock);
	if (!ctrldev->rpdev) {
		ret = -ENODEV;
		goto out;
	}
	switch (cmd) {
	case RPMSG_CREATE_EPT_IOCTL:
		ret = ampsoc_rpmsg_chrdev_eptdev_create(ctrldev->rpdev,
							&ctrldev->dev, chinfo);
		break;
	case RPMSG_CREATE_DEV_IOCTL:
		if (!ampsoc_rpmsg_create_channel(ctrldev->rpdev, &chinfo)) {
			dev_err(&ctrldev->dev, "failed to create %s channel\n",
				chinfo.name);
			ret = -ENXIO;
		}
		break;
	case RPMSG_RELEASE_DEV_IOCTL:
		/*
		 * The bus's own devices are not userspace's to release:
		 * removing this control device would wait for this very
		 * ioctl (ctrl_lock), and without the name service the remote
		 * could no longer announce anything.
		 */
		if (!strcmp(chinfo.name, "rpmsg_ctrl") ||
		    !strcmp(chinfo.name, "rpmsg_ns")) {
			dev_err_ratelimited(&ctrldev->dev,
					    "refusing to release the bus's own %s\n",
					    chinfo.name);
			ret = -EPERM;
			break;
		}
		ret = ampsoc_rpmsg_release_channel(ctrldev->rpdev, &chinfo);
		if (ret)
			dev_err(&ctrldev->dev, "failed to release %s channel (%d)\n",
				chinfo.name, ret);
		break;
	}
out:
	mutex_unlock(&ctrldev->ctrl_lock);
	return ret;
}

static const struct file_operations rpmsg_ctrldev_fops = {
	.owner = THIS_MODULE,
	.open = rpmsg_ctrldev_open,
	.release = rpmsg_ctrldev_release,
	.unlocked_ioctl = rpmsg_ctrldev_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

static void rpmsg_ctrldev_release_device(struct device *dev)
{
	struct rpmsg_ctrldev *ctrldev = dev_to_ctrldev(dev);

	ida_free(&rpmsg_ctrl_ida, dev->id);
	ida_free(&rpmsg_ctrl_minor_ida, MINOR(dev->devt));
	kfree(ctrldev);
}

static int rpmsg_ctrldev_probe(struct rpmsg_device *rpdev)
{
	struct rpmsg_ctrldev *ctrldev;
	struct device *dev;
	int ret;

	ctrldev = kzalloc(sizeof(*ctrldev), GFP_KERNEL);
	if (!ctrldev)
		return -ENOMEM;
	ctrldev->rpdev = rpdev;
	mutex_init(&ctrldev->ctrl_lock);
	dev = &ctrldev->dev;
	device_initialize(dev);
	dev->parent = &rpdev->dev;
	dev->class = ampsoc_rpmsg_class;
	cdev_init(&ctrldev->cdev, &rpmsg_ctrldev_fops);
	ctrldev->cdev.owner = THIS_MODULE;

	ret = ida_alloc_max(&rpmsg_ctrl_minor_ida, RPMSG_DEV_MAX - 1,
			    GFP_KERNEL);
	if (ret < 0) {
		kfree(ctrldev);
		return ret;
	}
	dev->devt = MKDEV(MAJOR(rpmsg_ctrl_major), ret);
	ret = ida_alloc(&rpmsg_ctrl_ida, GFP_KERNEL);
	if (ret < 0) {
		ida_free(&rpmsg_ctrl_minor_ida, MINOR(dev->devt));
		kfree(ctrldev);
		return ret;
	}
	dev->id = ret;
	dev_set_name(dev, "rpmsg_ctrl%d", ret);
	dev->release = rpmsg_ctrldev_release_device;

	ret = cdev_device_add(&ctrldev->cdev, dev);
	if (ret) {
		dev_err(&rpdev->dev, "cdev_device_add failed: %d\n", ret);
		put_device(dev);
		return ret;
	}
	dev_set_drvdata(&rpdev->dev, ctrldev);
	return 0;
}

static void rpmsg_ctrldev_remove(struct rpmsg_device *rpdev)
{
	struct rpmsg_ctrldev *ctrldev = dev_get_drvdata(&rpdev->dev);

	mutex_lock(&ctrldev->ctrl_lock);
	ctrldev->rpdev = NULL;
	mutex_unlock(&ctrldev->ctrl_lock);
	device_for_each_child(&ctrldev->dev, NULL,
			      ampsoc_rpmsg_chrdev_eptdev_destroy);
	cdev_device_del(&ctrldev->cdev, &ctrldev->dev);
	put_device(&ctrldev->dev);
}

static struct rpmsg_driver rpmsg_ctrldev_driver = {
	.probe = rpmsg_ctrldev_probe,
	.remove = rpmsg_ctrldev_remove,
	.drv.name = "rpmsg_ctrl",
};

int ampsoc_rpmsg_ctrl_init(void)
{
	int ret;

	ret = alloc_chrdev_region(&rpmsg_ctrl_major, 0, RPMSG_DEV_MAX,
				  "rpmsg_ctrl");
	if (ret < 0) {
		pr_err("failed to allocate char dev region\n");
		return ret;
	}
	ret = ampsoc_rpmsg_register_driver(&rpmsg_ctrldev_driver);
	if (ret) {
		pr_err("failed to register rpmsg_ctrl: %d\n", ret);
		unregister_chrdev_region(rpmsg_ctrl_major, RPMSG_DEV_MAX);
	}
	return ret;
}

void ampsoc_rpmsg_ctrl_exit(void)
{
	ampsoc_rpmsg_unregister_driver(&rpmsg_ctrldev_driver);
	unregister_chrdev_region(rpmsg_ctrl_major, RPMSG_DEV_MAX);
}
