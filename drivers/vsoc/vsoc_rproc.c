// SPDX-License-Identifier: GPL-2.0
/*
 * Remote processors of the ampsoc virtual SoC.
 *
 * The vsoc PCI core creates one "vsoc-rproc" platform device per remote core
 * of the board. This driver registers each one as a remote processor. It
 * is written against mainline's remoteproc API (<linux/remoteproc.h>) and
 * built from this one source twice: against ampsoc's remoteproc, through
 * include/compat/linux/remoteproc.h (drivers/vsoc/Kbuild), and
 * against Linux's own, the peer stack (tests/peer/Kbuild). What differs is
 * in one place, "The two stacks" below, keyed on AMPSOC_COMPAT_REMOTEPROC,
 * which the compat header defines:
 *
 * - memory: BAR2 is given struct pages once per SoC (devm_memremap_pages()
 *   on the PCI device); the firmware sees 32-bit addresses, so BAR2 must
 *   sit below 4 GiB. On ampsoc's stack, the core's memory map (windows of
 *   BAR2) is declared with ampsoc_rproc_add_mem() and serves every
 *   allocation, vrings and rpmsg buffers included. On mainline's, the
 *   windows serve da_to_va() (the image, trace buffers), and the vrings
 *   and rpmsg buffers come from the DMA API in Linux's DRAM, as on a real
 *   SoC: the core sees that DRAM at the board's ddr address (the control
 *   block's ddr_da/ddr_size), and the vrings are carveouts this driver
 *   allocates and places at the core's address of them;
 * - start/stop: the boot address and a RUN or HALT request in the core's
 *   control block, acknowledged by the SoC model, which forks or kills the
 *   process that runs the firmware;
 * - kicks: the vring's notify id as a word on the core's guest->core
 *   mailbox channel (the mailbox rings the core's doorbell); a kick that
 *   finds an earlier kick word still queued is merged into it;
 * - notifications from the core: words on its core->guest mailbox channel
 *   (a vring notify id, or the reserved CRASH and ECHO_REPLY words);
 * - the vring firewall (ABI 1.3): before a start, the driver-owned part of
 *   every vring of the loaded resource table (descriptor table, available
 *   ring and the padding before the used ring) is written into the control
 *   block; the model makes those pages read-only for the core when the
 *   board enables its firewall;
 * - crashes: the model's crash count in the control block, signalled on
 *   VSOC_VEC_CORE and by a CRASH word, becomes one crash report; a fault
 *   the core's runner reported (a firewall write, a bad access) is an MMU
 *   fault, logged with its address;
 * - static rpmsg channels: those the board declares for the core are
 *   declared to ampsoc's rpmsg, so that each boot's transport creates them
 *   (mainline's rpmsg has no such thing);
 * - power: the platform device is in the core's PM domain; the driver
 *   holds a runtime-PM reference from start to stop (ampsoc's remoteproc
 *   holds one more from boot to shutdown, mainline's none), so the model
 *   sees the domain on exactly while the core runs, system sleep included
 *   (a running core keeps running, see vsoc_rproc_suspend()).
 *
 * The mailbox channels are held only while the core runs.
 * debugfs vsoc_rproc/<device>/mbox_ping measures the raw round trip of the
 * mailbox path rpmsg uses (ECHO_REQUEST answered by every ampsoc firmware).
 */
#include <linux/debugfs.h>
#include <linux/dma-mapping.h>
#include <linux/elf.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/ktime.h>
#include <linux/mailbox_client.h>
#include <linux/memremap.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/platform_device.h>
#include <linux/pm_runtime.h>
#include <linux/remoteproc.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>
#include <linux/spinlock.h>
#include <linux/virtio_ring.h>
#include <linux/workqueue.h>
#include <uapi/ampsoc/core_fault.h>
#include <uapi/ampsoc/rsc_table.h>
#include <ampsoc/pm_domain.h>
#include <ampsoc/vsoc.h>

/* rproc_vq_interrupt() and the ELF helpers: exported, declared in private */
#include "remoteproc_internal.h"
#ifdef AMPSOC_COMPAT_REMOTEPROC
#include <ampsoc/rpmsg.h>
#endif

#define VSOC_RPROC_BAR_SHM	2
/* Notify ids served by their own work item; rpmsg uses 0 and 1. */
#define VSOC_RPROC_MAX_VQS	16
#define VSOC_RPROC_PING_MAX	100000

#define CTL(field)	offsetof(struct vsoc_core_ctl, field)

/*
 * What the vring firewall and the vring placement read of the resource
 * table (<uapi/ampsoc/rsc_table.h>, mainline's layout), walked the same
 * way on both stacks, within these bounds.
 */
#define VSOC_RSC_MAX_ENTRIES	256
#define VSOC_RSC_MAX_VRINGS	2
#define VSOC_RSC_MAX_VRING_NUM	32768
#define VSOC_RSC_MIN_VRING_ALIGN 16
#define VSOC_RSC_MAX_VRING_ALIGN 65536

struct vsoc_rproc;

/**
 * struct vsoc_rproc_vq - delivery of one notify id from the core
 * @work: calls rproc_vq_interrupt() in process context
 * @vr: the core
 * @id: the notify id
 */
struct vsoc_rproc_vq {
	struct work_struct work;
	struct vsoc_rproc *vr;
	int id;
};

/**
 * struct vsoc_rproc - one remote core
 * @dev: the vsoc-rproc platform device
 * @soc: the SoC
 * @board: its validated board
 * @core: this core in @board
 * @rproc: the registered remote processor
 * @ctl: the core's struct vsoc_core_ctl
 * @seq: sequence number of our last control request
 * @pending: a control request is waiting for its acknowledgment
 * @ack: completed by the VSOC_VEC_CORE interrupt
 * @lock: protects @running and @crash_seen
 * @running: the core was released from reset and has not crashed since
 * @crash_seen: the model's crash count when the core was last started
 * @cl: mailbox client
 * @tx: guest->core mailbox channel
 * @rx: core->guest mailbox channel
 * @wq: runs the notify-id work items; one id may block (rpmsg rx) while
 *	another (tx complete) runs
 * @vqs: one work item per notify id
 * @echo: completed by an ECHO_REPLY word
 * @ping_lock: serialises mailbox round-trip measurements
 * @iters: round trips per mbox_ping read
 * @bad_words: words from the core that meant nothing
 * @kick_queued: a kick word is queued on @tx and not yet written to the FIFO
 * @kicks: kick words sent
 * @kicks_merged: kicks merged into a queued kick word
 * @kicks_rung: kicks sent as a doorbell alone (FIFO full, word refused)
 * @fw_regions: firewall regions written for the last start
 * @ddr_da: the core's device address of Linux's DRAM (guest physical 0)
 * @ddr_size: bytes of Linux's DRAM the core sees; 0 if it sees none
 * @shm_va: kernel mapping of BAR2
 * @shm_pa: BAR2's physical address
 * @pm_held: the runtime-PM reference of a started core is held
 * @dbg: debugfs directory
 */
struct vsoc_rproc {
	struct device *dev;
	struct vsoc *soc;
	const struct vsoc_board *board;
	const struct vsoc_core_info *core;
	struct rproc *rproc;
	void __iomem *ctl;
	u32 seq;
	bool pending;
	struct completion ack;
	spinlock_t lock;		/* @running, @crash_seen */
	bool running;
	u32 crash_seen;
	struct mbox_client cl;
	struct mbox_chan *tx;
	struct mbox_chan *rx;
	struct workqueue_struct *wq;
	struct vsoc_rproc_vq vqs[VSOC_RPROC_MAX_VQS];
	struct completion echo;
	struct mutex ping_lock;		/* one measurement at a time */
	u32 iters;
	atomic_t bad_words;
	atomic_t kick_queued;
	atomic_t kicks;
	atomic_t kicks_merged;
	atomic_t kicks_rung;
	u32 fw_regions;
	u64 ddr_da;
	u64 ddr_size;
	void *shm_va;
	phys_addr_t shm_pa;
	bool pm_held;
	struct dentry *dbg;
};

static struct dentry *vsoc_rproc_dbg_root;
/* Serialises the one-per-SoC struct page mapping of BAR2. */
static DEFINE_MUTEX(vsoc_rproc_map_lock);

/*
 * Give BAR2 struct pages and a kernel mapping, once per PCI device: the
 * mapping belongs to the PCI device (devres), so it outlives this module
 * and every core, and a later probe finds it with get_dev_pagemap().
 */
static void *vsoc_rproc_map_shm(struct vsoc_rproc *vr, phys_addr_t *base)
{
	struct device *pdev = vr->dev->parent;
	struct pci_dev *pci;
	struct dev_pagemap *pgmap;
	resource_size_t start, len;
	void *va;

	if (!pdev || !dev_is_pci(pdev))
		return ERR_PTR(-ENODEV);
	/* Without it devm_memremap_pages() is a stub that WARNs. */
	if (!IS_ENABLED(CONFIG_ZONE_DEVICE)) {
		dev_err(vr->dev,
			"kernel without CONFIG_ZONE_DEVICE: no struct pages for BAR2\n");
		return ERR_PTR(-EOPNOTSUPP);
	}
	pci = to_pci_dev(pdev);
	start = pci_resource_start(pci, VSOC_RPROC_BAR_SHM);
	len = pci_resource_len(pci, VSOC_RPROC_BAR_SHM);
	if (!len || len < vr->board->shm_size)
		return ERR_PTR(-ENODEV);
	if (start + len > SZ_4G) {
		dev_err(vr->dev,
			"BAR2 %pR is above 4 GiB: firmware carveout addresses are 32-bit\n",
			&pci->resource[VSOC_RPROC_BAR_SHM]);
		return ERR_PTR(-ERANGE);
	}
	*base = start;

	mutex_lock(&vsoc_rproc_map_lock);
	pgmap = get_dev_pagemap(PHYS_PFN(start), NULL);
	if (pgmap) {
		put_dev_pagemap(pgmap);
		va = __va(start);
		goto out;
	}
	pgmap = devm_kzalloc(pdev, sizeof(*pgmap), GFP_KERNEL);
	if (!pgmap) {
		va = ERR_PTR(-ENOMEM);
		goto out;
	}
	pgmap->type = MEMORY_DEVICE_GENERIC;
	pgmap->range.start = start;
	pgmap->range.end = start + len - 1;
	pgmap->nr_range = 1;
	va = devm_memremap_pages(pdev, pgmap);
	if (IS_ERR(va))
		dev_err(vr->dev, "cannot give BAR2 %pR struct pages: %ld\n",
			&pci->resource[VSOC_RPROC_BAR_SHM], PTR_ERR(va));
out:
	mutex_unlock(&vsoc_rproc_map_lock);
	return va;
}

/* ---- control block ------------------------------------------------------ */

static bool vsoc_rproc_acked(struct vsoc_rproc *vr)
{
	return readl(vr->ctl + CTL(ack_seq)) == vr->seq;
}

/*
 * Submit @op and wait for the model's acknowledgment. A lost doorbell
 * costs a 10 ms poll; a model that never answers, a timeout.
 */
static int vsoc_rproc_request(struct vsoc_rproc *vr, u32 op)
{
	unsigned long timeout = msecs_to_jiffies(VSOC_REQ_TIMEOUT_MS);
	unsigned long deadline = jiffies + timeout;
	int status;

	reinit_completion(&vr->ack);
	writel(op, vr->ctl + CTL(op));
	vr->seq++;
	WRITE_ONCE(vr->pending, true);
	wmb(); /* the request before its sequence number */
	writel(vr->seq, vr->ctl + CTL(req_seq));
	vsoc_kick(vr->soc, vr->board->model_peer, VSOC_VEC_CORE);
	while (!vsoc_rproc_acked(vr)) {
		if (time_after(jiffies, deadline)) {
			WRITE_ONCE(vr->pending, false);
			dev_err(vr->dev, "%s: model did not answer op %u\n",
				vr->core->name, op);
			return -ETIMEDOUT;
		}
		wait_for_completion_timeout(&vr->ack, msecs_to_jiffies(10));
		reinit_completion(&vr->ack);
	}
	WRITE_ONCE(vr->pending, false);
	rmb(); /* the acknowledgment before the result */
	status = (s32)readl(vr->ctl + CTL(status));
	if (status > 0 || status < -MAX_ERRNO) {
		dev_err(vr->dev, "%s: model returned bad status %d\n",
			vr->core->name, status);
		return -EIO;
	}
	return status;
}

/* The control block has the ABI 1.3 fields (firewall, fault details). */
static bool vsoc_rproc_ctl_1_3(const struct vsoc_rproc *vr)
{
	return (vr->board->version & 0xffff) >= 3;
}

static void vsoc_rproc_set_prstatus(struct rproc *rproc, int signo,
				    const void *regs, size_t len);

/* The control block has the ABI 1.4 fields (a fault's registers). */
static bool vsoc_rproc_ctl_1_4(const struct vsoc_rproc *vr)
{
	return (vr->board->version & 0xffff) >= 4;
}

/*
 * The registers of the fault that ended the core, for the coredump's
 * NT_PRSTATUS note: the model's copy of the runner's record is in gdb's
 * order (ARMv7-M r0-r15, xPSR; RV32 x0-x31, pc), a Linux core file's
 * pr_reg is ARM's r0-r15, cpsr, orig_r0 and RISC-V's pc, x1-x31. A crash
 * without a record, or of a native core, leaves no registers.
 */
static void vsoc_rproc_crash_regs(struct vsoc_rproc *vr, u32 reason)
{
	u32 regs[VSOC_CORE_FAULT_REGS] = {};
	u32 nr = 0, signo = 0, i, want;

	if (reason == VSOC_CRASH_FAULT && vsoc_rproc_ctl_1_4(vr)) {
		nr = readl(vr->ctl + CTL(fault_nr_regs));
		signo = readl(vr->ctl + CTL(fault_signo));
	}
	switch (vr->core->isa) {
	case AMPSOC_CORE_ISA_ARMV7M:
		want = 17;
		break;
	case AMPSOC_CORE_ISA_RV32IMAC:
		want = 33;
		break;
	default:
		want = 0;
		break;
	}
	if (!want || nr != want) {
		if (nr && want)
			dev_warn(vr->dev, "%s: %u fault registers, expected %u: dump without them\n",
				 vr->core->name, nr, want);
		vsoc_rproc_set_prstatus(vr->rproc, 0, NULL, 0);
		return;
	}
	if (vr->core->isa == AMPSOC_CORE_ISA_ARMV7M) {
		/* r0-r15, xPSR as cpsr; orig_r0 stays 0 */
		for (i = 0; i < 17; i++)
			regs[i] = readq(vr->ctl + CTL(fault_regs[i]));
		vsoc_rproc_set_prstatus(vr->rproc, signo, regs,
					18 * sizeof(u32));
		return;
	}
	/* pc first, then x1-x31 (x0 is always zero) */
	regs[0] = readq(vr->ctl + CTL(fault_regs[32]));
	for (i = 1; i < 32; i++)
		regs[i] = readq(vr->ctl + CTL(fault_regs[i]));
	vsoc_rproc_set_prstatus(vr->rproc, signo, regs, 32 * sizeof(u32));
}

static enum rproc_crash_type vsoc_rproc_crash_type(u32 reason, u32 info)
{
	if (reason == VSOC_CRASH_WATCHDOG)
		return RPROC_WATCHDOG;
	/* The core's own watchdog, as its runner reported it. */
	if (reason == VSOC_CRASH_FAULT && info == AMPSOC_CORE_FAULT_WATCHDOG)
		return RPROC_WATCHDOG;
	/* SIGSEGV (11) and SIGBUS (7): a bad memory access. */
	if (reason == VSOC_CRASH_SIGNAL && (info == 11 || info == 7))
		return RPROC_MMUFAULT;
	/* What the core's runner saw: a memory access it refused. */
	if (reason == VSOC_CRASH_FAULT &&
	    (info == AMPSOC_CORE_FAULT_FIREWALL ||
	     info == AMPSOC_CORE_FAULT_UNMAPPED ||
	     info == AMPSOC_CORE_FAULT_PROT))
		return RPROC_MMUFAULT;
	return RPROC_FATAL_ERROR;
}

static const char *vsoc_rproc_access_name(u32 access)
{
	switch (access) {
	case AMPSOC_CORE_ACCESS_READ:
		return "read";
	case AMPSOC_CORE_ACCESS_WRITE:
		return "write";
	case AMPSOC_CORE_ACCESS_FETCH:
		return "fetch";
	default:
		return "access";
	}
}

/* One line saying why the core crashed. */
static void vsoc_rproc_log_crash(struct vsoc_rproc *vr, u32 reason, u32 info)
{
	if (reason != VSOC_CRASH_FAULT || !vsoc_rproc_ctl_1_3(vr)) {
		dev_err(vr->dev, "%s crashed: reason %u info %u\n",
			vr->core->name, reason, info);
		return;
	}
	dev_err(vr->dev, "%s crashed: %s fault: %s at %#llx, pc %#llx\n",
		vr->core->name, ampsoc_core_fault_name(info),
		vsoc_rproc_access_name(readl(vr->ctl + CTL(fault_access))),
		readq(vr->ctl + CTL(fault_addr)), readq(vr->ctl + CTL(fault_pc)));
}

/* Turn a new crash of a running core into exactly one report. */
static bool vsoc_rproc_check_crash(struct vsoc_rproc *vr)
{
	unsigned long flags;
	u32 count, reason = 0, info = 0;
	bool report = false;

	spin_lock_irqsave(&vr->lock, flags);
	if (vr->running) {
		count = readl(vr->ctl + CTL(crash_count));
		rmb(); /* the count before the state and reason */
		if (count != vr->crash_seen &&
		    readl(vr->ctl + CTL(state)) == VSOC_CORE_CRASHED) {
			vr->crash_seen = count;
			vr->running = false;
			reason = readl(vr->ctl + CTL(crash_reason));
			info = readl(vr->ctl + CTL(crash_info));
			report = true;
		}
	}
	spin_unlock_irqrestore(&vr->lock, flags);
	if (report) {
		vsoc_rproc_log_crash(vr, reason, info);
		vsoc_rproc_crash_regs(vr, reason);
		rproc_report_crash(vr->rproc,
				   vsoc_rproc_crash_type(reason, info));
	}
	return report;
}

static irqreturn_t vsoc_rproc_isr(int irq, void *data)
{
	struct vsoc_rproc *vr = data;
	bool handled = false;

	if (READ_ONCE(vr->pending) && vsoc_rproc_acked(vr)) {
		complete(&vr->ack);
		handled = true;
	}
	if (vsoc_rproc_check_crash(vr))
		handled = true;
	return handled ? IRQ_HANDLED : IRQ_NONE;
}

/* ---- the vring firewall ------------------------------------------------ */

/* Does [da, da + len) lie in one memory of the core, or in Linux's DRAM? */
static bool vsoc_rproc_da_ok(struct vsoc_rproc *vr, u64 da, u64 len)
{
	const struct vsoc_core_info *c = vr->core;
	unsigned int i;

	for (i = 0; i < c->nr_mems; i++) {
		const struct vsoc_mem_info *m = &vr->board->mems[c->first_mem + i];

		if (da >= m->da && da - m->da <= m->shm.size &&
		    len <= m->shm.size - (da - m->da))
			return true;
	}
	return vr->ddr_size && da >= vr->ddr_da &&
	       da - vr->ddr_da <= vr->ddr_size &&
	       len <= vr->ddr_size - (da - vr->ddr_da);
}

/* A vring's geometry as the virtio spec and mainline accept it. */
static bool vsoc_rproc_vring_sane(u32 num, u32 align)
{
	return is_power_of_2(num) && num <= VSOC_RSC_MAX_VRING_NUM &&
	       is_power_of_2(align) && align >= VSOC_RSC_MIN_VRING_ALIGN &&
	       align <= VSOC_RSC_MAX_VRING_ALIGN;
}

/*
 * Call @fn for every vring of every vdev of the resource table @t (@size
 * bytes), with the vdev's index among the table's vdevs (mainline's
 * rvdev->index). The table may be in the core's memory: each field is
 * copied out once and checked before use.
 */
static int vsoc_rproc_walk_vrings(struct vsoc_rproc *vr, const u8 *t,
				  size_t size,
				  int (*fn)(struct vsoc_rproc *vr,
					    const struct ampsoc_rsc_vring *r,
					    u32 vdev, u32 vring, void *arg),
				  void *arg)
{
	struct ampsoc_rsc_table hdr;
	u32 i, k, num, off, type, nvdev = 0;
	int ret;

	if (!t || size < sizeof(hdr))
		return 0;
	memcpy(&hdr, t, sizeof(hdr));
	num = hdr.num;
	if (num > VSOC_RSC_MAX_ENTRIES ||
	    sizeof(hdr) + num * sizeof(u32) > size)
		return -EINVAL;
	for (i = 0; i < num; i++) {
		struct ampsoc_rsc_vdev vdev;

		memcpy(&off, t + sizeof(hdr) + i * sizeof(u32), sizeof(off));
		if (off > size || size - off < sizeof(type))
			return -EINVAL;
		memcpy(&type, t + off, sizeof(type));
		if (type != AMPSOC_RSC_VDEV)
			continue;
		off += sizeof(type);
		if (size - off < sizeof(vdev))
			return -EINVAL;
		memcpy(&vdev, t + off, sizeof(vdev));
		if (vdev.num_of_vrings > VSOC_RSC_MAX_VRINGS ||
		    size - off - sizeof(vdev) <
		    vdev.num_of_vrings * sizeof(struct ampsoc_rsc_vring))
			return -EINVAL;
		for (k = 0; k < vdev.num_of_vrings; k++) {
			struct ampsoc_rsc_vring r;

			memcpy(&r, t + off + sizeof(vdev) + k * sizeof(r),
			       sizeof(r));
			ret = fn(vr, &r, nvdev, k, arg);
			if (ret)
				return ret;
		}
		nvdev++;
	}
	return 0;
}

struct vsoc_rproc_fw_walk {
	struct vsoc_fw_region *fw;
	unsigned int n;
};

/*
 * The driver-owned part of one vring: the descriptor table (16 bytes per
 * buffer) at its device address, the available ring right after it (6 +
 * 2 * num bytes), and the padding up to the used ring, which starts at the
 * next multiple of the ring's alignment. Only Linux writes any of it; the
 * core writes the used ring alone.
 */
static int vsoc_rproc_vring_region(struct vsoc_rproc *vr,
				   const struct ampsoc_rsc_vring *r,
				   u32 vdev, u32 vring, void *arg)
{
	struct vsoc_rproc_fw_walk *w = arg;
	u32 da = r->da, num = r->num, align = r->align;
	struct rproc_mem_entry *mem;
	char name[32];
	u64 len;

	if (w->n == VSOC_CORE_FW_REGIONS)
		return -ENOSPC;
	/*
	 * The table has the vring's address only once the virtio device has
	 * found its queues (mainline writes it back then, after the start);
	 * the memory is already allocated, as the carveout mainline names
	 * vdev<N>vring<M>, and that is where the address comes from.
	 */
	snprintf(name, sizeof(name), "vdev%uvring%u", vdev, vring);
	list_for_each_entry(mem, &vr->rproc->carveouts, node) {
		if (!strcmp(mem->name, name)) {
			da = mem->da;
			break;
		}
	}

	if (!vsoc_rproc_vring_sane(num, align) || da == AMPSOC_FW_RSC_ADDR_ANY)
		return -EINVAL;
	len = ALIGN(16ULL * num + 6 + 2ULL * num, align);
	if (!vsoc_rproc_da_ok(vr, da, len))
		return -ERANGE;
	w->fw[w->n].da = cpu_to_le64(da);
	w->fw[w->n].len = cpu_to_le64(len);
	w->n++;
	return 0;
}

/* Collect the firewall regions from the loaded resource table. */
static int vsoc_rproc_fw_regions(struct vsoc_rproc *vr,
				 struct vsoc_fw_region *fw, unsigned int *n)
{
	struct vsoc_rproc_fw_walk w = { .fw = fw };
	int ret;

	ret = vsoc_rproc_walk_vrings(vr, (const u8 *)vr->rproc->table_ptr,
				     vr->rproc->table_sz,
				     vsoc_rproc_vring_region, &w);
	*n = w.n;
	return ret;
}

/* Program the firewall for the coming start (nothing before ABI 1.3). */
static int vsoc_rproc_program_firewall(struct vsoc_rproc *vr)
{
	struct vsoc_fw_region fw[VSOC_CORE_FW_REGIONS];
	unsigned int i, n;
	int ret;

	if (!vsoc_rproc_ctl_1_3(vr))
		return 0;
	ret = vsoc_rproc_fw_regions(vr, fw, &n);
	if (ret && (vr->core->flags & VSOC_CORE_F_FIREWALL)) {
		dev_err(vr->dev, "%s: cannot firewall the vrings of the resource table: %d\n",
			vr->core->name, ret);
		return ret;
	}
	if (ret)
		n = 0;	/* nothing enforces it: nothing to program */
	for (i = 0; i < n; i++) {
		void __iomem *r = vr->ctl + CTL(fw) + i * sizeof(fw[0]);

		writeq(le64_to_cpu(fw[i].da),
		       r + offsetof(struct vsoc_fw_region, da));
		writeq(le64_to_cpu(fw[i].len),
		       r + offsetof(struct vsoc_fw_region, len));
	}
	writel(0, vr->ctl + CTL(fw_reserved));
	writel(n, vr->ctl + CTL(fw_count));
	vr->fw_regions = n;
	return 0;
}

/* ---- the two stacks ---------------------------------------------------- */

/*
 * Everything that differs between ampsoc's remoteproc and mainline's is
 * here. AMPSOC_COMPAT_REMOTEPROC comes from include/compat/linux/remoteproc.h,
 * which the ampsoc build puts first on the include path; the peer build
 * (tests/peer/Kbuild) compiles this file against mainline's own header.
 */
#ifdef AMPSOC_COMPAT_REMOTEPROC

/*
 * ampsoc: the core's windows of BAR2 are declared memory, which serves
 * the carveouts, the vrings and the rpmsg buffers (the firmware's
 * vdev0buffer carveout, or a buffer region of declared memory).
 */
static int vsoc_rproc_stack_mem(struct vsoc_rproc *vr)
{
	const struct vsoc_core_info *c = vr->core;
	unsigned int i;
	int ret;

	for (i = 0; i < c->nr_mems; i++) {
		const struct vsoc_mem_info *m = &vr->board->mems[c->first_mem + i];

		ret = ampsoc_rproc_add_mem(vr->rproc, m->name, m->da,
					   vr->shm_pa + m->shm.offset,
					   vr->shm_va + m->shm.offset,
					   m->shm.size);
		if (ret) {
			dev_err(vr->dev, "%s: memory %s refused: %d\n", c->name,
				m->name, ret);
			return ret;
		}
	}
	return 0;
}

static void vsoc_rproc_forget_chans(void *dev)
{
	ampsoc_rpmsg_forget_static_channels(dev);
}

/*
 * The board's static rpmsg channels of this core: every rpmsg transport
 * below this device creates them when it probes, at each boot.
 */
static int vsoc_rproc_stack_chans(struct vsoc_rproc *vr)
{
	struct rpmsg_channel_info ci[VSOC_MAX_CHANS_PER_CORE];
	u32 core = vr->core - vr->board->cores;
	unsigned int i, n = 0;
	int ret;

	for (i = 0; i < vr->board->nr_chans; i++) {
		const struct vsoc_chan_info *c = &vr->board->chans[i];

		if (c->core != core)
			continue;
		if (n == ARRAY_SIZE(ci))
			return -EINVAL;	/* the board parser allows no more */
		strscpy(ci[n].name, c->name, sizeof(ci[n].name));
		ci[n].src = c->src;
		ci[n].dst = c->dst;
		n++;
	}
	if (!n)
		return 0;
	ret = ampsoc_rpmsg_declare_static_channels(vr->dev, ci, n);
	if (ret) {
		dev_err(vr->dev, "%s: static rpmsg channels refused: %d\n",
			vr->core->name, ret);
		return ret;
	}
	dev_info(vr->dev, "%s: %u static rpmsg channels\n", vr->core->name, n);
	return devm_add_action_or_reset(vr->dev, vsoc_rproc_forget_chans, vr->dev);
}

#define VSOC_RPROC_STACK_OPS

/* ampsoc: the fault's registers become the coredump's NT_PRSTATUS note. */
static void vsoc_rproc_set_prstatus(struct rproc *rproc, int signo,
				    const void *regs, size_t len)
{
	ampsoc_rproc_coredump_set_prstatus(rproc, signo, regs, len);
}

#else /* mainline's remoteproc */

/* The core's address @da in its windows of BAR2, as a kernel pointer. */
static void *vsoc_rproc_da_to_va(struct rproc *rproc, u64 da, size_t len,
				 bool *is_iomem)
{
	struct vsoc_rproc *vr = rproc->priv;
	const struct vsoc_core_info *c = vr->core;
	unsigned int i;

	for (i = 0; i < c->nr_mems; i++) {
		const struct vsoc_mem_info *m = &vr->board->mems[c->first_mem + i];

		if (da >= m->da && da - m->da <= m->shm.size &&
		    len <= m->shm.size - (da - m->da)) {
			if (is_iomem)
				*is_iomem = false;
			return vr->shm_va + m->shm.offset + (da - m->da);
		}
	}
	return NULL;
}

/*
 * A vring in Linux's DRAM: allocated with the DMA API, as mainline does,
 * and placed at the core's address of it. Without an IOMMU the DMA
 * address is the guest physical address, which the core sees at ddr_da.
 */
static int vsoc_rproc_ddr_alloc(struct rproc *rproc,
				struct rproc_mem_entry *mem)
{
	struct vsoc_rproc *vr = rproc->priv;
	dma_addr_t dma;
	void *va;

	va = dma_alloc_coherent(vr->dev, mem->len, &dma, GFP_KERNEL);
	if (!va)
		return -ENOMEM;
	if (dma >= vr->ddr_size || mem->len > vr->ddr_size - dma) {
		dev_err(vr->dev, "%s: %s at %pad is beyond the DRAM the core sees\n",
			vr->core->name, mem->name, &dma);
		dma_free_coherent(vr->dev, mem->len, va, dma);
		return -ERANGE;
	}
	mem->va = va;
	mem->dma = dma;
	mem->da = vr->ddr_da + dma;
	return 0;
}

static int vsoc_rproc_ddr_release(struct rproc *rproc,
				  struct rproc_mem_entry *mem)
{
	struct vsoc_rproc *vr = rproc->priv;

	dma_free_coherent(vr->dev, mem->len, mem->va, mem->dma);
	return 0;
}

/* Register vring @vring of vdev @vdev as a carveout in Linux's DRAM. */
static int vsoc_rproc_ddr_vring(struct vsoc_rproc *vr,
				const struct ampsoc_rsc_vring *r,
				u32 vdev, u32 vring, void *arg)
{
	struct rproc_mem_entry *mem;

	/* A fixed address, or nonsense: mainline's own checks decide. */
	if (r->da != AMPSOC_FW_RSC_ADDR_ANY || !vsoc_rproc_vring_sane(r->num, r->align))
		return 0;
	mem = rproc_mem_entry_init(vr->dev, NULL, 0,
				   PAGE_ALIGN(vring_size(r->num, r->align)),
				   AMPSOC_FW_RSC_ADDR_ANY, vsoc_rproc_ddr_alloc,
				   vsoc_rproc_ddr_release, "vdev%uvring%u",
				   vdev, vring);
	if (!mem)
		return -ENOMEM;
	rproc_add_carveout(vr->rproc, mem);
	return 0;
}

/*
 * mainline's parse_fw, then the vrings: mainline would allocate them with
 * dma_alloc_coherent() too, but tell the core their guest physical
 * address; registered first under mainline's names, they are allocated
 * through vsoc_rproc_ddr_alloc() and the table gets the core's address.
 * Carveouts registered here are released with the other resources.
 */
static int vsoc_rproc_parse_fw(struct rproc *rproc, const struct firmware *fw)
{
	struct vsoc_rproc *vr = rproc->priv;
	int ret;

	ret = rproc_elf_load_rsc_table(rproc, fw);
	if (ret || !vr->ddr_size)
		return ret;
	ret = vsoc_rproc_walk_vrings(vr, (const u8 *)rproc->cached_table,
				     rproc->table_sz, vsoc_rproc_ddr_vring,
				     NULL);
	if (ret)
		dev_err(vr->dev, "%s: cannot place the vrings in DRAM: %d\n",
			vr->core->name, ret);
	return ret;
}

/*
 * mainline: BAR2 serves da_to_va(); Linux's DRAM, where the core sees it
 * (the model wrote it in the control block), serves the vrings and rpmsg
 * buffers. A core that does not see it can boot firmware without rpmsg.
 */
static int vsoc_rproc_stack_mem(struct vsoc_rproc *vr)
{
	u64 da = readq(vr->ctl + CTL(ddr_da));
	u64 size = readq(vr->ctl + CTL(ddr_size));

	if (!vsoc_rproc_ctl_1_3(vr) || !size) {
		dev_info(vr->dev, "%s: does not see Linux's DRAM: no vrings\n",
			 vr->core->name);
		return 0;
	}
	if ((da | size) & ~PAGE_MASK || da + size < da || da + size > SZ_4G) {
		dev_err(vr->dev, "%s: bad DRAM window %#llx+%#llx in the control block\n",
			vr->core->name, da, size);
		return -EINVAL;
	}
	vr->ddr_da = da;
	vr->ddr_size = size;
	dev_info(vr->dev, "%s: sees Linux's DRAM [0, %#llx) at %#llx\n",
		 vr->core->name, size, da);
	return 0;
}

/* mainline's rpmsg has no static channels: the board's are not created. */
static int vsoc_rproc_stack_chans(struct vsoc_rproc *vr)
{
	u32 core = vr->core - vr->board->cores;
	unsigned int i;

	for (i = 0; i < vr->board->nr_chans; i++)
		if (vr->board->chans[i].core == core) {
			dev_info(vr->dev, "%s: static rpmsg channels need ampsoc's rpmsg: not created\n",
				 vr->core->name);
			break;
		}
	return 0;
}

/*
 * Without .load, mainline's rproc_alloc() sets all five ELF operations,
 * parse_fw included: the other four are given here as it would.
 */
#define VSOC_RPROC_STACK_OPS						\
	.da_to_va = vsoc_rproc_da_to_va,				\
	.parse_fw = vsoc_rproc_parse_fw,				\
	.load = rproc_elf_load_segments,				\
	.find_loaded_rsc_table = rproc_elf_find_loaded_rsc_table,	\
	.sanity_check = rproc_elf_sanity_check,				\
	.get_boot_addr = rproc_elf_get_boot_addr,

/*
 * mainline: its coredump has no notes (docs/mainline-differences.md), so
 * a dump taken there carries no registers.
 */
static void vsoc_rproc_set_prstatus(struct rproc *rproc, int signo,
				    const void *regs, size_t len)
{
}

#endif /* AMPSOC_COMPAT_REMOTEPROC */

/* ---- remoteproc operations ---------------------------------------------- */

static int vsoc_rproc_get_mbox(struct vsoc_rproc *vr);
static void vsoc_rproc_free_mbox(struct vsoc_rproc *vr);

static int vsoc_rproc_start(struct rproc *rproc)
{
	struct vsoc_rproc *vr = rproc->priv;
	unsigned long flags;
	u32 state;
	int ret;

	/* The core's domain on while it runs (mainline leaves it to us). */
	ret = pm_runtime_resume_and_get(vr->dev);
	if (ret)
		return ret;
	/* The channels are ours only while the core runs. */
	ret = vsoc_rproc_get_mbox(vr);
	if (ret)
		goto err_mbox;
	ret = vsoc_rproc_program_firewall(vr);
	if (ret)
		goto err_mbox;
	spin_lock_irqsave(&vr->lock, flags);
	vr->crash_seen = readl(vr->ctl + CTL(crash_count));
	spin_unlock_irqrestore(&vr->lock, flags);
	writeq(rproc->bootaddr, vr->ctl + CTL(boot_addr));
	ret = vsoc_rproc_request(vr, VSOC_CORE_OP_RUN);
	if (ret) {
		dev_err(vr->dev, "%s: model refused to start the core: %d\n",
			vr->core->name, ret);
		goto err_mbox;
	}
	spin_lock_irqsave(&vr->lock, flags);
	vr->running = true;
	spin_unlock_irqrestore(&vr->lock, flags);
	state = readl(vr->ctl + CTL(state));
	if (state != VSOC_CORE_RUNNING && state != VSOC_CORE_CRASHED) {
		dev_err(vr->dev, "%s: core in state %u after start\n",
			vr->core->name, state);
		vsoc_rproc_request(vr, VSOC_CORE_OP_HALT);
		spin_lock_irqsave(&vr->lock, flags);
		vr->running = false;
		spin_unlock_irqrestore(&vr->lock, flags);
		ret = -EIO;
		goto err_mbox;
	}
	vr->pm_held = true;
	/* A crash right after the acknowledgment may have raced with us. */
	vsoc_rproc_check_crash(vr);
	return 0;

err_mbox:
	vsoc_rproc_free_mbox(vr);
	pm_runtime_put_sync(vr->dev);
	return ret;
}

static int vsoc_rproc_stop(struct rproc *rproc)
{
	struct vsoc_rproc *vr = rproc->priv;
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&vr->lock, flags);
	vr->running = false;
	spin_unlock_irqrestore(&vr->lock, flags);
	ret = vsoc_rproc_request(vr, VSOC_CORE_OP_HALT);
	if (ret)
		dev_err(vr->dev, "%s: model refused to stop the core: %d\n",
			vr->core->name, ret);
	vsoc_rproc_free_mbox(vr);
	/* Once: a stop that failed may be tried again. */
	if (vr->pm_held) {
		vr->pm_held = false;
		pm_runtime_put_sync(vr->dev);
	}
	return ret;
}

/*
 * Called with the sender's locks held, interrupts maybe off: the mailbox
 * client does not block (tx_block is false). The core looks at every ring
 * it serves whenever it wakes, so one queued word covers every ring update
 * made before it is written; vsoc_rproc_tx_prepare() clears @kick_queued
 * just before each attempt to write it.
 *
 * An attempt fails while the core's FIFO is full, and the word waits for
 * the mailbox controller's retry; a word queued behind it would only grow
 * the mailbox core's queue until it refused words. So while the FIFO is
 * full, a kick rings the core's doorbell instead: the core, which has
 * words to read, wakes and looks at every ring. Without a tx channel, or
 * if the mailbox refuses the word, the doorbell is rung too: a kick is
 * never lost.
 */
static void vsoc_rproc_kick(struct rproc *rproc, int vqid)
{
	struct vsoc_rproc *vr = rproc->priv;
	struct mbox_chan *tx = READ_ONCE(vr->tx);
	int ret;

	if (tx) {
		/* Full barrier: the ring update before the flag. */
		if (atomic_xchg(&vr->kick_queued, 1)) {
			atomic_inc(&vr->kicks_merged);
			return;
		}
		if (vsoc_mbox_tx_full(tx)) {
			atomic_set(&vr->kick_queued, 0);
			atomic_inc(&vr->kicks_rung);
			goto doorbell;
		}
		ret = mbox_send_message(tx, (void *)(uintptr_t)vqid);
		if (ret >= 0) {
			atomic_inc(&vr->kicks);
			return;
		}
		atomic_set(&vr->kick_queued, 0);
		atomic_inc(&vr->kicks_rung);
		dev_warn_ratelimited(vr->dev, "%s: kick word refused (%d), doorbell instead\n",
				     vr->core->name, ret);
	}
doorbell:
	vsoc_kick(vr->soc, vr->core->peer, 0);
}

static const struct rproc_ops vsoc_rproc_ops = {
	.start = vsoc_rproc_start,
	.stop = vsoc_rproc_stop,
	.kick = vsoc_rproc_kick,
	VSOC_RPROC_STACK_OPS
};

/* ---- mailbox ----------------------------------------------------------- */

static void vsoc_rproc_vq_work(struct work_struct *work)
{
	struct vsoc_rproc_vq *vq = container_of(work, struct vsoc_rproc_vq,
						work);

	if (rproc_vq_interrupt(vq->vr->rproc, vq->id) == IRQ_NONE)
		atomic_inc(&vq->vr->bad_words);
}

static void vsoc_rproc_mbox_rx(struct mbox_client *cl, void *msg)
{
	struct vsoc_rproc *vr = container_of(cl, struct vsoc_rproc, cl);
	u32 word = (u32)(uintptr_t)msg;

	switch (word) {
	case VSOC_MBOX_MSG_CRASH:
		vsoc_rproc_check_crash(vr);
		return;
	case VSOC_MBOX_MSG_ECHO_REPLY:
		complete(&vr->echo);
		return;
	case VSOC_MBOX_MSG_READY:
	case VSOC_MBOX_MSG_PENDING:
		return;
	}
	if (word < VSOC_RPROC_MAX_VQS) {
		queue_work(vr->wq, &vr->vqs[word].work);
		return;
	}
	atomic_inc(&vr->bad_words);
	dev_warn_ratelimited(vr->dev, "%s: unknown mailbox word %#x\n",
			     vr->core->name, word);
}

/* Right before the mailbox writes @msg: later kicks need a word of their own. */
static void vsoc_rproc_tx_prepare(struct mbox_client *cl, void *msg)
{
	struct vsoc_rproc *vr = container_of(cl, struct vsoc_rproc, cl);

	/* Full barrier: a merged kick's ring update before the word. */
	if ((uintptr_t)msg < VSOC_RPROC_MAX_VQS)
		atomic_xchg(&vr->kick_queued, 0);
}

static void vsoc_rproc_destroy_wq(void *wq)
{
	destroy_workqueue(wq);
}

/* After this no word from the core reaches the remote processor. */
static void vsoc_rproc_free_mbox(struct vsoc_rproc *vr)
{
	unsigned int i;

	mutex_lock(&vr->ping_lock);
	if (vr->rx)
		mbox_free_channel(vr->rx);
	if (vr->tx)
		mbox_free_channel(vr->tx);
	vr->rx = NULL;
	vr->tx = NULL;
	mutex_unlock(&vr->ping_lock);
	for (i = 0; i < VSOC_RPROC_MAX_VQS; i++)
		cancel_work_sync(&vr->vqs[i].work);
}

static int vsoc_rproc_get_mbox(struct vsoc_rproc *vr)
{
	const struct vsoc_core_info *c = vr->core;
	int ret = 0;

	mutex_lock(&vr->ping_lock);
	vr->cl.dev = vr->dev;
	vr->cl.rx_callback = vsoc_rproc_mbox_rx;
	vr->cl.tx_prepare = vsoc_rproc_tx_prepare;
	vr->cl.tx_block = false;
	vr->cl.knows_txdone = false;
	if (c->mbox_rx != VSOC_NONE) {
		vr->rx = vsoc_mbox_request_channel(&vr->cl,
						   vr->board->mboxes[c->mbox_rx].name);
		if (IS_ERR(vr->rx)) {
			ret = PTR_ERR(vr->rx);
			vr->rx = NULL;
			dev_err(vr->dev, "no rx mailbox: %d\n", ret);
			goto out;
		}
	}
	/* Words queued before the last release were dropped with it. */
	atomic_set(&vr->kick_queued, 0);
	if (c->mbox_tx != VSOC_NONE) {
		vr->tx = vsoc_mbox_request_channel(&vr->cl,
						   vr->board->mboxes[c->mbox_tx].name);
		if (IS_ERR(vr->tx)) {
			ret = PTR_ERR(vr->tx);
			vr->tx = NULL;
			dev_err(vr->dev, "no tx mailbox: %d\n", ret);
		}
	}
out:
	mutex_unlock(&vr->ping_lock);
	return ret;
}

/* ---- debugfs ----------------------------------------------------------- */

static int vsoc_rproc_ping_show(struct seq_file *s, void *unused)
{
	struct vsoc_rproc *vr = s->private;
	u64 total = 0, min = U64_MAX, max = 0, ns;
	u32 i, iters, done = 0;
	int status = 0;
	ktime_t t0;

	mutex_lock(&vr->ping_lock);
	if (!vr->tx || !vr->rx) {
		mutex_unlock(&vr->ping_lock);
		return -ENODEV;
	}
	iters = clamp_val(READ_ONCE(vr->iters), 1, VSOC_RPROC_PING_MAX);
	for (i = 0; i < iters; i++) {
		reinit_completion(&vr->echo);
		t0 = ktime_get();
		status = mbox_send_message(vr->tx,
					   (void *)(uintptr_t)VSOC_MBOX_MSG_ECHO_REQUEST);
		if (status < 0)
			break;
		status = 0;
		if (!wait_for_completion_timeout(&vr->echo,
						 msecs_to_jiffies(VSOC_REQ_TIMEOUT_MS))) {
			status = -ETIMEDOUT;
			break;
		}
		ns = ktime_to_ns(ktime_sub(ktime_get(), t0));
		total += ns;
		min = min(min, ns);
		max = max(max, ns);
		done++;
	}
	mutex_unlock(&vr->ping_lock);
	seq_printf(s, "status %d iters %u avg_ns %llu min_ns %llu max_ns %llu\n",
		   status, done, done ? div_u64(total, done) : 0,
		   done ? min : 0, max);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(vsoc_rproc_ping);

static int vsoc_rproc_ctl_show(struct seq_file *s, void *unused)
{
	struct vsoc_rproc *vr = s->private;

	seq_printf(s, "core %s\nstate %u\nboot_count %u\ncrash_count %u\n",
		   vr->core->name, readl(vr->ctl + CTL(state)),
		   readl(vr->ctl + CTL(boot_count)),
		   readl(vr->ctl + CTL(crash_count)));
	seq_printf(s, "crash_reason %u\ncrash_info %u\nbad_words %d\n",
		   readl(vr->ctl + CTL(crash_reason)),
		   readl(vr->ctl + CTL(crash_info)),
		   atomic_read(&vr->bad_words));
	seq_printf(s, "kicks %d\nkicks_merged %d\nkicks_rung %d\nkick_queued %d\n",
		   atomic_read(&vr->kicks), atomic_read(&vr->kicks_merged),
		   atomic_read(&vr->kicks_rung),
		   atomic_read(&vr->kick_queued));
	if (!vsoc_rproc_ctl_1_3(vr))
		return 0;
	seq_printf(s, "firewall %s\nfw_regions %u\nfw_protected %llu\nfw_unprotected %llu\nfw_faults %u\n",
		   vr->core->flags & VSOC_CORE_F_FIREWALL ? "on" : "off",
		   vr->fw_regions, readq(vr->ctl + CTL(fw_protected)),
		   readq(vr->ctl + CTL(fw_unprotected)),
		   readl(vr->ctl + CTL(fw_faults)));
	seq_printf(s, "fault_addr %#llx\nfault_pc %#llx\nfault_access %u\n",
		   readq(vr->ctl + CTL(fault_addr)),
		   readq(vr->ctl + CTL(fault_pc)),
		   readl(vr->ctl + CTL(fault_access)));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(vsoc_rproc_ctl);

static void vsoc_rproc_debugfs(struct vsoc_rproc *vr)
{
	vr->dbg = debugfs_create_dir(dev_name(vr->dev), vsoc_rproc_dbg_root);
	debugfs_create_file("mbox_ping", 0400, vr->dbg, vr,
			    &vsoc_rproc_ping_fops);
	debugfs_create_file("ctl", 0400, vr->dbg, vr, &vsoc_rproc_ctl_fops);
	debugfs_create_u32("iters", 0600, vr->dbg, &vr->iters);
}

/* ---- probe/remove -------------------------------------------------------- */

/*
 * The default firmware: the hello image built for this core's instruction
 * set and memory map. An emulated core gets the SDK's image for its ISA
 * (ampsoc-hello-m4.elf, ampsoc-hello-rv.elf); of the native cores, the
 * M3-style map (device addresses 0x10000000) gets the plain
 * ampsoc-hello.elf, the others ampsoc-hello-<core>.elf.
 */
static const char *vsoc_rproc_default_fw(struct vsoc_rproc *vr)
{
	const struct vsoc_mem_info *m = &vr->board->mems[vr->core->first_mem];

	if (vr->core->isa == AMPSOC_CORE_ISA_ARMV7M)
		return "ampsoc-hello-m4.elf";
	if (vr->core->isa == AMPSOC_CORE_ISA_RV32IMAC)
		return "ampsoc-hello-rv.elf";
	if (vr->core->nr_mems && m->da == 0x10000000)
		return "ampsoc-hello.elf";
	return devm_kasprintf(vr->dev, GFP_KERNEL, "ampsoc-hello-%s.elf",
			      vr->core->name);
}

static int vsoc_rproc_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct vsoc *soc = vsoc_get(dev);
	struct rproc *rproc;
	struct vsoc_rproc *vr;
	const char *fw;
	void *shm_va;
	u32 index;
	int irq, ret;

	if (!soc)
		return -ENODEV;
	index = vsoc_child_index(dev);
	if (index >= vsoc_board(soc)->nr_cores)
		return -ENODEV;
	/*
	 * The power controller attaches the core to its domain when it
	 * probes: until then, wait. Once it is bound and left the core out
	 * (the domain would not power on), the core cannot run: give up.
	 */
	if (!ampsoc_pd_of_dev(dev)) {
		struct device *pc = vsoc_find_child(soc, VSOC_DEV_POWER, 0);

		if (pc && READ_ONCE(pc->driver) && dev_get_drvdata(pc)) {
			dev_err(dev, "left out of its power domain\n");
			return -ENODEV;
		}
		return dev_err_probe(dev, -EPROBE_DEFER,
				     "not in a power domain yet\n");
	}

	vr = devm_kzalloc(dev, sizeof(*vr), GFP_KERNEL);
	if (!vr)
		return -ENOMEM;
	vr->dev = dev;
	vr->soc = soc;
	vr->board = vsoc_board(soc);
	vr->core = &vr->board->cores[index];
	vr->iters = 1000;
	spin_lock_init(&vr->lock);
	init_completion(&vr->ack);
	init_completion(&vr->echo);
	mutex_init(&vr->ping_lock);

	vr->ctl = devm_platform_ioremap_resource_byname(pdev, "ctl");
	if (IS_ERR(vr->ctl))
		return PTR_ERR(vr->ctl);
	vr->seq = readl(vr->ctl + CTL(req_seq));
	shm_va = vsoc_rproc_map_shm(vr, &vr->shm_pa);
	if (IS_ERR(shm_va))
		return PTR_ERR(shm_va);
	vr->shm_va = shm_va;

	/* Not ordered: a blocked rx callback must not hold up tx completions. */
	vr->wq = alloc_workqueue("%s", WQ_HIGHPRI, 0, dev_name(dev));
	if (!vr->wq)
		return -ENOMEM;
	ret = devm_add_action_or_reset(dev, vsoc_rproc_destroy_wq, vr->wq);
	if (ret)
		return ret;
	fw = vsoc_rproc_default_fw(vr);
	if (!fw)
		return -ENOMEM;
	rproc = rproc_alloc(dev, vr->core->name, &vsoc_rproc_ops, fw, 0);
	if (!rproc)
		return -ENOMEM;
	rproc->priv = vr;
	/* images (and coredumps) of the core's instruction set only */
	switch (vr->core->isa) {
	case AMPSOC_CORE_ISA_ARMV7M:
		ret = rproc_coredump_set_elf_info(rproc, ELFCLASS32, EM_ARM);
		break;
	case AMPSOC_CORE_ISA_RV32IMAC:
		ret = rproc_coredump_set_elf_info(rproc, ELFCLASS32, EM_RISCV);
		break;
	default:
		ret = rproc_coredump_set_elf_info(rproc, ELFCLASS64, EM_X86_64);
		break;
	}
	if (ret)
		goto err_free;
	/* Booted by its users, not at registration (mainline's default). */
	rproc->auto_boot = false;
	vr->rproc = rproc;
	ret = vsoc_rproc_stack_mem(vr);
	if (ret)
		goto err_free;

	for (index = 0; index < VSOC_RPROC_MAX_VQS; index++) {
		INIT_WORK(&vr->vqs[index].work, vsoc_rproc_vq_work);
		vr->vqs[index].vr = vr;
		vr->vqs[index].id = index;
	}
	irq = platform_get_irq(pdev, 0);
	if (irq < 0) {
		ret = irq;
		goto err_mbox;
	}
	ret = devm_request_irq(dev, irq, vsoc_rproc_isr, IRQF_SHARED,
			       dev_name(dev), vr);
	if (ret)
		goto err_mbox;

	ret = devm_pm_runtime_enable(dev);
	if (ret)
		goto err_mbox;
	/* The domain attach powered it on: let it go off until a boot. */
	ret = pm_runtime_resume_and_get(dev);
	if (ret) {
		pm_runtime_set_suspended(dev);
		goto err_mbox;
	}
	pm_runtime_put_sync(dev);

	ret = vsoc_rproc_stack_chans(vr);
	if (ret)
		goto err_mbox;
	platform_set_drvdata(pdev, vr);
	ret = rproc_add(rproc);
	if (ret)
		goto err_mbox;
	vsoc_rproc_debugfs(vr);
	dev_info(dev, "core %s: %s, default firmware %s\n", vr->core->name,
		 dev_name(&rproc->dev), fw);
	return 0;

err_mbox:
	vsoc_rproc_free_mbox(vr);
err_free:
	rproc_free(rproc);
	return ret;
}

static int vsoc_rproc_remove(struct platform_device *pdev)
{
	struct vsoc_rproc *vr = platform_get_drvdata(pdev);

	debugfs_remove_recursive(vr->dbg);
	rproc_del(vr->rproc);
	vsoc_rproc_free_mbox(vr);
	rproc_free(vr->rproc);
	/* The interrupt handler never touches the processor once stopped. */
	vr->rproc = NULL;
	return 0;
}

/*
 * System sleep: a running core goes on running while Linux sleeps, as a
 * remote processor of a real AMP SoC does, so its domain must stay on
 * (the SoC model counts powering off a running core as a violation and
 * kills it). The device joins the wakeup path, which keeps its domain
 * (ACTIVE_WAKEUP, see vsoc_power) and the domain's parents on through the
 * noirq phase. A core that is down holds no runtime-PM reference, and its
 * domain is off already.
 */
static int vsoc_rproc_suspend(struct device *dev)
{
	if (!pm_runtime_status_suspended(dev))
		device_set_wakeup_path(dev);
	return 0;
}

static const struct dev_pm_ops vsoc_rproc_pm = {
	SET_SYSTEM_SLEEP_PM_OPS(vsoc_rproc_suspend, NULL)
};

static const struct platform_device_id vsoc_rproc_ids[] = {
	{ VSOC_DEV_RPROC, 0 },
	{ }
};
MODULE_DEVICE_TABLE(platform, vsoc_rproc_ids);

static struct platform_driver vsoc_rproc_driver = {
	.probe = vsoc_rproc_probe,
	.remove = vsoc_rproc_remove,
	.id_table = vsoc_rproc_ids,
	.driver = {
		.name = VSOC_DEV_RPROC,
		.pm = pm_sleep_ptr(&vsoc_rproc_pm),
	},
};

static int __init vsoc_rproc_init(void)
{
	int ret;

	vsoc_rproc_dbg_root = debugfs_create_dir("vsoc_rproc", NULL);
	ret = platform_driver_register(&vsoc_rproc_driver);
	if (ret)
		debugfs_remove_recursive(vsoc_rproc_dbg_root);
	return ret;
}
module_init(vsoc_rproc_init);

static void __exit vsoc_rproc_exit(void)
{
	platform_driver_unregister(&vsoc_rproc_driver);
	debugfs_remove_recursive(vsoc_rproc_dbg_root);
}
module_exit(vsoc_rproc_exit);

MODULE_DESCRIPTION("ampsoc virtual SoC remote processors");
MODULE_LICENSE("GPL");
