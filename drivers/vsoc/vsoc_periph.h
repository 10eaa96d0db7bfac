/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Common part of the vsoc peripheral drivers (module ampsoc_vsoc_periph):
 * register window, command handshake, events and runtime PM.
 */
#ifndef _VSOC_PERIPH_H
#define _VSOC_PERIPH_H

#include <linux/clk.h>
#include <linux/completion.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/sysfs.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <ampsoc/vsoc.h>

#define PREG(field)	offsetof(struct vsoc_periph_regs, field)
#define PREG_ARG(i)	(PREG(arg) + (i) * sizeof(__le64))
#define PREG_VALUE(i)	(PREG(value) + (i) * sizeof(__le64))

struct vsoc_periph;

/**
 * struct vsoc_periph_type - what differs between peripheral types
 * @type: VSOC_PERIPH_*
 * @init: set up the type's state at probe (may be NULL)
 * @event: an asynchronous event arrived (process context, may be NULL)
 * @stop: stop whatever runs before the driver goes away (may be NULL)
 * @suspend: quiesce before system sleep, the device still resumed (may be
 *	NULL)
 * @resume: restart after system sleep (may be NULL)
 * @groups: the type's sysfs attributes
 */
struct vsoc_periph_type {
	u32 type;
	int (*init)(struct vsoc_periph *p);
	void (*event)(struct vsoc_periph *p, s32 result);
	void (*stop)(struct vsoc_periph *p);
	void (*suspend)(struct vsoc_periph *p);
	void (*resume)(struct vsoc_periph *p);
	const struct attribute_group **groups;
};

/**
 * struct vsoc_periph - one peripheral bound to its driver
 * @dev: the platform device
 * @soc: the SoC
 * @info: its board description
 * @type: its type's operations
 * @regs: register window
 * @data: data window (NULL if the board gives none)
 * @data_len: length of @data
 * @clk: functional clock (NULL if none)
 * @lock: serialises commands and the type's state
 * @cmd_seq: sequence number of the last command
 * @cmd_done: completed when a command is acknowledged
 * @event_seen: last event_seq handled
 * @event_work: handles events in process context
 * @event_wq: woken on every event
 * @events: events handled
 * @ops: commands the model accepted
 * @last_result: result of the last command
 * @priv: the type's state
 */
struct vsoc_periph {
	struct device *dev;
	struct vsoc *soc;
	const struct vsoc_periph_info *info;
	const struct vsoc_periph_type *type;
	void __iomem *regs;
	void __iomem *data;
	resource_size_t data_len;
	struct clk *clk;
	struct mutex lock; /* see above */
	u32 cmd_seq;
	struct completion cmd_done;
	u32 event_seen;
	struct work_struct event_work;
	wait_queue_head_t event_wq;
	atomic_t events;
	u64 ops;
	s32 last_result;
	void *priv;
};

int vsoc_periph_cmd(struct vsoc_periph *p, u32 cmd, const u64 *args,
		    unsigned int nargs);
int vsoc_periph_get(struct vsoc_periph *p);
void vsoc_periph_put(struct vsoc_periph *p);
u64 vsoc_periph_value(struct vsoc_periph *p, unsigned int i);

extern const struct attribute_group vsoc_periph_group;
extern const struct vsoc_periph_type vsoc_timer_type;
extern const struct vsoc_periph_type vsoc_sensor_type;
extern const struct vsoc_periph_type vsoc_dma_type;

#endif /* _VSOC_PERIPH_H */
