// SPDX-License-Identifier: GPL-2.0
/*
 * Race widener for the resource manager's teardown (core_resmgr_race).
 *
 * The receive callback of ampsoc_rpmsg_resmgr may run on one CPU while the
 * channel's remove runs on another. Between deciding that a request is to
 * be served and queueing the work that serves it, the callback must not
 * leave room for the remove to finish: work queued after the remove has
 * cancelled it runs on a client that is gone, and may take a holding
 * nobody releases. That window is a few instructions wide; this module
 * makes it as wide as the remove needs.
 *
 * While loaded, it stops the first queue_work_on() of resmgr_work() made
 * from resmgr_cb() (a kprobe) and keeps that CPU spinning until the remove
 * has returned (a kretprobe on resmgr_remove), or, if the remove started
 * but cannot finish meanwhile (because the callback holds what it waits
 * for), 200 ms after it started, or after hold_ms at most. Then the
 * callback goes on.
 *
 * Read-only parameters tell the scenario what happened: state (0 armed,
 * 1 holding the callback, 2 released), remove_seen (the remove started
 * while the callback was held), remove_first (the remove returned before
 * the callback queued its work: the window was hit).
 *
 * No KTAP of its own: the scenario checks the outcome.
 */
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/workqueue.h>

static unsigned int hold_ms = 3000;
module_param(hold_ms, uint, 0444);
MODULE_PARM_DESC(hold_ms, "longest the callback is held (ms)");

static int state;
module_param(state, int, 0444);
MODULE_PARM_DESC(state, "0 armed, 1 holding the callback, 2 released");

static bool remove_seen;
module_param(remove_seen, bool, 0444);
MODULE_PARM_DESC(remove_seen, "the remove started while the callback was held");

static bool remove_first;
module_param(remove_first, bool, 0444);
MODULE_PARM_DESC(remove_first, "the remove returned before the callback queued its work");

static struct task_struct *cb_task;
static atomic_t fired = ATOMIC_INIT(0);
static ktime_t remove_start;
static bool remove_done;

static int cb_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	WRITE_ONCE(cb_task, current);
	return 0;
}

static int cb_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	if (READ_ONCE(cb_task) == current)
		WRITE_ONCE(cb_task, NULL);
	return 0;
}

static struct kretprobe cb_probe = {
	.kp.symbol_name = "resmgr_cb",
	.entry_handler = cb_entry,
	.handler = cb_return,
	.maxactive = 8,
};

static int remove_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	WRITE_ONCE(remove_start, ktime_get());
	return 0;
}

static int remove_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	WRITE_ONCE(remove_done, true);
	return 0;
}

static struct kretprobe remove_probe = {
	.kp.symbol_name = "resmgr_remove",
	.entry_handler = remove_entry,
	.handler = remove_return,
	.maxactive = 4,
};

/* queue_work_on(cpu, wq, work): the work is the third argument. */
static int queue_pre(struct kprobe *p, struct pt_regs *regs)
{
	struct work_struct *work = (struct work_struct *)regs->dx;
	ktime_t deadline, start;
	char name[KSYM_SYMBOL_LEN];

	if (READ_ONCE(cb_task) != current || atomic_read(&fired))
		return 0;
	/* "resmgr_work [ampsoc_rpmsg_resmgr]" */
	sprint_symbol_no_offset(name, (unsigned long)work->func);
	if (strncmp(name, "resmgr_work ", 12) || atomic_xchg(&fired, 1))
		return 0;
	WRITE_ONCE(state, 1);
	deadline = ktime_add_ms(ktime_get(), hold_ms);
	for (;;) {
		start = READ_ONCE(remove_start);
		if (READ_ONCE(remove_done))
			break;
		if (start && ktime_after(ktime_get(), ktime_add_ms(start, 200)))
			break;
		if (ktime_after(ktime_get(), deadline))
			break;
		cpu_relax();	/* a kprobe handler: no sleeping */
	}
	WRITE_ONCE(remove_seen, READ_ONCE(remove_start) != 0);
	WRITE_ONCE(remove_first, READ_ONCE(remove_done));
	WRITE_ONCE(state, 2);
	return 0;
}

static struct kprobe queue_probe = {
	.symbol_name = "queue_work_on",
	.pre_handler = queue_pre,
};

static int __init resmgr_race_init(void)
{
	int ret;

	ret = register_kretprobe(&cb_probe);
	if (ret) {
		pr_err("cannot probe resmgr_cb: %d\n", ret);
		return ret;
	}
	ret = register_kretprobe(&remove_probe);
	if (ret) {
		pr_err("cannot probe resmgr_remove: %d\n", ret);
		goto err_cb;
	}
	ret = register_kprobe(&queue_probe);
	if (ret) {
		pr_err("cannot probe queue_work_on: %d\n", ret);
		goto err_remove;
	}
	return 0;

err_remove:
	unregister_kretprobe(&remove_probe);
err_cb:
	unregister_kretprobe(&cb_probe);
	return ret;
}
module_init(resmgr_race_init);

static void __exit resmgr_race_exit(void)
{
	unregister_kprobe(&queue_probe);
	unregister_kretprobe(&remove_probe);
	unregister_kretprobe(&cb_probe);
}
module_exit(resmgr_race_exit);

MODULE_DESCRIPTION("ampsoc test: widen the resource manager's receive/remove window");
MODULE_LICENSE("GPL");
