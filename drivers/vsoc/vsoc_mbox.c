// SPDX-License-Identifier: GPL-2.0
/*
 * vsoc mailbox controller: one Linux mailbox channel per FIFO of the board.
 * Guest->core channels send, core->guest channels receive; a message is a
 * 32-bit word carried in the void * of the mailbox API, as OMAP's mailbox
 * does (mbox_send_message(chan, (void *)(uintptr_t)word)).
 *
 * This kernel has no device tree, so clients look channels up by name with
 * vsoc_mbox_request_channel() and release them with mbox_free_channel().
 *
 * The FIFO indexes live in shared memory that a core (or a buggy model)
 * writes: the consumer's view is checked (head - tail <= depth) and a
 * corrupted FIFO is resynchronised and reported, never trusted.
 *
 * A doorbell can be lost across system sleep while its words are not: the
 * PCI core turns bus mastering off for the suspend of a function whose
 * driver has no PM callbacks, so the MSI-X write of a doorbell rung then
 * goes nowhere, and an S3 resume resets the function. On resume, once the
 * parent PCI function is back, every receiving FIFO is read as if its
 * interrupt had fired.
 */
#include <linux/debugfs.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/irq_work.h>
#include <linux/mailbox_client.h>
#include <linux/mailbox_controller.h>
#include <linux/mod_devicetable.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <ampsoc/vsoc.h>

#define FIFO(field)	offsetof(struct vsoc_mbox_fifo, field)

/* A full FIFO is retried this often until the receiver makes room. */
#define VSOC_MBOX_RETRY_NS	(200 * NSEC_PER_USEC)

/**
 * struct vsoc_mbox_chan - one FIFO
 * @ctrl: the controller
 * @chan: its mailbox channel
 * @info: board description
 * @fifo: the FIFO in shared memory
 * @lock: protects @pos, @bound and the FIFO index we own
 * @pos: our index (head for a sender, tail for a receiver)
 * @bound: a client is bound (rx: deliver messages; tx: send, complete, retry)
 * @corrupt: corruptions seen
 * @resumed: words found by the resume scan (their doorbell was lost)
 * @txdone: completes a send outside the mailbox core's channel lock
 * @retry: retries a send refused because the FIFO was full
 */
struct vsoc_mbox_chan {
	struct vsoc_mbox *ctrl;
	struct mbox_chan *chan;
	const struct vsoc_mbox_info *info;
	void __iomem *fifo;
	spinlock_t lock; /* see above */
	u32 pos;
	bool bound;
	u32 corrupt;
	u32 resumed;
	struct irq_work txdone;
	struct hrtimer retry;
};

/**
 * struct vsoc_mbox - the controller
 * @mbox: mailbox framework controller
 * @soc: the SoC
 * @chans: per-channel state, indexed like the board
 */
struct vsoc_mbox {
	struct mbox_controller mbox;
	struct vsoc *soc;
	struct vsoc_mbox_chan *chans;
};

static bool vsoc_mbox_is_tx(const struct vsoc_mbox_chan *vc)
{
	return vc->info->from == VSOC_MBOX_EP_GUEST;
}

static int vsoc_mbox_send(struct mbox_chan *chan, void *data)
{
	struct vsoc_mbox_chan *vc = chan->con_priv;
	u32 msg = (u32)(uintptr_t)data;
	unsigned long flags;
	u32 tail, used;
	int ret = 0;

	if (!vsoc_mbox_is_tx(vc))
		return -EINVAL;
	spin_lock_irqsave(&vc->lock, flags);
	if (!vc->bound) {
		/*
		 * Shutting down: arm no retry and queue no completion, which
		 * would reach the mailbox core after it let the client go.
		 */
		spin_unlock_irqrestore(&vc->lock, flags);
		return -ESHUTDOWN;
	}
	tail = readl(vc->fifo + FIFO(tail));
	used = vc->pos - tail;
	if (used > vc->info->depth) {
		WRITE_ONCE(vc->corrupt, vc->corrupt + 1);
		dev_err_ratelimited(vc->ctrl->mbox.dev,
				    "%s: tail %u is %u behind head %u (depth %u): FIFO corrupted\n",
				    vc->info->name, tail, used, vc->pos,
				    vc->info->depth);
		ret = -EIO;
	} else if (used == vc->info->depth) {
		/*
		 * Full: the mailbox core keeps the message; retry later. Ring
		 * the receiver again meanwhile, as a level-triggered mailbox
		 * interrupt stays asserted while its FIFO holds words: a core
		 * that lost its doorbell would otherwise sleep on a full FIFO
		 * while we wait for it to make room.
		 */
		vsoc_kick(vc->ctrl->soc, vc->info->peer, vc->info->vector);
		hrtimer_start(&vc->retry, ns_to_ktime(VSOC_MBOX_RETRY_NS),
			      HRTIMER_MODE_REL);
		ret = -EBUSY;
	} else {
		writel(msg, vc->fifo + FIFO(msg) +
		       (vc->pos & (vc->info->depth - 1)) * sizeof(__le32));
		wmb(); /* the message before the head */
		writel(++vc->pos, vc->fifo + FIFO(head));
		wmb(); /* the head before the doorbell */
		vsoc_kick(vc->ctrl->soc, vc->info->peer, vc->info->vector);
		irq_work_queue(&vc->txdone);
	}
	spin_unlock_irqrestore(&vc->lock, flags);
	return ret;
}

static void vsoc_mbox_txdone(struct irq_work *work)
{
	struct vsoc_mbox_chan *vc = container_of(work, struct vsoc_mbox_chan,
						 txdone);
	unsigned long flags;
	bool bound;

	spin_lock_irqsave(&vc->lock, flags);
	bound = vc->bound;
	spin_unlock_irqrestore(&vc->lock, flags);
	/*
	 * After the shutdown the core has no client for the channel but may
	 * still count queued messages: a completion would submit one to it.
	 */
	if (bound)
		mbox_chan_txdone(vc->chan, 0);
}

static enum hrtimer_restart vsoc_mbox_retry(struct hrtimer *t)
{
	struct vsoc_mbox_chan *vc = container_of(t, struct vsoc_mbox_chan,
						 retry);

	/* With no active request this just resubmits the queued message. */
	irq_work_queue(&vc->txdone);
	return HRTIMER_NORESTART;
}

/* Deliver what is in the FIFO; returns how many words. */
static u32 vsoc_mbox_rx(struct vsoc_mbox_chan *vc)
{
	u32 head, avail, msg, n = 0;

	spin_lock(&vc->lock);
	if (!vc->bound)
		goto out;
	head = readl(vc->fifo + FIFO(head));
	avail = head - vc->pos;
	if (avail > vc->info->depth) {
		WRITE_ONCE(vc->corrupt, vc->corrupt + 1);
		dev_err_ratelimited(vc->ctrl->mbox.dev,
				    "%s: head %u is %u ahead of tail %u (depth %u): FIFO corrupted, dropping it\n",
				    vc->info->name, head, avail, vc->pos,
				    vc->info->depth);
		vc->pos = head;
		writel(vc->pos, vc->fifo + FIFO(tail));
		goto out;
	}
	rmb(); /* the head before the messages */
	while (vc->pos != head) {
		msg = readl(vc->fifo + FIFO(msg) +
			    (vc->pos & (vc->info->depth - 1)) * sizeof(__le32));
		vc->pos++;
		n++;
		mbox_chan_received_data(vc->chan, (void *)(uintptr_t)msg);
	}
	mb(); /* the messages are read before the slots are handed back */
	writel(vc->pos, vc->fifo + FIFO(tail));
out:
	spin_unlock(&vc->lock);
	return n;
}

static irqreturn_t vsoc_mbox_isr(int irq, void *data)
{
	struct vsoc_mbox *mb = data;
	unsigned int i;

	/* Vectors may be shared: look at every receiving FIFO. */
	for (i = 0; i < mb->mbox.num_chans; i++)
		if (!vsoc_mbox_is_tx(&mb->chans[i]))
			vsoc_mbox_rx(&mb->chans[i]);
	return IRQ_HANDLED;
}

static int vsoc_mbox_startup(struct mbox_chan *chan)
{
	struct vsoc_mbox_chan *vc = chan->con_priv;
	unsigned long flags;

	spin_lock_irqsave(&vc->lock, flags);
	vc->bound = true;
	spin_unlock_irqrestore(&vc->lock, flags);
	/* Deliver what arrived before the client bound. */
	if (!vsoc_mbox_is_tx(vc)) {
		local_irq_save(flags);
		vsoc_mbox_rx(vc);
		local_irq_restore(flags);
	}
	return 0;
}

static void vsoc_mbox_shutdown(struct mbox_chan *chan)
{
	struct vsoc_mbox_chan *vc = chan->con_priv;
	unsigned long flags;

	/*
	 * Unbound first: a completion or retry already under way then
	 * re-arms nothing (vsoc_mbox_send() refuses, vsoc_mbox_txdone() does
	 * not complete), so neither runs again once both are waited for.
	 */
	spin_lock_irqsave(&vc->lock, flags);
	vc->bound = false;
	spin_unlock_irqrestore(&vc->lock, flags);
	hrtimer_cancel(&vc->retry);
	irq_work_sync(&vc->txdone);
}

static bool vsoc_mbox_peek(struct mbox_chan *chan)
{
	struct vsoc_mbox_chan *vc = chan->con_priv;

	return !vsoc_mbox_is_tx(vc) &&
	       readl(vc->fifo + FIFO(head)) != READ_ONCE(vc->pos);
}

static const struct mbox_chan_ops vsoc_mbox_ops = {
	.send_data = vsoc_mbox_send,
	.startup = vsoc_mbox_startup,
	.shutdown = vsoc_mbox_shutdown,
	.peek_data = vsoc_mbox_peek,
};

/**
 * vsoc_mbox_request_channel() - bind a mailbox client to a channel by name
 * @cl: the client; @cl->dev must be a vsoc child device (e.g. vsoc-rproc)
 *	or a device whose parent is one
 * @name: the channel's name in the board table
 *
 * The equivalent of mbox_request_channel_byname() on a kernel without
 * device tree. Release the channel with mbox_free_channel().
 *
 * Context: Process context; may sleep.
 * Return: the channel, or ERR_PTR(): -EPROBE_DEFER while the mailbox
 * controller is not bound, -ENODEV for an unknown name, -EBUSY if the
 * channel already has a client.
 */
struct mbox_chan *vsoc_mbox_request_channel(struct mbox_client *cl,
					    const char *name)
{
	struct vsoc *soc = vsoc_get(cl->dev);
	struct device *mdev;
	struct vsoc_mbox *mb;
	unsigned int i;
	int ret;

	if (!soc && cl->dev)
		soc = vsoc_get(cl->dev->parent);
	if (!soc)
		return ERR_PTR(-ENODEV);
	mdev = vsoc_find_child(soc, VSOC_DEV_MBOX, 0);
	if (!mdev)
		return ERR_PTR(-ENODEV);
	device_lock(mdev);
	mb = dev_get_drvdata(mdev);
	if (!mdev->driver || !mb) {
		device_unlock(mdev);
		return ERR_PTR(-EPROBE_DEFER);
	}
	for (i = 0; i < mb->mbox.num_chans; i++) {
		if (strcmp(mb->chans[i].info->name, name))
			continue;
		ret = mbox_bind_client(&mb->mbox.chans[i], cl);
		device_unlock(mdev);
		return ret ? ERR_PTR(ret) : &mb->mbox.chans[i];
	}
	device_unlock(mdev);
	return ERR_PTR(-ENODEV);
}
EXPORT_SYMBOL_GPL(vsoc_mbox_request_channel);

/**
 * vsoc_mbox_tx_full() - whether a sending channel's FIFO has no room
 * @chan: a guest-to-core channel from vsoc_mbox_request_channel()
 *
 * A hint for a client that can reach the receiver another way: a word
 * sent now would wait in the mailbox core's queue until the receiver
 * makes room, which it may do at any time after this returns. A FIFO
 * whose tail the receiver corrupted also counts as full, as no word can
 * be written to it.
 *
 * Context: Any context; takes the channel's spinlock.
 * Return: true if a word cannot be written to the FIFO now.
 */
bool vsoc_mbox_tx_full(struct mbox_chan *chan)
{
	struct vsoc_mbox_chan *vc = chan->con_priv;
	unsigned long flags;
	bool full;

	if (!vsoc_mbox_is_tx(vc))
		return false;
	spin_lock_irqsave(&vc->lock, flags);
	full = vc->pos - readl(vc->fifo + FIFO(tail)) >= vc->info->depth;
	spin_unlock_irqrestore(&vc->lock, flags);
	return full;
}
EXPORT_SYMBOL_GPL(vsoc_mbox_tx_full);

/*
 * debugfs vsoc/vsocN/mbox_stats: one line per FIFO, our index and counters,
 * then the FIFO's own head, tail and overflows as shared memory holds them
 * now (the other side's index included: where a word stopped).
 */
static int vsoc_mbox_stats_show(struct seq_file *m, void *v)
{
	struct vsoc_mbox *mb = m->private;
	const struct vsoc_mbox_chan *vc;
	unsigned int i;

	for (i = 0; i < mb->mbox.num_chans; i++) {
		vc = &mb->chans[i];
		seq_printf(m, "%s %s pos %u corrupt %u resumed %u head %u tail %u overflows %u\n",
			   vc->info->name, vsoc_mbox_is_tx(vc) ? "tx" : "rx",
			   READ_ONCE(vc->pos), READ_ONCE(vc->corrupt),
			   READ_ONCE(vc->resumed), readl(vc->fifo + FIFO(head)),
			   readl(vc->fifo + FIFO(tail)),
			   readl(vc->fifo + FIFO(overflows)));
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(vsoc_mbox_stats);

static void vsoc_mbox_debugfs_remove(void *dentry)
{
	debugfs_remove(dentry);
}

static int vsoc_mbox_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct vsoc *soc = vsoc_get(dev);
	const struct vsoc_board *b;
	struct vsoc_mbox *mb;
	unsigned int i;
	int irq, ret;

	if (!soc)
		return -ENODEV;
	b = vsoc_board(soc);
	mb = devm_kzalloc(dev, sizeof(*mb), GFP_KERNEL);
	if (!mb)
		return -ENOMEM;
	mb->soc = soc;
	mb->chans = devm_kcalloc(dev, b->nr_mboxes, sizeof(*mb->chans),
				 GFP_KERNEL);
	mb->mbox.chans = devm_kcalloc(dev, b->nr_mboxes,
				      sizeof(*mb->mbox.chans), GFP_KERNEL);
	if (!mb->chans || !mb->mbox.chans)
		return -ENOMEM;
	for (i = 0; i < b->nr_mboxes; i++) {
		struct vsoc_mbox_chan *vc = &mb->chans[i];

		vc->ctrl = mb;
		vc->info = &b->mboxes[i];
		vc->chan = &mb->mbox.chans[i];
		vc->fifo = devm_platform_ioremap_resource_byname(pdev,
								 vc->info->name);
		if (IS_ERR(vc->fifo))
			return PTR_ERR(vc->fifo);
		spin_lock_init(&vc->lock);
		init_irq_work(&vc->txdone, vsoc_mbox_txdone);
		hrtimer_init(&vc->retry, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
		vc->retry.function = vsoc_mbox_retry;
		/* Continue where the FIFO is: our side's index is ours. */
		vc->pos = readl(vc->fifo + (vsoc_mbox_is_tx(vc) ? FIFO(head) :
					   FIFO(tail)));
		mb->mbox.chans[i].con_priv = vc;
	}
	mb->mbox.dev = dev;
	mb->mbox.ops = &vsoc_mbox_ops;
	mb->mbox.num_chans = b->nr_mboxes;
	mb->mbox.txdone_irq = true;
	platform_set_drvdata(pdev, mb);

	for (i = 0; i < pdev->num_resources; i++) {
		if (resource_type(&pdev->resource[i]) != IORESOURCE_IRQ)
			continue;
		irq = pdev->resource[i].start;
		ret = devm_request_irq(dev, irq, vsoc_mbox_isr, IRQF_SHARED,
				       dev_name(dev), mb);
		if (ret)
			return ret;
	}
	ret = devm_mbox_controller_register(dev, &mb->mbox);
	if (ret)
		return ret;
	ret = devm_add_action_or_reset(dev, vsoc_mbox_debugfs_remove,
				       debugfs_create_file("mbox_stats", 0444,
							   vsoc_debugfs_dir(soc), mb,
							   &vsoc_mbox_stats_fops));
	if (ret)
		return ret;
	dev_info(dev, "%u mailbox channels\n", b->nr_mboxes);
	return 0;
}

/* Runs after the parent PCI function's resume turned bus mastering on. */
static int vsoc_mbox_resume(struct device *dev)
{
	struct vsoc_mbox *mb = dev_get_drvdata(dev);
	struct vsoc_mbox_chan *vc;
	unsigned long flags;
	unsigned int i;
	u32 n;

	for (i = 0; i < mb->mbox.num_chans; i++) {
		vc = &mb->chans[i];
		if (vsoc_mbox_is_tx(vc))
			continue;
		/* As from the interrupt handler: interrupts off. */
		local_irq_save(flags);
		n = vsoc_mbox_rx(vc);
		local_irq_restore(flags);
		if (!n)
			continue;
		WRITE_ONCE(vc->resumed, vc->resumed + n);
		dev_dbg(dev, "%s: %u words arrived while suspended\n",
			vc->info->name, n);
	}
	return 0;
}

static const struct dev_pm_ops vsoc_mbox_pm = {
	SET_SYSTEM_SLEEP_PM_OPS(NULL, vsoc_mbox_resume)
};

static const struct platform_device_id vsoc_mbox_ids[] = {
	{ VSOC_DEV_MBOX },
	{ }
};
MODULE_DEVICE_TABLE(platform, vsoc_mbox_ids);

static struct platform_driver vsoc_mbox_driver = {
	.driver = {
		.name = VSOC_DEV_MBOX,
		.pm = &vsoc_mbox_pm,
	},
	.probe = vsoc_mbox_probe,
	.id_table = vsoc_mbox_ids,
};
module_platform_driver(vsoc_mbox_driver);

MODULE_DESCRIPTION("ampsoc virtual SoC: mailbox controller");
MODULE_LICENSE("GPL");
