// SPDX-License-Identifier: GPL-2.0
/*
 * vsoc core: the PCI driver for the ivshmem-doorbell device that connects
 * the guest to the SoC model. It maps the registers and the shared memory,
 * sets up one MSI-X vector per doorbell vector, validates the board table
 * and creates a platform device for every block of the board. The blocks'
 * own drivers (power, clock, mailbox, peripherals, remote cores) do the
 * rest, like on a real SoC.
 */
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/idr.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/property.h>
#include <linux/slab.h>

#include "vsoc_internal.h"

static DEFINE_IDA(vsoc_ida);
static struct pci_driver vsoc_pci_driver;

/**
 * vsoc_get() - the SoC a vsoc child device belongs to
 * @child: a platform device created by the vsoc core
 *
 * Context: Any context. The result stays valid while @child is bound to a
 * driver: the core unregisters its children before it goes away.
 * Return: the SoC, or NULL if @child is not a vsoc child.
 */
struct vsoc *vsoc_get(struct device *child)
{
	struct device *parent = child ? child->parent : NULL;

	if (!parent || !dev_is_pci(parent) ||
	    to_pci_dev(parent)->driver != &vsoc_pci_driver)
		return NULL;
	return pci_get_drvdata(to_pci_dev(parent));
}
EXPORT_SYMBOL_GPL(vsoc_get);

/**
 * vsoc_board() - the validated board description
 * @soc: the SoC
 *
 * Context: Any context.
 * Return: the board; it does not change while @soc exists.
 */
const struct vsoc_board *vsoc_board(const struct vsoc *soc)
{
	return soc->board;
}
EXPORT_SYMBOL_GPL(vsoc_board);

/**
 * vsoc_child_index() - the board index a vsoc child device stands for
 * @child: a platform device created by the vsoc core
 *
 * Context: Any context.
 * Return: the index in its board array (0 for SoC-wide controllers), or
 * VSOC_NONE if @child has no vsoc platform data.
 */
u32 vsoc_child_index(struct device *child)
{
	const struct vsoc_child_data *cd = dev_get_platdata(child);

	return cd && vsoc_get(child) ? cd->index : VSOC_NONE;
}
EXPORT_SYMBOL_GPL(vsoc_child_index);

/**
 * vsoc_shm() - the kernel mapping of a shared-memory area
 * @soc: the SoC
 * @area: an area of the board (offset and size in BAR2)
 *
 * For users that have no platform resource of their own (remote-core
 * memories seen from a loader, tests). Drivers of vsoc children should map
 * their own resources instead.
 *
 * Context: Any context.
 * Return: the mapping of @area, or NULL if it does not fit in BAR2.
 */
void __iomem *vsoc_shm(struct vsoc *soc, const struct vsoc_shm_area *area)
{
	if (!area->size || area->offset >= soc->shm_len ||
	    area->size > soc->shm_len - area->offset)
		return NULL;
	return soc->shm + area->offset;
}
EXPORT_SYMBOL_GPL(vsoc_shm);

/**
 * vsoc_debugfs_dir() - the SoC's debugfs directory
 * @soc: the SoC
 *
 * Child drivers add their own files there and remove them when unbound.
 *
 * Context: Any context.
 * Return: the directory (/sys/kernel/debug/vsoc/vsocN), or an error
 * pointer if debugfs is not available.
 */
struct dentry *vsoc_debugfs_dir(struct vsoc *soc)
{
	return soc->debugfs;
}
EXPORT_SYMBOL_GPL(vsoc_debugfs_dir);

/**
 * vsoc_kick() - ring a doorbell
 * @soc: the SoC
 * @peer: ivshmem peer to interrupt (the model, a core, or ourselves)
 * @vector: its vector
 *
 * Context: Any context; does not sleep.
 * Return: 0, or -EINVAL for a vector the board does not have.
 */
int vsoc_kick(struct vsoc *soc, u16 peer, u16 vector)
{
	if (vector >= soc->board->nr_vectors)
		return -EINVAL;
	writel((u32)peer << 16 | vector, soc->regs + IVSHMEM_REG_DOORBELL);
	return 0;
}
EXPORT_SYMBOL_GPL(vsoc_kick);

/**
 * vsoc_telemetry_read() - a consistent snapshot of the model's telemetry
 * @soc: the SoC
 * @out: where to copy the page
 *
 * The model updates the page under a sequence counter; the copy is retried
 * until it was not torn. It does not sleep, so that the state of an
 * IRQ-safe domain can be read back with interrupts off.
 *
 * Context: Any context; busy-waits while the model is in the middle of an
 * update, for at most about 20 ms.
 * Return: 0, or -EBUSY if no consistent copy could be taken (the model
 * is stuck in the middle of an update).
 */
int vsoc_telemetry_read(struct vsoc *soc, struct vsoc_telemetry *out)
{
	void __iomem *tel = soc->shm + soc->board->telemetry.offset;
	unsigned int tries;
	u32 s1, s2;

	for (tries = 0; tries < 4000; tries++) {
		s1 = readl(tel + offsetof(struct vsoc_telemetry, seq));
		if (s1 & 1) {
			udelay(5);
			continue;
		}
		rmb(); /* read the seq before the data */
		memcpy_fromio(out, tel, sizeof(*out));
		rmb(); /* and the data before the seq again */
		s2 = readl(tel + offsetof(struct vsoc_telemetry, seq));
		if (s1 == s2)
			return 0;
	}
	dev_err(&soc->pdev->dev, "telemetry: no consistent snapshot\n");
	return -EBUSY;
}
EXPORT_SYMBOL_GPL(vsoc_telemetry_read);

/**
 * vsoc_find_child() - look up a child device by type and board index
 * @soc: the SoC
 * @type: device name, one of the VSOC_DEV_* strings
 * @index: index of the block in its board array
 *
 * Context: Any context.
 * Return: the device (no reference taken; valid while @soc is bound), or
 * NULL.
 */
struct device *vsoc_find_child(struct vsoc *soc, const char *type, u32 index)
{
	unsigned int i;

	for (i = 0; i < soc->nchildren; i++) {
		struct platform_device *pd = soc->children[i];
		const struct vsoc_child_data *cd = dev_get_platdata(&pd->dev);

		if (!strcmp(pd->name, type) && cd->index == index)
			return &pd->dev;
	}
	return NULL;
}
EXPORT_SYMBOL_GPL(vsoc_find_child);

static int vsoc_echo_wait(struct completion *c, const bool *done)
{
	long left = msecs_to_jiffies(VSOC_REQ_TIMEOUT_MS);

	while (!READ_ONCE(*done)) {
		left = wait_for_completion_timeout(c, left);
		if (!left)
			return READ_ONCE(*done) ? 0 : -ETIMEDOUT;
	}
	return 0;
}

/**
 * vsoc_ping() - one doorbell round trip
 * @soc: the SoC
 * @loopback: ring our own peer instead of the model (the transport alone)
 * @ns: time from the ring to the answer's interrupt, in nanoseconds
 *
 * Context: Process context; sleeps. Serialised with other echo users.
 * Return: 0, or -ETIMEDOUT if no answer came (the model is gone or
 * dropped the doorbell), -EIO if the answer did not match.
 */
int vsoc_ping(struct vsoc *soc, bool loopback, u64 *ns)
{
	struct vsoc_echo_state *e = &soc->echo;
	void __iomem *blk = soc->shm + soc->board->echo.offset;
	ktime_t t0;
	int ret;

	mutex_lock(&e->lock);
	reinit_completion(&e->done);
	WRITE_ONCE(e->answered, false);
	e->seq++;
	e->loopback = loopback;
	if (!loopback)
		writel(e->seq, blk + offsetof(struct vsoc_echo, ping_seq));
	wmb(); /* the sequence before the doorbell */
	t0 = ktime_get();
	if (loopback)
		vsoc_kick(soc, soc->own_id, VSOC_VEC_LOOPBACK);
	else
		vsoc_kick(soc, soc->board->model_peer, VSOC_VEC_ECHO);
	ret = vsoc_echo_wait(&e->done, &e->answered);
	*ns = ktime_to_ns(ktime_sub(READ_ONCE(e->t_answer), t0));
	if (!ret && !loopback &&
	    readl(blk + offsetof(struct vsoc_echo, ping_ack)) != e->seq)
		ret = -EIO;
	mutex_unlock(&e->lock);
	return ret;
}
EXPORT_SYMBOL_GPL(vsoc_ping);

/**
 * vsoc_echo_rt() - model-initiated doorbell round trips
 * @soc: the SoC
 * @count: round trips wanted (1..100000)
 * @total_ns: sum of the round-trip times as the model measured them
 * @done: round trips completed
 *
 * The model rings us @count times; each ring is answered from the
 * interrupt handler by ringing back.
 *
 * Context: Process context; sleeps. Serialised with other echo users.
 * Return: 0, -EINVAL for a bad @count, -ETIMEDOUT, or the model's
 * negative status.
 */
int vsoc_echo_rt(struct vsoc *soc, u32 count, u64 *total_ns, u32 *done)
{
	struct vsoc_echo_state *e = &soc->echo;
	void __iomem *blk = soc->shm + soc->board->echo.offset;
	unsigned long left;
	int ret = 0, st;

	if (!count || count > 100000)
		return -EINVAL;
	mutex_lock(&e->lock);
	reinit_completion(&e->rt_done);
	WRITE_ONCE(e->rt_finished, false);
	e->rt_seq++;
	writel(count, blk + offsetof(struct vsoc_echo, rt_count));
	wmb(); /* the count before the request */
	writel(e->rt_seq, blk + offsetof(struct vsoc_echo, rt_req_seq));
	wmb(); /* the request before the doorbell */
	WRITE_ONCE(e->rt_active, true);
	vsoc_kick(soc, soc->board->model_peer, VSOC_VEC_ECHO_RT);
	/* Generous: about a millisecond per round trip under TCG, plus slack. */
	left = msecs_to_jiffies(VSOC_REQ_TIMEOUT_MS + count);
	while (!READ_ONCE(e->rt_finished) && left)
		left = wait_for_completion_timeout(&e->rt_done, left);
	WRITE_ONCE(e->rt_active, false);
	if (!READ_ONCE(e->rt_finished)) {
		ret = -ETIMEDOUT;
		goto out;
	}
	rmb(); /* the ack before the results */
	st = (s32)readl(blk + offsetof(struct vsoc_echo, rt_status));
	*done = readl(blk + offsetof(struct vsoc_echo, rt_done));
	*total_ns = readq(blk + offsetof(struct vsoc_echo, rt_total_ns));
	if (st > 0 || st < -MAX_ERRNO)
		ret = -EIO;
	else
		ret = st;
out:
	mutex_unlock(&e->lock);
	return ret;
}
EXPORT_SYMBOL_GPL(vsoc_echo_rt);

#define FCTL(field)	offsetof(struct vsoc_fault_ctl, field)

/**
 * vsoc_fault_ctl() - arm or clear a fault in the model (test mode)
 * @soc: the SoC
 * @op: VSOC_FAULT_OP_SET or VSOC_FAULT_OP_CLEAR
 * @kind: VSOC_FAULT_* (VSOC_FAULT_ALL with CLEAR)
 * @target: domain index, or the doorbell direction for LOST_DB
 * @arg: see include/uapi/ampsoc/vsoc_abi.h
 *
 * For tests that need a fault exactly around the transition they check.
 *
 * Context: Process context; sleeps. Serialised with other echo users.
 * Return: 0 or the model's negative status, -EOPNOTSUPP if the model has
 * no fault-control slot (ABI 1.0), -ETIMEDOUT if it does not answer.
 */
int vsoc_fault_ctl(struct vsoc *soc, u32 op, u32 kind, u32 target, u64 arg)
{
	struct vsoc_echo_state *e = &soc->echo;
	unsigned long deadline = jiffies + msecs_to_jiffies(VSOC_REQ_TIMEOUT_MS);
	void __iomem *f = vsoc_shm(soc, &soc->board->fault);
	int ret = 0;
	s32 st;

	if (!f)
		return -EOPNOTSUPP;
	mutex_lock(&e->lock);
	e->fault_seq = readl(f + FCTL(req_seq)) + 1;
	reinit_completion(&e->fault_done);
	writel(op, f + FCTL(op));
	writel(kind, f + FCTL(kind));
	writel(target, f + FCTL(target));
	writeq(arg, f + FCTL(arg));
	wmb(); /* the request before its sequence number */
	writel(e->fault_seq, f + FCTL(req_seq));
	wmb(); /* the sequence number before the doorbell */
	vsoc_kick(soc, soc->board->model_peer, VSOC_VEC_FAULT);
	while (readl(f + FCTL(ack_seq)) != e->fault_seq) {
		if (time_after(jiffies, deadline)) {
			ret = -ETIMEDOUT;
			goto out;
		}
		wait_for_completion_timeout(&e->fault_done, msecs_to_jiffies(10));
	}
	rmb(); /* the acknowledgment before the status */
	st = (s32)readl(f + FCTL(status));
	ret = st > 0 || st < -MAX_ERRNO ? -EIO : st;
out:
	mutex_unlock(&e->lock);
	return ret;
}
EXPORT_SYMBOL_GPL(vsoc_fault_ctl);

static irqreturn_t vsoc_echo_isr(int irq, void *data)
{
	struct vsoc *soc = data;
	struct vsoc_echo_state *e = &soc->echo;
	void __iomem *blk = soc->shm + soc->board->echo.offset;

	if (irq == soc->irq[VSOC_VEC_ECHO] ||
	    irq == soc->irq[VSOC_VEC_LOOPBACK]) {
		bool lb = irq == soc->irq[VSOC_VEC_LOOPBACK];

		if (lb != READ_ONCE(e->loopback) || READ_ONCE(e->answered))
			return IRQ_HANDLED; /* stale or unexpected: ignore */
		if (!lb && readl(blk + offsetof(struct vsoc_echo,
						ping_ack)) != READ_ONCE(e->seq))
			return IRQ_HANDLED;
		WRITE_ONCE(e->t_answer, ktime_get());
		WRITE_ONCE(e->answered, true);
		complete(&e->done);
		return IRQ_HANDLED;
	}

	if (irq == soc->irq[VSOC_VEC_FAULT]) {
		complete(&e->fault_done);
		return IRQ_HANDLED;
	}

	/* VSOC_VEC_ECHO_RT: either a ring to answer or the end of a run. */
	if (!READ_ONCE(e->rt_active))
		return IRQ_HANDLED;
	if (readl(blk + offsetof(struct vsoc_echo, rt_ack_seq)) ==
	    READ_ONCE(e->rt_seq)) {
		WRITE_ONCE(e->rt_finished, true);
		complete(&e->rt_done);
		return IRQ_HANDLED;
	}
	writel(readl(blk + offsetof(struct vsoc_echo, rt_ring_seq)),
	       blk + offsetof(struct vsoc_echo, rt_reply_seq));
	wmb(); /* the reply before the doorbell */
	vsoc_kick(soc, soc->board->model_peer, VSOC_VEC_ECHO_RT);
	return IRQ_HANDLED;
}

static void vsoc_free_board(void *data)
{
	vsoc_board_free(data);
}

static int vsoc_setup_irqs(struct vsoc *soc)
{
	struct device *dev = &soc->pdev->dev;
	static const u16 echo_vecs[] = {
		VSOC_VEC_ECHO, VSOC_VEC_ECHO_RT, VSOC_VEC_FAULT,
		VSOC_VEC_LOOPBACK,
	};
	unsigned int i;
	int ret;

	soc->irq = devm_kcalloc(dev, soc->nvec, sizeof(*soc->irq), GFP_KERNEL);
	if (!soc->irq)
		return -ENOMEM;
	for (i = 0; i < soc->nvec; i++) {
		soc->irq[i] = pci_irq_vector(soc->pdev, i);
		if (soc->irq[i] < 0)
			return soc->irq[i];
	}
	for (i = 0; i < ARRAY_SIZE(echo_vecs); i++) {
		if (echo_vecs[i] >= soc->board->nr_vectors)
			continue;
		ret = devm_request_irq(dev, soc->irq[echo_vecs[i]],
				       vsoc_echo_isr, IRQF_SHARED, "vsoc-echo",
				       soc);
		if (ret)
			return ret;
	}
	return 0;
}

struct vsoc_child_spec {
	const char *name;
	u32 index;
	struct resource res[VSOC_MAX_MEMS + 2];
	unsigned int nres;
	struct property_entry props[4];
	const char *domains[VSOC_MAX_DOMAINS];
	const char *clocks[VSOC_MAX_CLOCKS];
};

/*
 * What a core may ask Linux's resource manager for, as device properties
 * of its platform device (ampsoc_rpmsg_resmgr reads them, see
 * docs/resmgr.md): the board's lists, nothing when it gives none.
 */
static void spec_resmgr_policy(const struct vsoc_board *b,
			       const struct vsoc_core_info *c,
			       struct vsoc_child_spec *s)
{
	unsigned int i, nd = 0, nc = 0, np = 0;

	for (i = 0; i < b->nr_domains; i++)
		if (c->resmgr_domains & BIT(i))
			s->domains[nd++] = b->domains[i].name;
	for (i = 0; i < b->nr_clocks; i++)
		if (c->resmgr_clocks & BIT(i))
			s->clocks[nc++] = b->clocks[i].name;
	s->props[np++] = PROPERTY_ENTRY_BOOL("ampsoc,resmgr-policy");
	if (nd)
		s->props[np++] = PROPERTY_ENTRY_STRING_ARRAY_LEN("ampsoc,resmgr-domains",
								 s->domains, nd);
	if (nc)
		s->props[np++] = PROPERTY_ENTRY_STRING_ARRAY_LEN("ampsoc,resmgr-clocks",
								 s->clocks, nc);
}

static void spec_mem(struct vsoc *soc, struct vsoc_child_spec *s,
		     const struct vsoc_shm_area *a, const char *name)
{
	resource_size_t base = pci_resource_start(soc->pdev, VSOC_BAR_SHM);

	if (!a->size)
		return;
	s->res[s->nres++] = (struct resource)DEFINE_RES_MEM_NAMED(base + a->offset,
								  a->size, name);
}

static void spec_irq(struct vsoc *soc, struct vsoc_child_spec *s,
		     unsigned int vector, const char *name)
{
	unsigned int i;

	for (i = 0; i < s->nres; i++)
		if (resource_type(&s->res[i]) == IORESOURCE_IRQ &&
		    s->res[i].start == soc->irq[vector])
			return;
	s->res[s->nres++] = (struct resource)DEFINE_RES_IRQ_NAMED(soc->irq[vector],
								  name);
}

static int vsoc_add_child(struct vsoc *soc, struct vsoc_child_spec *s)
{
	struct vsoc_child_data cd = { .index = s->index };
	struct platform_device_info info = {
		.parent = &soc->pdev->dev,
		.name = s->name,
		.id = PLATFORM_DEVID_AUTO,
		.res = s->res,
		.num_res = s->nres,
		.data = &cd,
		.size_data = sizeof(cd),
		.dma_mask = DMA_BIT_MASK(64),
		.properties = s->props[0].name ? s->props : NULL,
	};
	struct platform_device *pd;

	pd = platform_device_register_full(&info);
	if (IS_ERR(pd)) {
		dev_err(&soc->pdev->dev, "cannot create %s.%u: %pe\n", s->name,
			s->index, pd);
		return PTR_ERR(pd);
	}
	soc->children[soc->nchildren++] = pd;
	return 0;
}

/*
 * A consumer cannot probe before its suppliers are bound, and is unbound
 * before they are: the driver core enforces both through managed links.
 */
static int vsoc_link(struct vsoc *soc, struct device *consumer,
		     const char *supplier_type)
{
	struct device *supplier = vsoc_find_child(soc, supplier_type, 0);

	if (!supplier)
		return 0;
	if (!device_link_add(consumer, supplier, DL_FLAG_AUTOPROBE_CONSUMER)) {
		dev_err(&soc->pdev->dev, "cannot link %s to %s\n",
			dev_name(consumer), dev_name(supplier));
		return -EINVAL;
	}
	return 0;
}

/*
 * Unbind the suppliers first: the device links unbind their consumers
 * before them, and the power controller detaches the consumers from their
 * domains while they still exist. Then unregister consumers, suppliers.
 */
static void vsoc_remove_children(struct vsoc *soc)
{
	unsigned int i;

	for (i = soc->nchildren; i-- > soc->nconsumers;)
		device_release_driver(&soc->children[i]->dev);
	for (i = soc->nconsumers; i-- > 0;)
		platform_device_unregister(soc->children[i]);
	for (i = soc->nchildren; i-- > soc->nconsumers;)
		platform_device_unregister(soc->children[i]);
	soc->nchildren = 0;
	soc->nconsumers = 0;
}

/*
 * Consumers (peripherals, cores) are created first: a consumer whose
 * driver is already loaded probes at once and defers, because its domain
 * is not attached yet. The suppliers (clocks, power, mailbox) come next,
 * so that each finds every consumer when it probes (clock lookups, domain
 * attach), and the links last: from then on the driver core probes a
 * consumer only with all its suppliers bound, probes it again whenever a
 * supplier binds again, and unbinds it before any supplier goes away.
 */
static int vsoc_create_children(struct vsoc *soc)
{
	const struct vsoc_board *b = soc->board;
	struct vsoc_child_spec *s;
	unsigned int i, j;
	int ret;

	soc->children = devm_kcalloc(&soc->pdev->dev,
				     3 + b->nr_periphs + b->nr_cores,
				     sizeof(*soc->children), GFP_KERNEL);
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!soc->children || !s) {
		kfree(s);
		return -ENOMEM;
	}

	for (i = 0; i < b->nr_periphs; i++) {
		const struct vsoc_periph_info *p = &b->periphs[i];

		*s = (struct vsoc_child_spec){
			.name = vsoc_periph_dev_name(p->type), .index = i,
		};
		spec_mem(soc, s, &p->regs, "regs");
		spec_mem(soc, s, &p->data, "data");
		spec_irq(soc, s, p->vector, p->name);
		ret = vsoc_add_child(soc, s);
		if (ret)
			goto out;
	}
	for (i = 0; i < b->nr_cores; i++) {
		const struct vsoc_core_info *c = &b->cores[i];

		*s = (struct vsoc_child_spec){ .name = VSOC_DEV_RPROC, .index = i };
		spec_resmgr_policy(b, c, s);
		spec_mem(soc, s, &c->ctl, "ctl");
		for (j = 0; j < c->nr_mems; j++)
			spec_mem(soc, s, &b->mems[c->first_mem + j].shm,
				 b->mems[c->first_mem + j].name);
		spec_irq(soc, s, VSOC_VEC_CORE, "core");
		ret = vsoc_add_child(soc, s);
		if (ret)
			goto out;
	}
	soc->nconsumers = soc->nchildren;

	*s = (struct vsoc_child_spec){ .name = VSOC_DEV_CLK };
	spec_mem(soc, s, &b->clk, "slots");
	spec_irq(soc, s, VSOC_VEC_CLK, "clk");
	ret = vsoc_add_child(soc, s);
	if (ret)
		goto out;

	*s = (struct vsoc_child_spec){ .name = VSOC_DEV_POWER };
	spec_mem(soc, s, &b->pwr, "slots");
	spec_irq(soc, s, VSOC_VEC_PWR, "power");
	ret = vsoc_add_child(soc, s);
	if (ret)
		goto out;

	if (b->nr_mboxes) {
		*s = (struct vsoc_child_spec){ .name = VSOC_DEV_MBOX };
		for (i = 0; i < b->nr_mboxes; i++) {
			spec_mem(soc, s, &b->mboxes[i].fifo, b->mboxes[i].name);
			if (b->mboxes[i].to == VSOC_MBOX_EP_GUEST)
				spec_irq(soc, s, b->mboxes[i].vector, "mbox");
		}
		ret = vsoc_add_child(soc, s);
		if (ret)
			goto out;
	}

	for (i = 0; i < soc->nconsumers; i++) {
		struct device *dev = &soc->children[i]->dev;

		ret = vsoc_link(soc, dev, VSOC_DEV_POWER);
		ret = ret ?: vsoc_link(soc, dev, VSOC_DEV_CLK);
		if (!ret && !strcmp(soc->children[i]->name, VSOC_DEV_RPROC))
			ret = vsoc_link(soc, dev, VSOC_DEV_MBOX);
		if (ret)
			goto out;
	}
out:
	kfree(s);
	if (ret)
		vsoc_remove_children(soc);
	return ret;
}

static int vsoc_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct device *dev = &pdev->dev;
	struct vsoc *soc;
	int ret, nvec;

	if (pdev->revision < 1) {
		dev_err(dev, "ivshmem revision %u is not supported (QEMU >= 2.6 needed)\n",
			pdev->revision);
		return -ENODEV;
	}
	soc = devm_kzalloc(dev, sizeof(*soc), GFP_KERNEL);
	if (!soc)
		return -ENOMEM;
	soc->pdev = pdev;
	soc->dev = dev;
	mutex_init(&soc->echo.lock);
	init_completion(&soc->echo.done);
	init_completion(&soc->echo.rt_done);
	init_completion(&soc->echo.fault_done);

	ret = pcim_enable_device(pdev);
	if (ret)
		return ret;
	if (!(pci_resource_flags(pdev, VSOC_BAR_SHM) & IORESOURCE_MEM) ||
	    !pci_resource_len(pdev, VSOC_BAR_SHM)) {
		dev_err(dev, "no shared memory in BAR2\n");
		return -ENODEV;
	}
	ret = pcim_iomap_regions(pdev, BIT(VSOC_BAR_REGS), KBUILD_MODNAME);
	if (ret)
		return ret;
	soc->regs = pcim_iomap_table(pdev)[VSOC_BAR_REGS];
	soc->shm_len = pci_resource_len(pdev, VSOC_BAR_SHM);
	soc->shm = pcim_iomap(pdev, VSOC_BAR_SHM, 0);
	if (!soc->shm)
		return -ENOMEM;
	pci_set_master(pdev);

	nvec = pci_msix_vec_count(pdev);
	if (nvec <= 0) {
		dev_err(dev, "no MSI-X: use -device ivshmem-doorbell,vectors=%u\n",
			VSOC_NR_VECTORS);
		return -ENODEV;
	}
	ret = pci_alloc_irq_vectors(pdev, nvec, nvec, PCI_IRQ_MSIX);
	if (ret < 0)
		return ret;
	soc->nvec = nvec;
	soc->own_id = readl(soc->regs + IVSHMEM_REG_IVPOSITION);

	ret = vsoc_board_load(soc);
	if (ret)
		return ret;
	/* Freed after the interrupts, whose handlers read it. */
	ret = devm_add_action_or_reset(dev, vsoc_free_board, soc);
	if (ret)
		return ret;
	ret = vsoc_setup_irqs(soc);
	if (ret)
		return ret;

	soc->id = ida_alloc(&vsoc_ida, GFP_KERNEL);
	if (soc->id < 0)
		return soc->id;
	pci_set_drvdata(pdev, soc);
	vsoc_debugfs_init(soc);

	ret = vsoc_create_children(soc);
	if (ret)
		goto err_debugfs;
	dev_info(dev, "vsoc%d: board \"%s\" v%u.%u, %u domains, %u clocks, %u peripherals, %u cores, %u mailboxes\n",
		 soc->id, soc->board->name, soc->board->version >> 16,
		 soc->board->version & 0xffff, soc->board->nr_domains,
		 soc->board->nr_clocks, soc->board->nr_periphs,
		 soc->board->nr_cores, soc->board->nr_mboxes);
	return 0;

err_debugfs:
	vsoc_debugfs_exit(soc);
	ida_free(&vsoc_ida, soc->id);
	return ret;
}

static void vsoc_remove(struct pci_dev *pdev)
{
	struct vsoc *soc = pci_get_drvdata(pdev);

	vsoc_remove_children(soc);
	vsoc_debugfs_exit(soc);
	ida_free(&vsoc_ida, soc->id);
}

static const struct pci_device_id vsoc_ids[] = {
	{ PCI_DEVICE(PCI_VENDOR_ID_REDHAT_QUMRANET, 0x1110) },
	{ }
};
MODULE_DEVICE_TABLE(pci, vsoc_ids);

static struct pci_driver vsoc_pci_driver = {
	.name = "ampsoc_vsoc",
	.id_table = vsoc_ids,
	.probe = vsoc_probe,
	.remove = vsoc_remove,
};

static int __init vsoc_init(void)
{
	int ret;

	vsoc_debugfs_root_init();
	ret = pci_register_driver(&vsoc_pci_driver);
	if (ret)
		vsoc_debugfs_root_exit();
	return ret;
}
module_init(vsoc_init);

static void __exit vsoc_exit(void)
{
	pci_unregister_driver(&vsoc_pci_driver);
	vsoc_debugfs_root_exit();
}
module_exit(vsoc_exit);

MODULE_DESCRIPTION("ampsoc virtual SoC: ivshmem-doorbell core driver");
MODULE_LICENSE("GPL");
