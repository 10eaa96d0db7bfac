// SPDX-License-Identifier: GPL-2.0
/*
 * vsoc DMA engine: copies and transforms buffers inside its data window.
 * The window's first half is the source, the second half the destination.
 *
 * sysfs: src (binary, write the source), dst (binary, read the result),
 * start (write "<copy|xor|reverse|crc32> <len> [key]": run and wait),
 * crc32 (result of the last crc32 run), bytes (of the last run).
 * The device stays resumed while a transfer is in flight.
 */
#include <linux/io.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "vsoc_periph.h"

#define VSOC_DMA_MAX_MS		5000

/**
 * struct vsoc_dma - engine state
 * @done: the event of the current transfer arrived
 * @result: its result
 * @bytes: bytes the last transfer moved
 * @crc: CRC-32 of the last crc32 transfer
 */
struct vsoc_dma {
	bool done;
	s32 result;
	u64 bytes;
	u32 crc;
};

static const char *const vsoc_dma_xforms[] = {
	[VSOC_DMA_XFORM_COPY] = "copy",
	[VSOC_DMA_XFORM_XOR] = "xor",
	[VSOC_DMA_XFORM_REVERSE] = "reverse",
	[VSOC_DMA_XFORM_CRC32] = "crc32",
};

static size_t vsoc_dma_half(struct vsoc_periph *p)
{
	return p->data_len / 2;
}

static int vsoc_dma_init(struct vsoc_periph *p)
{
	if (!vsoc_dma_half(p)) {
		dev_err(p->dev, "no data window\n");
		return -EINVAL;
	}
	p->priv = devm_kzalloc(p->dev, sizeof(struct vsoc_dma), GFP_KERNEL);
	return p->priv ? 0 : -ENOMEM;
}

static void vsoc_dma_event(struct vsoc_periph *p, s32 result)
{
	struct vsoc_dma *d = p->priv;

	WRITE_ONCE(d->result, result);
	smp_wmb(); /* the result before the flag */
	WRITE_ONCE(d->done, true);
}

static ssize_t start_store(struct device *dev, struct device_attribute *attr,
			   const char *buf, size_t count)
{
	struct vsoc_periph *p = dev_get_drvdata(dev);
	struct vsoc_dma *d = p->priv;
	char name[16];
	u64 args[5] = { 0, vsoc_dma_half(p), 0, 0, 0 };
	u64 moved;
	int ret, n, x;

	n = sscanf(buf, "%15s %llu %lli", name, &args[2], &args[4]);
	if (n < 2 || !args[2] || args[2] > vsoc_dma_half(p))
		return -EINVAL;
	x = match_string(vsoc_dma_xforms, ARRAY_SIZE(vsoc_dma_xforms), name);
	if (x < 0)
		return x;
	args[3] = x;

	ret = vsoc_periph_get(p);
	if (ret)
		return ret;
	mutex_lock(&p->lock);
	d->done = false;
	d->bytes = 0;
	ret = vsoc_periph_cmd(p, VSOC_DMA_CMD_START, args, 5);
	if (ret)
		goto out;
	if (!wait_event_timeout(p->event_wq, READ_ONCE(d->done),
				msecs_to_jiffies(VSOC_DMA_MAX_MS))) {
		dev_err(dev, "transfer did not complete\n");
		vsoc_periph_cmd(p, VSOC_CMD_STOP, NULL, 0);
		ret = -ETIMEDOUT;
		goto out;
	}
	smp_rmb(); /* the flag before the result */
	ret = READ_ONCE(d->result);
	moved = vsoc_periph_value(p, 0);
	if (!ret && moved != args[2]) {
		dev_err(dev, "engine moved %llu bytes of %llu\n", moved,
			args[2]);
		ret = -EIO;
	}
	if (!ret) {
		d->bytes = moved;
		if (x == VSOC_DMA_XFORM_CRC32)
			d->crc = (u32)vsoc_periph_value(p, 1);
	}
out:
	mutex_unlock(&p->lock);
	vsoc_periph_put(p);
	return ret ?: count;
}
static DEVICE_ATTR_WO(start);

static ssize_t crc32_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct vsoc_periph *p = dev_get_drvdata(dev);
	struct vsoc_dma *d = p->priv;

	return sysfs_emit(buf, "0x%08x\n", d->crc);
}
static DEVICE_ATTR_RO(crc32);

static ssize_t bytes_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct vsoc_periph *p = dev_get_drvdata(dev);
	struct vsoc_dma *d = p->priv;

	return sysfs_emit(buf, "%llu\n", d->bytes);
}
static DEVICE_ATTR_RO(bytes);

static ssize_t vsoc_dma_window(struct file *f, struct kobject *kobj,
			       char *buf, loff_t off, size_t count,
			       bool write)
{
	struct vsoc_periph *p = dev_get_drvdata(kobj_to_dev(kobj));
	size_t half = vsoc_dma_half(p);

	if (off >= half)
		return 0;
	count = min_t(size_t, count, half - off);
	mutex_lock(&p->lock);
	if (write)
		memcpy_toio(p->data + off, buf, count);
	else
		memcpy_fromio(buf, p->data + half + off, count);
	mutex_unlock(&p->lock);
	return count;
}

static ssize_t src_write(struct file *f, struct kobject *kobj,
			 struct bin_attribute *attr, char *buf, loff_t off,
			 size_t count)
{
	return vsoc_dma_window(f, kobj, buf, off, count, true);
}

static ssize_t dst_read(struct file *f, struct kobject *kobj,
			struct bin_attribute *attr, char *buf, loff_t off,
			size_t count)
{
	return vsoc_dma_window(f, kobj, buf, off, count, false);
}

static BIN_ATTR_WO(src, 0);
static BIN_ATTR_RO(dst, 0);

static struct attribute *vsoc_dma_attrs[] = {
	&dev_attr_start.attr,
	&dev_attr_crc32.attr,
	&dev_attr_bytes.attr,
	NULL
};

static struct bin_attribute *vsoc_dma_bin_attrs[] = {
	&bin_attr_src,
	&bin_attr_dst,
	NULL
};

static const struct attribute_group vsoc_dma_group = {
	.attrs = vsoc_dma_attrs,
	.bin_attrs = vsoc_dma_bin_attrs,
};

static const struct attribute_group *vsoc_dma_groups[] = {
	&vsoc_periph_group,
	&vsoc_dma_group,
	NULL
};

const struct vsoc_periph_type vsoc_dma_type = {
	.type = VSOC_PERIPH_DMA,
	.init = vsoc_dma_init,
	.event = vsoc_dma_event,
	.groups = vsoc_dma_groups,
};
