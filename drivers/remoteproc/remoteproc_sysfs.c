// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/class/remoteproc/remoteprocN: mainline 6.1's attributes with its
 * semantics and errnos (state, firmware, name, recovery, coredump), made
 * read-only by &rproc.sysfs_read_only.
 */
#include <linux/device.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "remoteproc_internal.h"

#define to_rproc(d) container_of(d, struct rproc, dev)

static const char * const ampsoc_rproc_dump_names[] = {
	[RPROC_COREDUMP_DISABLED] = "disabled",
	[RPROC_COREDUMP_ENABLED] = "enabled",
	[RPROC_COREDUMP_INLINE] = "inline",
};

/**
 * ampsoc_rproc_dump_name() - the name of a coredump configuration
 * @conf: an &enum rproc_dump_mechanism value
 *
 * Context: Any context.
 * Return: "disabled", "enabled" or "inline".
 */
const char *ampsoc_rproc_dump_name(unsigned int conf)
{
	return conf < ARRAY_SIZE(ampsoc_rproc_dump_names) ? ampsoc_rproc_dump_names[conf] :
						   "disabled";
}

/**
 * ampsoc_rproc_match_dump_conf() - parse a coredump configuration as sysfs does
 * @buf: what was written; a trailing newline is allowed
 *
 * Context: Any context.
 * Return: the &enum rproc_dump_mechanism value, or -EINVAL.
 */
int ampsoc_rproc_match_dump_conf(const char *buf)
{
	return sysfs_match_string(ampsoc_rproc_dump_names, buf);
}

static ssize_t recovery_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%s\n", to_rproc(dev)->recovery_disabled ?
			  "disabled" : "enabled");
}

/*
 * As mainline, the outcome of a recovery started here shows in the state
 * and the log, not in the write's result.
 */
static ssize_t recovery_store(struct device *dev,
			      struct device_attribute *attr, const char *buf,
			      size_t count)
{
	struct rproc *rproc = to_rproc(dev);

	if (sysfs_streq(buf, "enabled")) {
		rproc->recovery_disabled = false;
		ampsoc_rproc_trigger_recovery(rproc);
	} else if (sysfs_streq(buf, "disabled")) {
		rproc->recovery_disabled = true;
	} else if (sysfs_streq(buf, "recover")) {
		ampsoc_rproc_trigger_recovery(rproc);
	} else {
		return -EINVAL;
	}
	return count;
}
static DEVICE_ATTR_RW(recovery);

static ssize_t coredump_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%s\n", ampsoc_rproc_dump_name(to_rproc(dev)->dump_conf));
}

static ssize_t coredump_store(struct device *dev,
			      struct device_attribute *attr, const char *buf,
			      size_t count)
{
	struct rproc *rproc = to_rproc(dev);
	int i;

	if (READ_ONCE(rproc->state) == RPROC_CRASHED) {
		dev_err(&rproc->dev, "can't change coredump configuration\n");
		return -EBUSY;
	}
	i = ampsoc_rproc_match_dump_conf(buf);
	if (i < 0) {
		dev_err(&rproc->dev, "Invalid coredump configuration\n");
		return -EINVAL;
	}
	rproc->dump_conf = i;
	return count;
}
static DEVICE_ATTR_RW(coredump);

/* An attached processor runs firmware Linux did not load: "unknown". */
static ssize_t firmware_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	struct rproc *rproc = to_rproc(dev);
	ssize_t n;

	/* The name is freed by a concurrent write: read it under the lock. */
	if (mutex_lock_interruptible(&rproc->lock))
		return -EINTR;
	n = sysfs_emit(buf, "%s\n", rproc->state == RPROC_ATTACHED ?
		       "unknown" : rproc->firmware);
	mutex_unlock(&rproc->lock);
	return n;
}

static ssize_t firmware_store(struct device *dev,
			      struct device_attribute *attr, const char *buf,
			      size_t count)
{
	int ret = ampsoc_rproc_set_firmware(to_rproc(dev), buf);

	return ret ? ret : count;
}
static DEVICE_ATTR_RW(firmware);

static ssize_t state_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  ampsoc_rproc_state_name(READ_ONCE(to_rproc(dev)->state)));
}

static ssize_t state_store(struct device *dev, struct device_attribute *attr,
			   const char *buf, size_t count)
{
	struct rproc *rproc = to_rproc(dev);
	int ret;

	if (sysfs_streq(buf, "start")) {
		ret = ampsoc_rproc_boot(rproc);
		if (ret)
			dev_err(&rproc->dev, "Boot failed: %d\n", ret);
	} else if (sysfs_streq(buf, "stop")) {
		ret = ampsoc_rproc_shutdown(rproc);
	} else if (sysfs_streq(buf, "detach")) {
		ret = ampsoc_rproc_detach(rproc);
	} else {
		dev_err(&rproc->dev, "Unrecognised option: %*pE\n",
			(int)min_t(size_t, strcspn(buf, "\n"), 32), buf);
		ret = -EINVAL;
	}
	return ret ? ret : count;
}
static DEVICE_ATTR_RW(state);

static ssize_t name_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%s\n", to_rproc(dev)->name);
}
static DEVICE_ATTR_RO(name);

static umode_t ampsoc_rproc_is_visible(struct kobject *kobj, struct attribute *attr,
				       int n)
{
	struct rproc *rproc = to_rproc(kobj_to_dev(kobj));

	if (rproc->sysfs_read_only && (attr == &dev_attr_recovery.attr ||
				       attr == &dev_attr_firmware.attr ||
				       attr == &dev_attr_state.attr ||
				       attr == &dev_attr_coredump.attr))
		return 0444;
	return attr->mode;
}

static struct attribute *ampsoc_rproc_attrs[] = {
	&dev_attr_coredump.attr,
	&dev_attr_recovery.attr,
	&dev_attr_firmware.attr,
	&dev_attr_state.attr,
	&dev_attr_name.attr,
	NULL,
};

static const struct attribute_group ampsoc_rproc_group = {
	.attrs = ampsoc_rproc_attrs,
	.is_visible = ampsoc_rproc_is_visible,
};

const struct attribute_group *ampsoc_rproc_groups[] = {
	&ampsoc_rproc_group,
	NULL,
};

struct class ampsoc_rproc_class = {
	.name = "remoteproc",
	.dev_groups = ampsoc_rproc_groups,
};
