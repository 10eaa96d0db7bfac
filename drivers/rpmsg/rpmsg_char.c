// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc rpmsg endpoint character devices, /dev/rpmsgN, on mainline's ABI
 * (<linux/rpmsg.h>): one message per read() and write(), poll, O_NONBLOCK,
 * RPMSG_DESTROY_EPT_IOCTL and the flow-control ioctls that mainline added
 * after 6.1. Endpoint devices are made by /dev/rpmsg_ctrlN
 * (RPMSG_CREATE_EPT_IOCTL) or bound to channels named "rpmsg-raw".
 *
 * The rx queue is bounded (rxq_max, 512). With flow control negotiated
 * the device asks the remote to pause at rxq_pause (64) queued messages and
 * to resume when the queue drains to a quarter of that, so a slow reader
 * throttles its sender instead of losing messages: the bound leaves room
 * for a full rx ring (256) in flight after the pause. Without flow
 * control, messages beyond the bound are dropped and counted in sysfs
 * ("dropped").
 */
#include <linux/cdev.h>
#include <linux/completion.h>
#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/module.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/uio.h>
#include <linux/workqueue.h>
#include <uapi/linux/rpmsg.h>

#include "rpmsg_internal.h"

#ifndef RPMSG_GET_OUTGOING_FLOWCONTROL
#define RPMSG_GET_OUTGOING_FLOWCONTROL	_IOR(0xb5, 0x5, int)
#define RPMSG_SET_INCOMING_FLOWCONTROL	_IOR(0xb5, 0x6, int)
#endif

#define RPMSG_DEV_MAX	(MINORMASK + 1)

static unsigned int rxq_max = 512;
module_param(rxq_max, uint, 0644);
MODULE_PARM_DESC(rxq_max, "messages queued per endpoint device before dropping");

static unsigned int rxq_pause = 64;
module_param(rxq_pause, uint, 0644);
MODULE_PARM_DESC(rxq_pause, "queue length at which the remote sender is paused");

static dev_t rpmsg_major;
static DEFINE_IDA(rpmsg_ept_ida);
static DEFINE_IDA(rpmsg_minor_ida);

/**
 * struct rpmsg_eptdev - an endpoint character device
 * @dev: the device, class "rpmsg"
 * @cdev: the character device
 * @rpdev: the channel the endpoint is created on
 * @chinfo: name and addresses
 * @ept_lock: protects @ept; users of the endpoint (write, poll, ioctls)
 *            share it, open/close/destroy take it exclusively
 * @fc_lock: serialises flow-control messages and @sent_paused
 * @ept: the endpoint while the device is open
 * @default_ept: the channel's own endpoint ("rpmsg-raw"), or NULL
 * @queue_lock: protects @queue, @qlen and the flow-control state
 * @queue: received messages (struct rpmsg_eptdev_msg), oldest first
 * @qlen: number of messages on @queue
 * @readq: readers and pollers
 * @dropped: messages dropped because the queue was full
 * @peer: remote address last heard from, for flow control
 * @auto_paused: we paused the peer because the queue filled
 * @user_paused: userspace paused the peer
 * @sent_paused: pause state the remote last heard from us
 * @remote_flow: the remote accepts our traffic
 * @remote_flow_updated: @remote_flow changed since last read (EPOLLPRI)
 * @fc_work: sends flow-control changes outside the rx path
 * @registered: cdev_device_add() succeeded (written under @ept_lock)
 * @add_done: completed once cdev_device_add() has returned: the node can be
 *	opened, and told to destroy its device, before that
 */
struct rpmsg_eptdev {
	struct device dev;
	struct cdev cdev;
	struct rpmsg_device *rpdev;
	struct rpmsg_channel_info chinfo;
	struct rw_semaphore ept_lock;	/* ept: write to change, read to use */
	struct mutex fc_lock;		/* sent_paused */
	struct rpmsg_endpoint *ept;
	struct rpmsg_endpoint *default_ept;
	spinlock_t queue_lock;		/* protects queue, qlen and fc state */
	struct list_head queue;
	unsigned int qlen;
	wait_queue_head_t readq;
	unsigned long dropped;
	u32 peer;
	bool auto_paused, user_paused, sent_paused;
	bool remote_flow, remote_flow_updated;
	struct work_struct fc_work;
	bool registered;
	struct completion add_done;
};

/**
 * struct rpmsg_eptdev_msg - a received message waiting for read()
 * @node: on the device's queue
 * @len: payload bytes
 * @data: the payload
 *
 * One allocation per message, where an sk_buff takes two and carries
 * state this queue never uses.
 */
struct rpmsg_eptdev_msg {
	struct list_head node;
	size_t len;
	u8 data[];
};

#define dev_to_eptdev(d) container_of(d, struct rpmsg_eptdev, dev)
#define cdev_to_eptdev(c) container_of(c, struct rpmsg_eptdev, cdev)

/* Count a message the full rx queue has no room for. */
static int rpmsg_eptdev_drop(struct rpmsg_eptdev *eptdev,
			     struct rpmsg_eptdev_msg *m)
{
	spin_lock(&eptdev->queue_lock);
	eptdev->dropped++;
	spin_unlock(&eptdev->queue_lock);
	dev_dbg_ratelimited(&eptdev->dev, "rx queue full, dropped\n");
	kfree(m);
	return -ENOBUFS;
}

/* Free every queued message; the caller owns the queue. */
static void rpmsg_eptdev_purge(struct rpmsg_eptdev *eptdev)
{
	struct rpmsg_eptdev_msg *m, *n;

	list_for_each_entry_safe(m, n, &eptdev->queue, node)
		kfree(m);
	INIT_LIST_HEAD(&eptdev->queue);
	WRITE_ONCE(eptdev->qlen, 0);
}

static int rpmsg_ept_cb(struct rpmsg_device *rpdev, void *buf, int len,
			void *priv, u32 addr)
{
	struct rpmsg_eptdev *eptdev = priv;
	struct rpmsg_eptdev_msg *m;
	bool fc = false;

	if (!eptdev)
		return 0;
	/*
	 * A full queue drops the message before anything is allocated for
	 * it, so a flooding remote costs no allocator work; the check under
	 * the lock below stays the exact one. Callbacks run in process
	 * context: GFP_KERNEL leaves the atomic reserves alone and lets the
	 * allocator reclaim (and KASAN drain its quarantine) under pressure.
	 */
	if (READ_ONCE(eptdev->qlen) >= rxq_max)
		return rpmsg_eptdev_drop(eptdev, NULL);
	/* @len is at most the transport's buffer size */
	m = kmalloc(struct_size(m, data, len), GFP_KERNEL);
	if (!m)
		return -ENOMEM;
	m->len = len;
	memcpy(m->data, buf, len);

	spin_lock(&eptdev->queue_lock);
	if (eptdev->qlen >= rxq_max) {
		spin_unlock(&eptdev->queue_lock);
		return rpmsg_eptdev_drop(eptdev, m);
	}
	list_add_tail(&m->node, &eptdev->queue);
	WRITE_ONCE(eptdev->qlen, eptdev->qlen + 1);
	if (addr != RPMSG_ADDR_ANY)
		eptdev->peer = addr;
	if (!eptdev->auto_paused &&
	    eptdev->qlen >= max(rxq_pause, 1U)) {
		eptdev->auto_paused = true;
		fc = true;
	}
	spin_unlock(&eptdev->queue_lock);

	/*
	 * The transport's rx path runs at high priority; a pause queued at
	 * normal priority could wait behind the very flood it is meant to
	 * stop until the queue overflows.
	 */
	if (fc)
		queue_work(system_highpri_wq, &eptdev->fc_work);
	wake_up_interruptible(&eptdev->readq);
	return 0;
}

static int rpmsg_ept_flow_cb(struct rpmsg_device *rpdev, void *priv,
			     bool enable)
{
	struct rpmsg_eptdev *eptdev = priv;

	if (!eptdev)
		return 0;
	spin_lock(&eptdev->queue_lock);
	eptdev->remote_flow = enable;
	eptdev->remote_flow_updated = true;
	spin_unlock(&eptdev->queue_lock);
	wake_up_interruptible(&eptdev->readq);
	return 0;
}

/* Tell the remote our pause state when it changed. */
static void rpmsg_eptdev_fc_work(struct work_struct *work)
{
	struct rpmsg_eptdev *eptdev = container_of(work, struct rpmsg_eptdev,
						   fc_work);
	bool pause;
	u32 dst;
	int ret;

	down_read(&eptdev->ept_lock);
	mutex_lock(&eptdev->fc_lock);
	if (!eptdev->ept)
		goto out;
	spin_lock(&eptdev->queue_lock);
	pause = eptdev->auto_paused || eptdev->user_paused;
	dst = eptdev->chinfo.dst != RPMSG_ADDR_ANY ? eptdev->chinfo.dst :
		eptdev->peer;
	spin_unlock(&eptdev->queue_lock);
	if (pause == eptdev->sent_paused || dst == RPMSG_ADDR_ANY)
		goto out;
	ret = ampsoc_rpmsg_set_flow_control(eptdev->ept, pause, dst);
	if (!ret)
		eptdev->sent_paused = pause;
	else if (ret != -EOPNOTSUPP)
		dev_dbg(&eptdev->dev, "flow control: %d\n", ret);
out:
	mutex_unlock(&eptdev->fc_lock);
	up_read(&eptdev->ept_lock);
}

static int rpmsg_eptdev_open(struct inode *inode, struct file *filp)
{
	struct rpmsg_eptdev *eptdev = cdev_to_eptdev(inode->i_cdev);
	struct rpmsg_endpoint *ept;

	down_write(&eptdev->ept_lock);
	if (eptdev->ept) {
		up_write(&eptdev->ept_lock);
		return -EBUSY;
	}
	if (!eptdev->rpdev) {
		up_write(&eptdev->ept_lock);
		return -ENODEV;
	}
	get_device(&eptdev->dev);
	if (eptdev->default_ept) {
		ept = eptdev->default_ept;
		/* same level as destruction: see __rpmsg_destroy_ept() */
		mutex_lock_nested(&ept->cb_lock, SINGLE_DEPTH_NESTING);
		ept->priv = eptdev;
		mutex_unlock(&ept->cb_lock);
	} else {
		ept = ampsoc_rpmsg_create_ept(eptdev->rpdev, rpmsg_ept_cb,
					      eptdev, eptdev->chinfo);
		if (!ept) {
			dev_err(&eptdev->dev, "failed to create endpoint\n");
			put_device(&eptdev->dev);
			up_write(&eptdev->ept_lock);
			return -EINVAL;
		}
		ept->flow_cb = rpmsg_ept_flow_cb;
	}
	eptdev->ept = ept;
	eptdev->remote_flow = true;
	eptdev->remote_flow_updated = false;
	eptdev->auto_paused = false;
	eptdev->user_paused = false;
	eptdev->sent_paused = false;
	eptdev->peer = RPMSG_ADDR_ANY;
	filp->private_data = eptdev;
	up_write(&eptdev->ept_lock);
	return 0;
}

/* Drop the endpoint; caller holds ept_lock for writing. */
static void rpmsg_eptdev_drop_ept(struct rpmsg_eptdev *eptdev)
{
	struct rpmsg_endpoint *ept = eptdev->ept;

	if (!ept)
		return;
	eptdev->ept = NULL;
	if (eptdev->default_ept) {
		/* may run under the name service's callback: nest one level */
		mutex_lock_nested(&ept->cb_lock, SINGLE_DEPTH_NESTING);
		ept->priv = NULL;
		mutex_unlock(&ept->cb_lock);
	} else {
		ampsoc_rpmsg_destroy_ept(ept);
	}
}

static int rpmsg_eptdev_release(struct inode *inode, struct file *filp)
{
	struct rpmsg_eptdev *eptdev = cdev_to_eptdev(inode->i_cdev);

	cancel_work_sync(&eptdev->fc_work);
	down_write(&eptdev->ept_lock);
	/* Do not leave the remote paused by an endpoint that is going away. */
	if (eptdev->ept && eptdev->sent_paused) {
		u32 dst = eptdev->chinfo.dst != RPMSG_ADDR_ANY ?
			eptdev->chinfo.dst : eptdev->peer;

		ampsoc_rpmsg_set_flow_control(eptdev->ept, false, dst);
	}
	rpmsg_eptdev_drop_ept(eptdev);
	up_write(&eptdev->ept_lock);
	cancel_work_sync(&eptdev->fc_work);
	/* No callback runs any more: the queue is ours. */
	rpmsg_eptdev_purge(eptdev);
	put_device(&eptdev->dev);
	return 0;
}

static bool rpmsg_eptdev_gone(struct rpmsg_eptdev *eptdev)
{
	return !READ_ONCE(eptdev->ept);
}

static ssize_t rpmsg_eptdev_read_iter(struct kiocb *iocb, struct iov_iter *to)
{
	struct rpmsg_eptdev *eptdev = iocb->ki_filp->private_data;
	struct rpmsg_eptdev_msg *m;
	bool resume = false;
	size_t use;

	/* as mainline: once the endpoint is gone, what it queued is too */
	if (rpmsg_eptdev_gone(eptdev))
		return -EPIPE;
	spin_lock(&eptdev->queue_lock);
	while (list_empty(&eptdev->queue)) {
		spin_unlock(&eptdev->queue_lock);
		if (rpmsg_eptdev_gone(eptdev))
			return -EPIPE;
		if (iocb->ki_filp->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(eptdev->readq,
					     READ_ONCE(eptdev->qlen) ||
					     rpmsg_eptdev_gone(eptdev)))
			return -ERESTARTSYS;
		spin_lock(&eptdev->queue_lock);
	}
	m = list_first_entry(&eptdev->queue, struct rpmsg_eptdev_msg, node);
	list_del(&m->node);
	WRITE_ONCE(eptdev->qlen, eptdev->qlen - 1);
	if (eptdev->auto_paused && eptdev->qlen <= rxq_pause / 4) {
		eptdev->auto_paused = false;
		resume = true;
	}
	spin_unlock(&eptdev->queue_lock);
	if (resume)
		queue_work(system_highpri_wq, &eptdev->fc_work);

	use = min_t(size_t, iov_iter_count(to), m->len);
	if (copy_to_iter(m->data, use, to) != use)
		use = -EFAULT;
	kfree(m);
	return use;
}

/*
 * Copy the payload straight into a tx buffer and send that: no bounce
 * buffer, and one copy instead of two. Returns -EOPNOTSUPP when the
 * transport has no zero-copy tx, and -EAGAIN when the remote paused this
 * endpoint; the caller then takes the copying path, which waits for flow.
 */
static int rpmsg_eptdev_send_direct(struct rpmsg_eptdev *eptdev,
				    struct iov_iter *from, size_t len,
				    bool nonblock)
{
	struct rpmsg_endpoint *ept = eptdev->ept;
	unsigned int room;
	void *buf;
	int ret;

	if (!ampsoc_rpmsg_get_outgoing_flow(ept))
		return -EAGAIN;
	buf = ampsoc_rpmsg_get_tx_buffer(ept, &room, !nonblock);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	if (len > room) {
		ret = -EMSGSIZE;
	} else if (!copy_from_iter_full(buf, len, from)) {
		ret = -EFAULT;
	} else {
		ret = ampsoc_rpmsg_sendto_nocopy(ept, buf, len,
						 eptdev->chinfo.dst);
		if (ret == -EAGAIN)	/* paused since: undo the copy */
			iov_iter_revert(from, len);
	}
	if (ret)
		ampsoc_rpmsg_release_tx_buffer(ept, buf);
	return ret;
}

static ssize_t rpmsg_eptdev_write_iter(struct kiocb *iocb,
				       struct iov_iter *from)
{
	struct rpmsg_eptdev *eptdev = iocb->ki_filp->private_data;
	bool nonblock = iocb->ki_filp->f_flags & O_NONBLOCK;
	size_t len = iov_iter_count(from);
	ssize_t mtu;
	void *kbuf;
	int ret;

	down_read(&eptdev->ept_lock);
	if (!eptdev->ept) {
		ret = -EPIPE;
		goto unlock;
	}
	mtu = ampsoc_rpmsg_get_mtu(eptdev->ept);
	if (mtu < 0 || len > mtu) {
		ret = mtu < 0 ? mtu : -EMSGSIZE;
		goto unlock;
	}
	ret = rpmsg_eptdev_send_direct(eptdev, from, len, nonblock);
	if (ret != -EOPNOTSUPP && (ret != -EAGAIN || nonblock))
		goto unlock;
	/* copy_from_iter_full() writes all of it: no need to zero it first */
	kbuf = kmalloc(len ?: 1, GFP_KERNEL);
	if (!kbuf) {
		ret = -ENOMEM;
		goto unlock;
	}
	if (!copy_from_iter_full(kbuf, len, from)) {
		ret = -EFAULT;
		goto free;
	}
	if (nonblock)
		ret = ampsoc_rpmsg_trysendto(eptdev->ept, kbuf, len,
					     eptdev->chinfo.dst);
	else
		ret = ampsoc_rpmsg_sendto(eptdev->ept, kbuf, len,
					  eptdev->chinfo.dst);
free:
	kfree(kbuf);
unlock:
	up_read(&eptdev->ept_lock);
	if (ret == -ENOMEM && nonblock)
		ret = -EAGAIN;
	return ret < 0 ? ret : len;
}

static __poll_t rpmsg_eptdev_poll(struct file *filp, poll_table *wait)
{
	struct rpmsg_eptdev *eptdev = filp->private_data;
	__poll_t mask = 0;

	poll_wait(filp, &eptdev->readq, wait);
	down_read(&eptdev->ept_lock);
	if (!eptdev->ept) {
		up_read(&eptdev->ept_lock);
		return EPOLLERR;
	}
	if (READ_ONCE(eptdev->qlen))
		mask |= EPOLLIN | EPOLLRDNORM;
	if (READ_ONCE(eptdev->remote_flow_updated))
		mask |= EPOLLPRI;
	mask |= ampsoc_rpmsg_poll(eptdev->ept, filp, wait);
	up_read(&eptdev->ept_lock);
	return mask;
}

static long rpmsg_eptdev_ioctl(struct file *fp, unsigned int cmd,
			       unsigned long arg)
{
	struct rpmsg_eptdev *eptdev = fp->private_data;
	int ret = 0;
	int flow;

	switch (cmd) {
	case RPMSG_GET_OUTGOING_FLOWCONTROL:
		down_read(&eptdev->ept_lock);
		if (!eptdev->ept) {
			up_read(&eptdev->ept_lock);
			return -EPIPE;
		}
		flow = ampsoc_rpmsg_get_outgoing_flow(eptdev->ept);
		up_read(&eptdev->ept_lock);
		if (flow < 0)
			return flow;
		WRITE_ONCE(eptdev->remote_flow_updated, false);
		return put_user(flow, (int __user *)arg);
	case RPMSG_SET_INCOMING_FLOWCONTROL:
		if (arg > 1)
			return -EINVAL;
		down_read(&eptdev->ept_lock);
		mutex_lock(&eptdev->fc_lock);
		if (!eptdev->ept) {
			ret = -EPIPE;
		} else {
			u32 dst = eptdev->chinfo.dst != RPMSG_ADDR_ANY ?
				eptdev->chinfo.dst : READ_ONCE(eptdev->peer);

			if (dst == RPMSG_ADDR_ANY)
				ret = -EDESTADDRREQ;
			else
				ret = ampsoc_rpmsg_set_flow_control(eptdev->ept,
								    arg, dst);
			if (!ret) {
				spin_lock(&eptdev->queue_lock);
				eptdev->user_paused = arg;
				spin_unlock(&eptdev->queue_lock);
				eptdev->sent_paused = arg;
			}
		}
		mutex_unlock(&eptdev->fc_lock);
		up_read(&eptdev->ept_lock);
		return ret;
	case RPMSG_DESTROY_EPT_IOCTL:
		/* A channel's own endpoint goes with its channel only. */
		if (eptdev->default_ept)
			return -EINVAL;
		return ampsoc_rpmsg_chrdev_eptdev_destroy(&eptdev->dev, NULL);
	default:
		return -EINVAL;
	}
}

static const struct file_operations rpmsg_eptdev_fops = {
	.owner = THIS_MODULE,
	.open = rpmsg_eptdev_open,
	.release = rpmsg_eptdev_release,
	.read_iter = rpmsg_eptdev_read_iter,
	.write_iter = rpmsg_eptdev_write_iter,
	.poll = rpmsg_eptdev_poll,
	.unlocked_ioctl = rpmsg_eptdev_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = no_llseek,
};

static ssize_t name_show(struct device *dev, struct device_attribute *a,
			 char *buf)
{
	return sysfs_emit(buf, "%s\n", dev_to_eptdev(dev)->chinfo.name);
}
static DEVICE_ATTR_RO(name);

static ssize_t src_show(struct device *dev, struct device_attribute *a,
			char *buf)
{
	return sysfs_emit(buf, "%d\n", dev_to_eptdev(dev)->chinfo.src);
}
static DEVICE_ATTR_RO(src);

static ssize_t dst_show(struct device *dev, struct device_attribute *a,
			char *buf)
{
	return sysfs_emit(buf, "%d\n", dev_to_eptdev(dev)->chinfo.dst);
}
static DEVICE_ATTR_RO(dst);

static ssize_t dropped_show(struct device *dev, struct device_attribute *a,
			    char *buf)
{
	return sysfs_emit(buf, "%lu\n", READ_ONCE(dev_to_eptdev(dev)->dropped));
}
static DEVICE_ATTR_RO(dropped);

static struct attribute *rpmsg_eptdev_attrs[] = {
	&dev_attr_name.attr,
	&dev_attr_src.attr,
	&dev_attr_dst.attr,
	&dev_attr_dropped.attr,
	NULL
};
ATTRIBUTE_GROUPS(rpmsg_eptdev);

static void rpmsg_eptdev_release_device(struct device *dev)
{
	struct rpmsg_eptdev *eptdev = dev_to_eptdev(dev);

	ida_free(&rpmsg_ept_ida, dev->id);
	ida_free(&rpmsg_minor_ida, MINOR(dev->devt));
	kfree(eptdev);
}

/**
 * ampsoc_rpmsg_chrdev_eptdev_destroy() - remove an endpoint device
 * @dev: the device
 * @data: unused, for device_for_each_child()
 *
 * Open files stay valid and get -EPIPE from then on.
 *
 * Context: process context; may sleep.
 * Return: 0.
 */
int ampsoc_rpmsg_chrdev_eptdev_destroy(struct device *dev, void *data)
{
	struct rpmsg_eptdev *eptdev = dev_to_eptdev(dev);

	if (dev->class != ampsoc_rpmsg_class || dev->devt == 0 ||
	    MAJOR(dev->devt) != MAJOR(rpmsg_major))
		return 0;
	/*
	 * Its node appears in the middle of cdev_device_add(): a destroy
	 * ioctl on it could otherwise delete a device still being added.
	 */
	wait_for_completion(&eptdev->add_done);
	down_write(&eptdev->ept_lock);
	if (!eptdev->rpdev || !eptdev->registered) {
		up_write(&eptdev->ept_lock);
		return 0;
	}
	rpmsg_eptdev_drop_ept(eptdev);
	eptdev->rpdev = NULL;
	eptdev->default_ept = NULL;
	up_write(&eptdev->ept_lock);
	wake_up_interruptible(&eptdev->readq);
	cdev_device_del(&eptdev->cdev, &eptdev->dev);
	put_device(&eptdev->dev);
	return 0;
}

static int rpmsg_eptdev_add(struct rpmsg_device *rpdev, struct device *parent,
			    struct rpmsg_channel_info chinfo,
			    struct rpmsg_endpoint *default_ept)
{
	struct rpmsg_eptdev *eptdev;
	struct device *dev;
	int ret;

	eptdev = kzalloc(sizeof(*eptdev), GFP_KERNEL);
	if (!eptdev)
		return -ENOMEM;
	dev = &eptdev->dev;
	eptdev->rpdev = rpdev;
	eptdev->chinfo = chinfo;
	eptdev->chinfo.name[RPMSG_NAME_SIZE - 1] = '\0';
	eptdev->default_ept = default_ept;
	init_rwsem(&eptdev->ept_lock);
	mutex_init(&eptdev->fc_lock);
	spin_lock_init(&eptdev->queue_lock);
	INIT_LIST_HEAD(&eptdev->queue);
	init_waitqueue_head(&eptdev->readq);
	INIT_WORK(&eptdev->fc_work, rpmsg_eptdev_fc_work);
	init_completion(&eptdev->add_done);

	device_initialize(dev);
	dev->class = ampsoc_rpmsg_class;
	dev->parent = parent;
	dev->groups = rpmsg_eptdev_groups;
	dev_set_drvdata(dev, eptdev);
	cdev_init(&eptdev->cdev, &rpmsg_eptdev_fops);
	eptdev->cdev.owner = THIS_MODULE;

	ret = ida_alloc_max(&rpmsg_minor_ida, RPMSG_DEV_MAX - 1, GFP_KERNEL);
	if (ret < 0) {
		kfree(eptdev);
		return ret;
	}
	dev->devt = MKDEV(MAJOR(rpmsg_major), ret);
	ret = ida_alloc(&rpmsg_ept_ida, GFP_KERNEL);
	if (ret < 0)
		goto free_minor;
	dev->id = ret;
	dev_set_name(dev, "rpmsg%d", ret);
	dev->release = rpmsg_eptdev_release_device;

	ret = cdev_device_add(&eptdev->cdev, dev);
	down_write(&eptdev->ept_lock);
	if (ret)
		eptdev->rpdev = NULL;	/* an early opener gets -EPIPE */
	else
		eptdev->registered = true;
	up_write(&eptdev->ept_lock);
	complete_all(&eptdev->add_done);
	if (ret) {
		dev_err(dev, "cdev_device_add failed: %d\n", ret);
		put_device(dev);
		return ret;
	}
	return 0;

free_minor:
	ida_free(&rpmsg_minor_ida, MINOR(dev->devt));
	kfree(eptdev);
	return ret;
}

/**
 * ampsoc_rpmsg_chrdev_eptdev_create() - add an endpoint device
 * @rpdev: the channel its endpoint will be created on
 * @parent: parent device (the control device)
 * @chinfo: name and addresses
 *
 * Context: process context; may sleep.
 * Return: 0 or a negative errno.
 */
int ampsoc_rpmsg_chrdev_eptdev_create(struct rpmsg_device *rpdev,
				      struct device *parent,
				      struct rpmsg_channel_info chinfo)
{
	return rpmsg_eptdev_add(rpdev, parent, chinfo, NULL);
}

/* Channels named "rpmsg-raw" get an endpoint device of their own. */
static int rpmsg_chrdev_probe(struct rpmsg_device *rpdev)
{
	struct rpmsg_channel_info chinfo = {
		.src = rpdev->src,
		.dst = rpdev->dst,
	};

	strscpy(chinfo.name, rpdev->id.name, sizeof(chinfo.name));
	rpdev->ept->flow_cb = rpmsg_ept_flow_cb;
	return rpmsg_eptdev_add(rpdev, &rpdev->dev, chinfo, rpdev->ept);
}

static void rpmsg_chrdev_remove(struct rpmsg_device *rpdev)
{
	device_for_each_child(&rpdev->dev, NULL,
			      ampsoc_rpmsg_chrdev_eptdev_destroy);
}

static const struct rpmsg_device_id rpmsg_chrdev_id_table[] = {
	{ .name = "rpmsg-raw" },
	{ },
};

static struct rpmsg_driver rpmsg_chrdev_driver = {
	.probe = rpmsg_chrdev_probe,
	.remove = rpmsg_chrdev_remove,
	.callback = rpmsg_ept_cb,
	.flowcontrol = rpmsg_ept_flow_cb,
	.id_table = rpmsg_chrdev_id_table,
	.drv.name = "rpmsg_chrdev",
};

int ampsoc_rpmsg_chrdev_init(void)
{
	int ret;

	ret = alloc_chrdev_region(&rpmsg_major, 0, RPMSG_DEV_MAX, "rpmsg_char");
	if (ret < 0) {
		pr_err("failed to allocate char dev region\n");
		return ret;
	}
	ret = ampsoc_rpmsg_register_driver(&rpmsg_chrdev_driver);
	if (ret) {
		pr_err("failed to register rpmsg_chrdev: %d\n", ret);
		unregister_chrdev_region(rpmsg_major, RPMSG_DEV_MAX);
	}
	return ret;
}

void ampsoc_rpmsg_chrdev_exit(void)
{
	ampsoc_rpmsg_unregister_driver(&rpmsg_chrdev_driver);
	unregister_chrdev_region(rpmsg_major, RPMSG_DEV_MAX);
}
