// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/class/remoteproc/remoteprocN: mainline's attributes and semantics
 * (state, firmware, name, recovery, coredump).
 */
#include <linux/device.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "ampsoc_rproc_internal.h"

#define to_arp(d) container_of(d, struct ampsoc_rproc, dev)

const char * const ampsoc_rproc_dump_names[3] = {
	[AMPSOC_RPROC_COREDUMP_DISABLED] = "disabled",
	[AMPSOC_RPROC_COREDUMP_ENABLED] = "enabled",
	[AMPSOC_RPROC_COREDUMP_INLINE] = "inline",
};

static ssize_t recovery_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%s\n", to_arp(dev)->recovery_disabled ?
			  "disabled" : "enabled");
}

static ssize_t recovery_store(struct device *dev,
			      struct device_attribute *attr, const char *buf,
			      size_t count)
{
	struct ampsoc_rproc *rproc = to_arp(dev);
	int ret = 0;

	if (sysfs_streq(buf, "enabled")) {
		/* Enabling recovery also recovers a processor left crashed. */
		if (mutex_lock_interruptible(&rproc->lock))
			return -EINTR;
		rproc->recovery_disabled = false;
		if (rproc->state == AMPSOC_RPROC_CRASHED && !rproc->deleting)
			ret = arp_recover_locked(rproc);
		mutex_unlock(&rproc->lock);
	} else if (sysfs_streq(buf, "disabled")) {
		rproc->recovery_disabled = true;
	} else if (sysfs_streq(buf, "recover")) {
		ret = ampsoc_rproc_trigger_recovery(rproc);
	} else {
		return -EINVAL;
	}
	return ret ? ret : count;
}
static DEVICE_ATTR_RW(recovery);

static ssize_t coredump_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  ampsoc_rproc_dump_names[to_arp(dev)->dump_conf]);
}

static ssize_t coredump_store(struct device *dev,
			      struct device_attribute *attr, const char *buf,
			      size_t count)
{
	struct ampsoc_rproc *rproc = to_arp(dev);
	int i;

	i = sysfs_match_string(ampsoc_rproc_dump_names, buf);
	if (i < 0) {
		dev_err(dev, "invalid coredump configuration\n");
		return -EINVAL;
	}
	if (mutex_lock_interruptible(&rproc->lock))
		return -EINTR;
	if (rproc->state == AMPSOC_RPROC_CRASHED) {
		mutex_unlock(&rproc->lock);
		dev_err(dev, "can't change coredump configuration while crashed\n");
		return -EBUSY;
	}
	rproc->dump_conf = i;
	mutex_unlock(&rproc->lock);
	return count;
}
static DEVICE_ATTR_RW(coredump);

static ssize_t firmware_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	struct ampsoc_rproc *rproc = to_arp(dev);
	ssize_t n;

	if (mutex_lock_interruptible(&rproc->lock))
		return -EINTR;
	n = sysfs_emit(buf, "%s\n", rproc->firmware);
	mutex_unlock(&rproc->lock);
	return n;
}

static ssize_t firmware_store(struct device *dev,
			      struct device_attribute *attr, const char *buf,
			      size_t count)
{
	int ret = ampsoc_rproc_set_firmware(to_arp(dev), buf);

	return ret ? ret : count;
}
static DEVICE_ATTR_RW(firmware);

static ssize_t state_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  ampsoc_rproc_state_name(READ_ONCE(to_arp(dev)->state)));
}

static ssize_t state_store(struct device *dev, struct device_attribute *attr,
			   const char *buf, size_t count)
{
	struct ampsoc_rproc *rproc = to_arp(dev);
	enum ampsoc_rproc_state st = READ_ONCE(rproc->state);
	int ret;

	if (sysfs_streq(buf, "start")) {
		if (st == AMPSOC_RPROC_RUNNING || st == AMPSOC_RPROC_ATTACHED)
			return -EBUSY;
		ret = ampsoc_rproc_boot(rproc);
	} else if (sysfs_streq(buf, "stop")) {
		ret = ampsoc_rproc_shutdown(rproc);
	} else if (sysfs_streq(buf, "detach")) {
		/* Attach/detach needs platform support nobody offers yet. */
		ret = -EINVAL;
	} else {
		dev_err(dev, "Unrecognised option: %*pE\n",
			(int)min_t(size_t, strcspn(buf, "\n"), 32), buf);
		ret = -EINVAL;
	}
	return ret ? ret : count;
}
static DEVICE_ATTR_RW(state);

static ssize_t name_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%s\n", to_arp(dev)->name);
}
static DEVICE_ATTR_RO(name);

static struct attribute *arp_attrs[] = {
	&dev_attr_coredump.attr,
	&dev_attr_recovery.attr,
	&dev_attr_firmware.attr,
	&dev_attr_state.attr,
	&dev_attr_name.attr,
	NULL,
};

static const struct attribute_group arp_group = {
	.attrs = arp_attrs,
};

const struct attribute_group *ampsoc_rproc_groups[] = {
	&arp_group,
	NULL,
};

struct class ampsoc_rproc_class = {
	.name = "remoteproc",
	.dev_groups = ampsoc_rproc_groups,
};
