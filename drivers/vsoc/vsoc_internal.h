/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private state of the vsoc PCI core, shared by its own files only. Other
 * drivers see the SoC through include/ampsoc/vsoc.h.
 */
#ifndef _VSOC_INTERNAL_H
#define _VSOC_INTERNAL_H

#include <linux/completion.h>
#include <linux/ktime.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/platform_device.h>
#include <linux/spinlock.h>
#include <ampsoc/vsoc.h>

/* ivshmem BAR0 registers (QEMU ivshmem spec, revision 1). */
#define IVSHMEM_REG_INTRMASK	0x00
#define IVSHMEM_REG_INTRSTATUS	0x04
#define IVSHMEM_REG_IVPOSITION	0x08
#define IVSHMEM_REG_DOORBELL	0x0c

#define VSOC_BAR_REGS		0
#define VSOC_BAR_SHM		2

/* Guest-only: the guest rings itself on this vector (transport baseline). */
#define VSOC_VEC_LOOPBACK	7

/**
 * struct vsoc_echo_state - the guest side of the echo block
 * @lock: serialises users of the echo block
 * @done: completed when a ping is answered
 * @seq: sequence number of the last ping
 * @loopback: the last ping rang our own peer, not the model
 * @answered: the last ping was answered
 * @t_answer: when the answer's interrupt arrived
 * @rt_done: completed when a model-initiated run is over
 * @rt_seq: sequence number of the last run
 * @rt_active: a run is in progress: answer its rings
 * @rt_finished: the last run is over
 * @fault_seq: sequence number of the last fault-control request
 * @fault_done: completed when a fault-control request is acknowledged
 */
struct vsoc_echo_state {
	struct mutex lock; /* see above */
	struct completion done;
	u32 seq;
	bool loopback;
	bool answered;
	ktime_t t_answer;
	struct completion rt_done;
	u32 rt_seq;
	bool rt_active;
	bool rt_finished;
	u32 fault_seq;
	struct completion fault_done;
};

/**
 * struct vsoc - one virtual SoC, that is one ivshmem-doorbell device
 * @pdev: the PCI device
 * @dev: its struct device
 * @regs: BAR0 registers
 * @shm: BAR2 shared memory, mapped once for the whole device
 * @shm_res: BAR2 resource, parent of the children's memory resources
 * @shm_len: length of BAR2
 * @own_id: our ivshmem peer ID (IVPosition)
 * @board: validated copy of the board table
 * @nvec: number of MSI-X vectors allocated
 * @irq: Linux interrupt number of each vector
 * @children: platform devices created for the board: consumers, then
 *	suppliers
 * @nchildren: number of entries used in @children
 * @nconsumers: the first @nconsumers entries are consumers
 * @echo: the doorbell echo channel
 * @debugfs: this SoC's debugfs directory
 * @iters: iterations of the debugfs measurements
 * @id: instance number (vsoc0, vsoc1...)
 */
struct vsoc {
	struct pci_dev *pdev;
	struct device *dev;
	void __iomem *regs;
	void __iomem *shm;
	struct resource *shm_res;
	resource_size_t shm_len;
	u32 own_id;
	struct vsoc_board *board;
	unsigned int nvec;
	int *irq;
	struct platform_device **children;
	unsigned int nchildren;
	unsigned int nconsumers;
	struct vsoc_echo_state echo;
	struct dentry *debugfs;
	u32 iters;
	int id;
};

int vsoc_board_load(struct vsoc *soc);
void vsoc_board_free(struct vsoc *soc);
void vsoc_debugfs_init(struct vsoc *soc);
void vsoc_debugfs_exit(struct vsoc *soc);
void vsoc_debugfs_root_init(void);
void vsoc_debugfs_root_exit(void);

#endif /* _VSOC_INTERNAL_H */
