// SPDX-License-Identifier: GPL-2.0
/*
 * vsoc sensor: the model writes timestamped samples into the data window.
 *
 * sysfs: sample (write "<count> [period_ns]": take that many samples and
 * wait for them), samples (the last run, one "seq ts_ns value" line each,
 * value in millidegrees Celsius).
 * The device is kept resumed for the whole run, so its domain never goes
 * off with a run in flight.
 */
#include <linux/io.h>
#include <linux/kernel.h>

#include "vsoc_periph.h"

#define VSOC_SENSOR_MAX_PERIOD_NS	(100ULL * NSEC_PER_MSEC)
#define VSOC_SENSOR_MAX_RUN_MS		5000

/**
 * struct vsoc_sensor - sensor state
 * @count: samples the last run produced (validated)
 * @done: the event of the current run arrived
 * @result: its result
 */
struct vsoc_sensor {
	u32 count;
	bool done;
	s32 result;
};

static unsigned int vsoc_sensor_capacity(struct vsoc_periph *p)
{
	return min_t(u64, p->data_len / sizeof(struct vsoc_sensor_sample),
		     PAGE_SIZE / 48);
}

static int vsoc_sensor_init(struct vsoc_periph *p)
{
	if (!vsoc_sensor_capacity(p)) {
		dev_err(p->dev, "no room for samples in the data window\n");
		return -EINVAL;
	}
	p->priv = devm_kzalloc(p->dev, sizeof(struct vsoc_sensor), GFP_KERNEL);
	return p->priv ? 0 : -ENOMEM;
}

static void vsoc_sensor_event(struct vsoc_periph *p, s32 result)
{
	struct vsoc_sensor *s = p->priv;

	WRITE_ONCE(s->result, result);
	smp_wmb(); /* the result before the flag */
	WRITE_ONCE(s->done, true);
}

static ssize_t sample_store(struct device *dev, struct device_attribute *attr,
			    const char *buf, size_t count)
{
	struct vsoc_periph *p = dev_get_drvdata(dev);
	struct vsoc_sensor *s = p->priv;
	u64 args[2] = { 0, 100 * NSEC_PER_USEC };
	unsigned long timeout;
	u64 produced;
	int ret, n;

	n = sscanf(buf, "%llu %llu", &args[0], &args[1]);
	if (n < 1 || !args[0] || args[0] > vsoc_sensor_capacity(p) ||
	    args[1] > VSOC_SENSOR_MAX_PERIOD_NS ||
	    div64_u64(args[0] * args[1], NSEC_PER_MSEC) > VSOC_SENSOR_MAX_RUN_MS)
		return -EINVAL;
	timeout = msecs_to_jiffies(div64_u64(args[0] * args[1], NSEC_PER_MSEC) +
				   VSOC_REQ_TIMEOUT_MS);

	ret = vsoc_periph_get(p);
	if (ret)
		return ret;
	mutex_lock(&p->lock);
	s->done = false;
	s->count = 0;
	ret = vsoc_periph_cmd(p, VSOC_SENSOR_CMD_SAMPLE, args, 2);
	if (ret)
		goto out;
	if (!wait_event_timeout(p->event_wq, READ_ONCE(s->done), timeout)) {
		dev_err(dev, "sampling did not complete\n");
		vsoc_periph_cmd(p, VSOC_CMD_STOP, NULL, 0);
		ret = -ETIMEDOUT;
		goto out;
	}
	smp_rmb(); /* the flag before the result */
	ret = READ_ONCE(s->result);
	produced = vsoc_periph_value(p, 0);
	if (!ret && produced > args[0]) {
		dev_err(dev, "model reports %llu samples, %llu asked\n",
			produced, args[0]);
		ret = -EIO;
	}
	if (!ret)
		s->count = produced;
out:
	mutex_unlock(&p->lock);
	vsoc_periph_put(p);
	return ret ?: count;
}
static DEVICE_ATTR_WO(sample);

static ssize_t samples_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct vsoc_periph *p = dev_get_drvdata(dev);
	struct vsoc_sensor *s = p->priv;
	struct vsoc_sensor_sample smp;
	unsigned int i;
	int len = 0;

	mutex_lock(&p->lock);
	for (i = 0; i < s->count; i++) {
		memcpy_fromio(&smp, p->data + i * sizeof(smp), sizeof(smp));
		len += sysfs_emit_at(buf, len, "%u %llu %d\n",
				     le32_to_cpu(smp.seq),
				     le64_to_cpu(smp.ts_ns),
				     (s32)le32_to_cpu(smp.value));
	}
	mutex_unlock(&p->lock);
	return len;
}
static DEVICE_ATTR_RO(samples);

static struct attribute *vsoc_sensor_attrs[] = {
	&dev_attr_sample.attr,
	&dev_attr_samples.attr,
	NULL
};

static const struct attribute_group vsoc_sensor_group = {
	.attrs = vsoc_sensor_attrs,
};

static const struct attribute_group *vsoc_sensor_groups[] = {
	&vsoc_periph_group,
	&vsoc_sensor_group,
	NULL
};

const struct vsoc_periph_type vsoc_sensor_type = {
	.type = VSOC_PERIPH_SENSOR,
	.init = vsoc_sensor_init,
	.event = vsoc_sensor_event,
	.groups = vsoc_sensor_groups,
};
