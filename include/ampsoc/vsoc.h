/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ampsoc virtual SoC: kernel API of the vsoc PCI core (module ampsoc_vsoc).
 *
 * The core binds the ivshmem-doorbell device, validates the board table the
 * SoC model publishes at the start of shared memory and creates one
 * platform device per block of the board, children of the PCI device:
 *
 *   name           one per     memory resources          interrupt
 *   vsoc-power     SoC         "slots"                   VSOC_VEC_PWR
 *   vsoc-clk       SoC         "slots"                   VSOC_VEC_CLK
 *   vsoc-mbox      SoC         one per channel (its name) guest-bound channels
 *   vsoc-timer     peripheral  "regs", "data"            its vector
 *   vsoc-sensor    peripheral  "regs", "data"            its vector
 *   vsoc-dma       peripheral  "regs", "data"            its vector
 *   vsoc-simple    peripheral  "regs", "data"            its vector
 *   vsoc-rproc     core        "ctl", one per memory     VSOC_VEC_CORE
 *
 * Memory resources are physical ranges inside BAR2, so a driver maps its
 * own window with devm_platform_ioremap_resource_byname(); interrupts are
 * MSI-X vectors that may be shared, so request them with IRQF_SHARED.
 * Each child's platform data is a struct vsoc_child_data.
 *
 * The board description (struct vsoc_board) is a validated, native-endian
 * copy of the table: every index in it has been checked against the
 * counts, every area against the shared-memory size.
 */
#ifndef _AMPSOC_VSOC_H
#define _AMPSOC_VSOC_H

#include <linux/completion.h>
#include <linux/types.h>
#include <uapi/ampsoc/vsoc_abi.h>

struct dentry;
struct device;
struct mbox_chan;
struct mbox_client;

/**
 * struct vsoc_shm_area - a validated region of shared memory
 * @offset: byte offset in BAR2
 * @size: length in bytes
 */
struct vsoc_shm_area {
	u64 offset;
	u64 size;
};

/**
 * struct vsoc_domain_info - a power domain of the board
 * @name: NUL-terminated name
 * @parent: parent domain index or VSOC_NONE
 * @flags: VSOC_DOMAIN_*
 * @on_latency_ns: power-on latency the model applies
 * @off_latency_ns: power-off latency the model applies
 * @initially_on: the domain is on when the model starts
 * @first_level: index of its first performance level in struct
 *	vsoc_board's @levels (ABI 1.5)
 * @nr_levels: its performance levels; 0: it has none (ABI 1.5)
 */
struct vsoc_domain_info {
	char name[VSOC_NAME_LEN];
	u32 parent;
	u32 flags;
	u64 on_latency_ns;
	u64 off_latency_ns;
	bool initially_on;
	u32 first_level;
	u32 nr_levels;
};

/**
 * struct vsoc_level_info - a performance level of a domain (ABI 1.5)
 * @domain: the domain's index
 * @level: the level's number (1..VSOC_MAX_LEVEL, strictly increasing
 *	within the domain)
 * @voltage_uv: its supply voltage, microvolts
 * @power_uw: what the domain draws while on at this level, microwatts
 */
struct vsoc_level_info {
	u32 domain;
	u32 level;
	u32 voltage_uv;
	u32 power_uw;
};

/**
 * struct vsoc_clock_info - a clock of the board
 * @name: NUL-terminated name
 * @parent: parent clock index or VSOC_NONE
 * @flags: VSOC_CLK_*
 * @rate_hz: rate at model start
 * @min_rate_hz: lowest rate
 * @max_rate_hz: highest rate
 * @initially_on: the clock runs when the model starts
 */
struct vsoc_clock_info {
	char name[VSOC_NAME_LEN];
	u32 parent;
	u32 flags;
	u64 rate_hz;
	u64 min_rate_hz;
	u64 max_rate_hz;
	bool initially_on;
};

/**
 * struct vsoc_periph_info - a peripheral of the board
 * @name: NUL-terminated name
 * @type: VSOC_PERIPH_*
 * @domain: power domain index (always valid)
 * @clock: clock index or VSOC_NONE
 * @vector: guest vector its events arrive on
 * @regs: register window (at least a struct vsoc_periph_regs)
 * @data: data window (may be empty)
 */
struct vsoc_periph_info {
	char name[VSOC_NAME_LEN];
	u32 type;
	u32 domain;
	u32 clock;
	u32 vector;
	struct vsoc_shm_area regs;
	struct vsoc_shm_area data;
};

/**
 * struct vsoc_mem_info - one entry of a remote core's memory map
 * @name: NUL-terminated name
 * @core: owning core index
 * @flags: VSOC_MEM_*
 * @shm: where it is in shared memory
 * @da: device address the core sees it at
 */
struct vsoc_mem_info {
	char name[VSOC_NAME_LEN];
	u32 core;
	u32 flags;
	struct vsoc_shm_area shm;
	u64 da;
};

/**
 * struct vsoc_core_info - a remote core of the board
 * @name: NUL-terminated name
 * @domain: power domain index
 * @clock: clock index or VSOC_NONE
 * @peer: ivshmem peer ID of the core
 * @first_mem: index of its first entry in &vsoc_board.mems
 * @nr_mems: number of its memory-map entries
 * @mbox_tx: guest->core channel index or VSOC_NONE
 * @mbox_rx: core->guest channel index or VSOC_NONE
 * @ctl: its struct vsoc_core_ctl (the 1.3 fields only from table 1.3 on)
 * @resmgr_domains: bit d: the core may ask the resource manager for
 *	domain d (0 before table 1.3: nothing)
 * @resmgr_clocks: the same for clocks
 * @flags: VSOC_CORE_F_* (0 before table 1.3)
 * @isa: AMPSOC_CORE_ISA_* (AMPSOC_CORE_ISA_X86_64 before table 1.4)
 * @mem_domain: the domain of the core's memory, or VSOC_NONE (always
 *	before table 1.5)
 */
struct vsoc_core_info {
	char name[VSOC_NAME_LEN];
	u32 domain;
	u32 clock;
	u32 peer;
	u32 first_mem;
	u32 nr_mems;
	u32 mbox_tx;
	u32 mbox_rx;
	struct vsoc_shm_area ctl;
	u32 resmgr_domains;
	u32 resmgr_clocks;
	u32 flags;
	u32 isa;
	u32 mem_domain;
};

/**
 * struct vsoc_mbox_info - a unidirectional mailbox channel
 * @name: NUL-terminated name
 * @from: sender: VSOC_MBOX_EP_GUEST or a core index
 * @to: receiver: VSOC_MBOX_EP_GUEST or a core index
 * @peer: ivshmem peer rung after a send
 * @vector: vector rung on @peer
 * @depth: FIFO depth in messages (a power of two)
 * @fifo: the struct vsoc_mbox_fifo and its ring
 */
struct vsoc_mbox_info {
	char name[VSOC_NAME_LEN];
	u32 from;
	u32 to;
	u32 peer;
	u32 vector;
	u32 depth;
	struct vsoc_shm_area fifo;
};

/**
 * struct vsoc_chan_info - a static rpmsg channel of a core
 * @name: NUL-terminated channel name
 * @core: index of the core in struct vsoc_board's @cores
 * @dst: the core's address of the service
 * @src: Linux's address, or RPMSG_ADDR_ANY
 */
struct vsoc_chan_info {
	char name[VSOC_NAME_LEN];
	u32 core;
	u32 dst;
	u32 src;
};

/**
 * struct vsoc_board - validated board description
 * @name: board name
 * @version: table version (major << 16 | minor)
 * @shm_size: shared-memory size
 * @model_peer: ivshmem peer ID of the model
 * @guest_peer: our peer ID as the model assigned it
 * @nr_vectors: MSI-X vectors in use
 * @telemetry: the telemetry page
 * @pwr: power request slots, one per domain
 * @clk: clock request slots, one per clock
 * @echo: the echo block
 * @fault: the fault-control slot (size 0: the model has none)
 * @nr_domains: entries in @domains
 * @nr_clocks: entries in @clocks
 * @nr_periphs: entries in @periphs
 * @nr_cores: entries in @cores
 * @nr_mems: entries in @mems
 * @nr_mboxes: entries in @mboxes
 * @nr_chans: entries in @chans
 * @nr_levels: entries in @levels
 * @domains: power domains
 * @clocks: clocks
 * @periphs: peripherals
 * @cores: remote cores
 * @mems: remote-core memory maps
 * @mboxes: mailbox channels
 * @chans: static rpmsg channels of the cores (empty before table 1.2)
 * @levels: the domains' performance levels, each domain's consecutive
 *	(empty before table 1.5)
 */
struct vsoc_board {
	char name[VSOC_NAME_LEN];
	u32 version;
	u64 shm_size;
	u16 model_peer;
	u16 guest_peer;
	u16 nr_vectors;
	struct vsoc_shm_area telemetry;
	struct vsoc_shm_area pwr;
	struct vsoc_shm_area clk;
	struct vsoc_shm_area echo;
	struct vsoc_shm_area fault;
	unsigned int nr_domains;
	unsigned int nr_clocks;
	unsigned int nr_periphs;
	unsigned int nr_cores;
	unsigned int nr_mems;
	unsigned int nr_mboxes;
	unsigned int nr_chans;
	unsigned int nr_levels;
	struct vsoc_domain_info domains[VSOC_MAX_DOMAINS];
	struct vsoc_clock_info clocks[VSOC_MAX_CLOCKS];
	struct vsoc_periph_info periphs[VSOC_MAX_PERIPHS];
	struct vsoc_core_info cores[VSOC_MAX_CORES];
	struct vsoc_mem_info mems[VSOC_MAX_MEMS];
	struct vsoc_mbox_info mboxes[VSOC_MAX_MBOXES];
	struct vsoc_chan_info chans[VSOC_MAX_CHANS];
	struct vsoc_level_info levels[VSOC_MAX_PERF_LEVELS];
};

/**
 * struct vsoc_child_data - platform data of every vsoc child device
 * @index: index of the block in its board array (domain, peripheral,
 *	core...), 0 for the SoC-wide controllers
 */
struct vsoc_child_data {
	u32 index;
};

struct vsoc;

/**
 * struct vsoc_slot - guest side of one power- or clock-controller slot
 * @regs: the struct vsoc_req_slot in shared memory
 * @seq: sequence number of the last request submitted
 * @done: completed by the controller's interrupt handler
 */
struct vsoc_slot {
	void __iomem *regs;
	u32 seq;
	struct completion done;
};

/**
 * struct vsoc_slot_result - the model's answer to a slot request
 * @state: resulting VSOC_PWR_* or VSOC_CLK_* state (unvalidated)
 * @rate_hz: resulting rate, clock slots only (unvalidated)
 * @done_ns: model time of completion
 */
struct vsoc_slot_result {
	u32 state;
	u64 rate_hz;
	u64 done_ns;
};

void vsoc_slot_init(struct vsoc_slot *slot, void __iomem *regs);
bool vsoc_slot_busy(struct vsoc_slot *slot);
bool vsoc_slot_poll(struct vsoc_slot *slot);
int vsoc_slot_submit(struct vsoc *soc, struct vsoc_slot *slot, u16 vector,
		     u32 op, u64 arg, unsigned int timeout_ms,
		     struct vsoc_slot_result *res);
int vsoc_slot_submit_atomic(struct vsoc *soc, struct vsoc_slot *slot,
			    u16 vector, u32 op, u64 arg,
			    unsigned int timeout_us,
			    struct vsoc_slot_result *res);

struct vsoc *vsoc_get(struct device *child);
const struct vsoc_board *vsoc_board(const struct vsoc *soc);
u32 vsoc_child_index(struct device *child);
int vsoc_kick(struct vsoc *soc, u16 peer, u16 vector);
void __iomem *vsoc_shm(struct vsoc *soc, const struct vsoc_shm_area *area);
struct dentry *vsoc_debugfs_dir(struct vsoc *soc);
int vsoc_telemetry_read(struct vsoc *soc, struct vsoc_telemetry *out);
struct device *vsoc_find_child(struct vsoc *soc, const char *type,
			       u32 index);
struct mbox_chan *vsoc_mbox_request_channel(struct mbox_client *cl,
					    const char *name);
bool vsoc_mbox_tx_full(struct mbox_chan *chan);
int vsoc_board_parse(struct device *dev, const void *tbl, size_t len,
		     u64 shm_len, u32 own_id, unsigned int nvec,
		     struct vsoc_board *board);
int vsoc_fault_ctl(struct vsoc *soc, u32 op, u32 kind, u32 target, u64 arg);
int vsoc_ping(struct vsoc *soc, bool loopback, u64 *ns);
int vsoc_echo_rt(struct vsoc *soc, u32 count, u64 *total_ns, u32 *done);

/* Names of the child platform devices (and of their drivers). */
#define VSOC_DEV_POWER		"vsoc-power"
#define VSOC_DEV_CLK		"vsoc-clk"
#define VSOC_DEV_MBOX		"vsoc-mbox"
#define VSOC_DEV_TIMER		"vsoc-timer"
#define VSOC_DEV_SENSOR		"vsoc-sensor"
#define VSOC_DEV_DMA		"vsoc-dma"
#define VSOC_DEV_SIMPLE		"vsoc-simple"
#define VSOC_DEV_RPROC		"vsoc-rproc"

/**
 * vsoc_periph_dev_name() - the device (and driver) name of a peripheral type
 * @type: VSOC_PERIPH_*
 *
 * Context: Any context.
 * Return: one of the VSOC_DEV_* peripheral names.
 */
static inline const char *vsoc_periph_dev_name(u32 type)
{
	switch (type) {
	case VSOC_PERIPH_TIMER:
		return VSOC_DEV_TIMER;
	case VSOC_PERIPH_SENSOR:
		return VSOC_DEV_SENSOR;
	case VSOC_PERIPH_DMA:
		return VSOC_DEV_DMA;
	default:
		return VSOC_DEV_SIMPLE;
	}
}

/* Worst-case wait for a request the model should answer at once. */
#define VSOC_REQ_TIMEOUT_MS	2000
/*
 * The same for a request polled with interrupts off (an IRQ-safe domain):
 * real hardware answers in microseconds, but the model is a host process
 * that the host may leave unscheduled for a while, so the bound is far
 * above the board's (at most VSOC_IRQ_SAFE_MAX_LATENCY_NS) yet short of
 * what the guest's lockup detectors report.
 */
#define VSOC_REQ_ATOMIC_TIMEOUT_US	100000

#endif /* _AMPSOC_VSOC_H */
