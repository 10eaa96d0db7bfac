// SPDX-License-Identifier: GPL-2.0
/*
 * vsoc request slots: the handshake the power and clock controllers share
 * with the model (docs/shm-abi.md, "Request slots"). The completion
 * doorbell only wakes the waiter early; the acknowledgment in shared
 * memory is what counts, so a lost doorbell costs a poll interval, not a
 * timeout.
 */
#include <linux/delay.h>
#include <linux/io.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>

#include "vsoc_internal.h"

#define SLOT(field)	offsetof(struct vsoc_req_slot, field)

/* How often a waiter looks at the slot when no doorbell came. */
#define VSOC_SLOT_POLL_MS	10

/**
 * vsoc_slot_init() - bind a request slot in shared memory
 * @slot: the guest-side state to initialise
 * @regs: the struct vsoc_req_slot in shared memory
 *
 * Continues the sequence numbers found in the slot, so that a reloaded
 * driver does not look like a replay.
 *
 * Context: Any context.
 */
void vsoc_slot_init(struct vsoc_slot *slot, void __iomem *regs)
{
	slot->regs = regs;
	slot->seq = readl(regs + SLOT(req_seq));
	init_completion(&slot->done);
}
EXPORT_SYMBOL_GPL(vsoc_slot_init);

/**
 * vsoc_slot_busy() - whether a request is still in flight
 * @slot: the slot
 *
 * Context: Any context.
 * Return: true if the model has not acknowledged the last request.
 */
bool vsoc_slot_busy(struct vsoc_slot *slot)
{
	return readl(slot->regs + SLOT(ack_seq)) != slot->seq;
}
EXPORT_SYMBOL_GPL(vsoc_slot_busy);

/**
 * vsoc_slot_poll() - wake the waiter if its request was acknowledged
 * @slot: the slot
 *
 * Called from the controller's interrupt handler for each of its slots.
 *
 * Context: Any context.
 * Return: true if the slot's request is complete.
 */
bool vsoc_slot_poll(struct vsoc_slot *slot)
{
	if (vsoc_slot_busy(slot))
		return false;
	complete(&slot->done);
	return true;
}
EXPORT_SYMBOL_GPL(vsoc_slot_poll);

/* Post a request on @slot and ring the model; 0 or -EBUSY. */
static int vsoc_slot_post(struct vsoc *soc, struct vsoc_slot *slot,
			  u16 vector, u32 op, u64 arg)
{
	void __iomem *r = slot->regs;

	if (vsoc_slot_busy(slot))
		return -EBUSY;
	reinit_completion(&slot->done);
	writel(op, r + SLOT(op));
	writel(0, r + SLOT(flags));
	writel(0, r + SLOT(reserved0));
	writeq(arg, r + SLOT(arg));
	wmb(); /* the request before its sequence number */
	writel(++slot->seq, r + SLOT(req_seq));
	wmb(); /* the sequence number before the doorbell */
	vsoc_kick(soc, soc->board->model_peer, vector);
	return 0;
}

/* The model's answer to an acknowledged request. */
static int vsoc_slot_collect(struct vsoc_slot *slot,
			     struct vsoc_slot_result *res)
{
	void __iomem *r = slot->regs;
	s32 status;

	rmb(); /* the acknowledgment before the results */
	status = (s32)readl(r + SLOT(status));
	if (res) {
		res->state = readl(r + SLOT(state));
		res->rate_hz = readq(r + SLOT(rate_hz));
		res->done_ns = readq(r + SLOT(done_ns));
	}
	if (status > 0 || status < -MAX_ERRNO)
		return -EIO;
	return status;
}

/**
 * vsoc_slot_submit() - submit a request and wait for the model's answer
 * @soc: the SoC
 * @slot: the slot (callers serialise requests on one slot)
 * @vector: the controller's doorbell vector
 * @op: VSOC_PWR_OP_* or VSOC_CLK_OP_*
 * @arg: operation argument
 * @timeout_ms: give up after this long (a stuck target)
 * @res: where the model's answer goes (may be NULL)
 *
 * Context: Process context; sleeps.
 * Return: 0 or the model's negative status; -EBUSY if the previous request
 * on this slot never completed, -ETIMEDOUT if this one does not, -EIO for
 * a status that is not an errno.
 */
int vsoc_slot_submit(struct vsoc *soc, struct vsoc_slot *slot, u16 vector,
		     u32 op, u64 arg, unsigned int timeout_ms,
		     struct vsoc_slot_result *res)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(timeout_ms);
	int ret;

	ret = vsoc_slot_post(soc, slot, vector, op, arg);
	if (ret)
		return ret;
	while (vsoc_slot_busy(slot)) {
		if (time_after(jiffies, deadline))
			return -ETIMEDOUT;
		wait_for_completion_timeout(&slot->done,
					    msecs_to_jiffies(VSOC_SLOT_POLL_MS));
	}
	return vsoc_slot_collect(slot, res);
}
EXPORT_SYMBOL_GPL(vsoc_slot_submit);

/**
 * vsoc_slot_submit_atomic() - submit a request and poll for the answer
 * @soc: the SoC
 * @slot: the slot (callers serialise requests on one slot)
 * @vector: the controller's doorbell vector
 * @op: VSOC_PWR_OP_* or VSOC_CLK_OP_*
 * @arg: operation argument
 * @timeout_us: give up after this long (a stuck target)
 * @res: where the model's answer goes (may be NULL)
 *
 * As vsoc_slot_submit(), but busy-waits on the acknowledgment, without
 * the completion doorbell, for an IRQ-safe domain (VSOC_DOMAIN_IRQ_SAFE)
 * whose requests are made with interrupts off. Time is measured with
 * ktime_get(), which advances with interrupts off.
 *
 * Context: Any context; does not sleep. Spins for up to @timeout_us.
 * Return: as vsoc_slot_submit().
 */
int vsoc_slot_submit_atomic(struct vsoc *soc, struct vsoc_slot *slot,
			    u16 vector, u32 op, u64 arg,
			    unsigned int timeout_us,
			    struct vsoc_slot_result *res)
{
	ktime_t deadline = ktime_add_us(ktime_get(), timeout_us);
	int ret;

	ret = vsoc_slot_post(soc, slot, vector, op, arg);
	if (ret)
		return ret;
	while (vsoc_slot_busy(slot)) {
		if (ktime_after(ktime_get(), deadline))
			return vsoc_slot_busy(slot) ? -ETIMEDOUT :
						      vsoc_slot_collect(slot, res);
		udelay(1);
	}
	return vsoc_slot_collect(slot, res);
}
EXPORT_SYMBOL_GPL(vsoc_slot_submit_atomic);
