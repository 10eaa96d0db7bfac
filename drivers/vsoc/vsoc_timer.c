// SPDX-License-Identifier: GPL-2.0
/*
 * vsoc timer: one-shot and periodic expirations raised by the model.
 *
 * sysfs: start (write "<period_ns> [periodic]"), stop (write anything),
 * expirations (events seen since the last start), counter (reads the
 * hardware counter, ns since start), running (0/1).
 * A running timer holds a runtime-PM reference: its domain stays on until
 * the timer stops or, for a one-shot, expires.
 */
#include <linux/io.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "vsoc_periph.h"

/* Periods shorter than this would only measure the model's event loop. */
#define VSOC_TIMER_MIN_NS	(10 * NSEC_PER_USEC)
#define VSOC_TIMER_MAX_NS	(60ULL * NSEC_PER_SEC)

/**
 * struct vsoc_timer - timer state
 * @running: started and not yet stopped or expired (one-shot)
 * @periodic: the running timer is periodic
 * @expirations: expiry events since the last start
 * @hw_expirations: the hardware's count at the last event (reset by START)
 * @paused: stopped for system sleep, restarted on resume
 * @period_ns: period of the running timer
 */
struct vsoc_timer {
	bool running;
	bool periodic;
	u64 expirations;
	u64 hw_expirations;
	bool paused;
	u64 period_ns;
};

static int vsoc_timer_init(struct vsoc_periph *p)
{
	p->priv = devm_kzalloc(p->dev, sizeof(struct vsoc_timer), GFP_KERNEL);
	return p->priv ? 0 : -ENOMEM;
}

/* Called with p->lock held. */
static void vsoc_timer_halt(struct vsoc_periph *p)
{
	struct vsoc_timer *t = p->priv;

	if (!t->running)
		return;
	vsoc_periph_cmd(p, VSOC_CMD_STOP, NULL, 0);
	t->running = false;
	vsoc_periph_put(p);
}

/*
 * Events carry no command number: the expiry or stop of a timer that the
 * hardware finished just before our STOP and the next START can reach us
 * after them, and then belongs to the previous timer. Taking it for the
 * new one dropped the reference while the new timer ran, and the clock
 * was gated under it (a violation found by make soak). So expirations
 * come from the hardware's counter, which each START resets, and the
 * timer has ended only when the hardware says it is idle.
 */
static void vsoc_timer_event(struct vsoc_periph *p, s32 result)
{
	struct vsoc_timer *t = p->priv;
	u64 hw;

	mutex_lock(&p->lock);
	if (t->running && !t->paused) {
		hw = vsoc_periph_value(p, VSOC_REG_EXPIRATIONS);
		if (hw > t->hw_expirations) {
			t->expirations += hw - t->hw_expirations;
			t->hw_expirations = hw;
		}
		if (!readl(p->regs + PREG(busy))) {
			t->running = false;
			vsoc_periph_put(p);
		}
	}
	mutex_unlock(&p->lock);
}

static void vsoc_timer_stop(struct vsoc_periph *p)
{
	mutex_lock(&p->lock);
	vsoc_timer_halt(p);
	mutex_unlock(&p->lock);
}

/* A running timer keeps its reference across the sleep, stopped. */
static void vsoc_timer_suspend(struct vsoc_periph *p)
{
	struct vsoc_timer *t = p->priv;

	mutex_lock(&p->lock);
	if (t->running && !vsoc_periph_cmd(p, VSOC_CMD_STOP, NULL, 0))
		t->paused = true;
	mutex_unlock(&p->lock);
}

static void vsoc_timer_resume(struct vsoc_periph *p)
{
	struct vsoc_timer *t = p->priv;
	u64 args[2];

	mutex_lock(&p->lock);
	if (t->paused) {
		t->paused = false;
		args[0] = t->period_ns;
		args[1] = t->periodic ? VSOC_TIMER_PERIODIC : 0;
		if (vsoc_periph_cmd(p, VSOC_TIMER_CMD_START, args, 2)) {
			dev_err(p->dev, "cannot restart after resume\n");
			t->running = false;
			vsoc_periph_put(p);
		}
		t->hw_expirations = 0;
	}
	mutex_unlock(&p->lock);
}

static ssize_t start_store(struct device *dev, struct device_attribute *attr,
			   const char *buf, size_t count)
{
	struct vsoc_periph *p = dev_get_drvdata(dev);
	struct vsoc_timer *t = p->priv;
	char word[16] = "";
	u64 args[2];
	int ret, n;

	n = sscanf(buf, "%llu %15s", &args[0], word);
	if (n < 1 || args[0] < VSOC_TIMER_MIN_NS || args[0] > VSOC_TIMER_MAX_NS)
		return -EINVAL;
	if (n == 2 && strcmp(word, "periodic"))
		return -EINVAL;
	args[1] = n == 2 ? VSOC_TIMER_PERIODIC : 0;

	ret = vsoc_periph_get(p);
	if (ret)
		return ret;
	mutex_lock(&p->lock);
	vsoc_timer_halt(p);
	t->expirations = 0;
	t->periodic = n == 2;
	ret = vsoc_periph_cmd(p, VSOC_TIMER_CMD_START, args, 2);
	if (!ret) {
		t->running = true;	/* keeps our reference */
		t->period_ns = args[0];
		t->hw_expirations = 0;
	}
	mutex_unlock(&p->lock);
	if (ret)
		vsoc_periph_put(p);
	return ret ?: count;
}
static DEVICE_ATTR_WO(start);

static ssize_t stop_store(struct device *dev, struct device_attribute *attr,
			  const char *buf, size_t count)
{
	vsoc_timer_stop(dev_get_drvdata(dev));
	return count;
}
static DEVICE_ATTR_WO(stop);

static ssize_t expirations_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct vsoc_periph *p = dev_get_drvdata(dev);
	struct vsoc_timer *t = p->priv;

	return sysfs_emit(buf, "%llu\n", READ_ONCE(t->expirations));
}
static DEVICE_ATTR_RO(expirations);

static ssize_t running_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct vsoc_periph *p = dev_get_drvdata(dev);
	struct vsoc_timer *t = p->priv;

	return sysfs_emit(buf, "%d\n", READ_ONCE(t->running));
}
static DEVICE_ATTR_RO(running);

static ssize_t counter_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct vsoc_periph *p = dev_get_drvdata(dev);
	u64 val;
	int ret;

	ret = vsoc_periph_get(p);
	if (ret)
		return ret;
	mutex_lock(&p->lock);
	ret = vsoc_periph_cmd(p, VSOC_TIMER_CMD_READ, NULL, 0);
	val = vsoc_periph_value(p, VSOC_REG_COUNTER);
	mutex_unlock(&p->lock);
	vsoc_periph_put(p);
	return ret ?: sysfs_emit(buf, "%llu\n", val);
}
static DEVICE_ATTR_RO(counter);

static struct attribute *vsoc_timer_attrs[] = {
	&dev_attr_start.attr,
	&dev_attr_stop.attr,
	&dev_attr_expirations.attr,
	&dev_attr_running.attr,
	&dev_attr_counter.attr,
	NULL
};

static const struct attribute_group vsoc_timer_group = {
	.attrs = vsoc_timer_attrs,
};

static const struct attribute_group *vsoc_timer_groups[] = {
	&vsoc_periph_group,
	&vsoc_timer_group,
	NULL
};

const struct vsoc_periph_type vsoc_timer_type = {
	.type = VSOC_PERIPH_TIMER,
	.init = vsoc_timer_init,
	.event = vsoc_timer_event,
	.stop = vsoc_timer_stop,
	.suspend = vsoc_timer_suspend,
	.resume = vsoc_timer_resume,
	.groups = vsoc_timer_groups,
};
