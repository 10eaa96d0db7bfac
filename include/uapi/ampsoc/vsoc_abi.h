/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ampsoc virtual SoC: the shared-memory ABI.
 *
 * One header for the three parties that share the ivshmem region (BAR2 in
 * the guest): the Linux drivers (drivers/vsoc/), the SoC model
 * (soc-model/) and the remote-core firmware. docs/shm-abi.md explains the
 * protocols; this file is the normative layout.
 *
 * Rules for every structure here:
 *  - fields are fixed-width little-endian, padding is explicit, and every
 *    size is checked by a static assertion at the end of the file;
 *  - the board table is self-describing: each array is reached through a
 *    struct vsoc_array (offset, count, stride), so a newer model may grow
 *    entries at their end (minor version bump) without breaking a reader;
 *  - anything the other side writes is untrusted: indexes are checked
 *    against the counts of the table, names must contain a NUL.
 *
 * Ownership of fields is written next to them: "G" the guest (Linux)
 * writes it, "M" the model writes it, "C" the remote core writes it.
 */
#ifndef _AMPSOC_VSOC_ABI_H
#define _AMPSOC_VSOC_ABI_H

#include "types.h"

/* ------------------------------------------------------------------ */
/* Versioning and global constants                                    */
/* ------------------------------------------------------------------ */

#define VSOC_MAGIC		0x434f5356u	/* "VSOC" in memory */
#define VSOC_VERSION_MAJOR	1	/* incompatible layout change */
#define VSOC_VERSION_MINOR	6	/* additive change */
#define VSOC_VERSION		((VSOC_VERSION_MAJOR << 16) | VSOC_VERSION_MINOR)
#define VSOC_VERSION_GET_MAJOR(v)	((v) >> 16)

#define VSOC_NONE		0xffffffffu	/* no parent / domain / clock */
#define VSOC_BIT(n)		(1u << (n))	/* BIT() is kernel-only */
#define VSOC_NAME_LEN		32		/* NUL-padded, NUL required */

/* Hard upper bounds: a table that exceeds them is corrupt. */
#define VSOC_MAX_DOMAINS	32
#define VSOC_MAX_CLOCKS		32
#define VSOC_MAX_PERIPHS	32
#define VSOC_MAX_CORES		4
#define VSOC_MAX_CHANS_PER_CORE	8
#define VSOC_MAX_CHANS		(VSOC_MAX_CORES * VSOC_MAX_CHANS_PER_CORE)
#define VSOC_MAX_MEMS		32	/* memory-map entries, all cores */
#define VSOC_MAX_MBOXES		16
#define VSOC_MAX_DOMAIN_LEVELS	8	/* performance levels of one domain (1.5) */
#define VSOC_MAX_PERF_LEVELS	64	/* performance levels, all domains (1.5) */
#define VSOC_MAX_LEVEL		1000	/* highest level number (1.5) */
#define VSOC_MAX_LEVEL_UV	5000000	/* highest level voltage, uV (1.5) */
#define VSOC_MAX_TABLE_SIZE	0x10000	/* board table, bytes */
#define VSOC_PAGE_SIZE		4096	/* alignment of every area */

/*
 * Status codes written by the model into request slots and peripheral
 * result registers: 0 or a negative Linux errno value, as a two's
 * complement 32-bit number. The numbers are Linux's (x86 and generic).
 */
#define VSOC_OK		0
#define VSOC_EPERM	1	/* refused by a hardware rule (violation) */
#define VSOC_EIO	5	/* operation failed (e.g. injected fault) */
#define VSOC_EAGAIN	11	/* FIFO full / engine busy */
#define VSOC_EBUSY	16	/* request already in flight */
#define VSOC_ENODEV	19	/* target index out of range */
#define VSOC_EINVAL	22	/* garbage: bad op, arg or reserved field */
#define VSOC_ERANGE	34	/* rate or length out of range */
#define VSOC_ECANCELED	125	/* aborted by a power-off */

/* ------------------------------------------------------------------ */
/* ivshmem peers and doorbell vectors                                 */
/* ------------------------------------------------------------------ */

/*
 * The model is the ivshmem server and assigns fixed peer IDs. The guest
 * reads its own ID from IVPosition and the others from the table header.
 * A doorbell write is (peer << 16) | vector.
 */
#define VSOC_PEER_MODEL		0
#define VSOC_PEER_GUEST		1
#define VSOC_PEER_CORE_BASE	2	/* core i is peer 2 + i */
#define VSOC_NR_VECTORS		16	/* -device ivshmem-doorbell,vectors= */

/*
 * Vectors. The guest rings the model's vector N to say "look at area N";
 * the model rings the guest's vector N to say "area N has completions".
 * Every vector read from the table must be checked against nr_vectors.
 */
#define VSOC_VEC_PWR		0	/* power controller slots */
#define VSOC_VEC_CLK		1	/* clock controller slots */
#define VSOC_VEC_ECHO		2	/* echo: ping (G->M->G) */
#define VSOC_VEC_PERIPH		3	/* peripheral command / event */
#define VSOC_VEC_CORE		4	/* core control, crash notification */
#define VSOC_VEC_ECHO_RT	5	/* echo: model-initiated round trip */
#define VSOC_VEC_FAULT		6	/* fault-control slot (1.1) */
#define VSOC_VEC_LOOPBACK	7	/* guest rings itself; model never */
#define VSOC_VEC_MBOX_BASE	8	/* mailbox channels, per table entry */

/*
 * A remote core is its own ivshmem peer (VSOC_PEER_CORE_BASE + index):
 * every vector of a core peer wakes the core, so the guest rings a core
 * with (core peer << 16) | mailbox vector, and the core rings the guest
 * directly on the vector of its mailbox channel. Neither goes through
 * the model.
 */

/* ------------------------------------------------------------------ */
/* Board table (at shared-memory offset 0)                            */
/* ------------------------------------------------------------------ */

/**
 * struct vsoc_array - where an array of table entries lives
 * @offset: byte offset of entry 0 from the start of the table
 * @count: number of entries
 * @stride: size of one entry; at least the size this header defines
 * @reserved: zero
 */
struct vsoc_array {
	__le32 offset;
	__le32 count;
	__le32 stride;
	__le32 reserved;
};

/**
 * struct vsoc_area - a region of shared memory
 * @offset: byte offset in shared memory (BAR2)
 * @size: length in bytes
 */
struct vsoc_area {
	__le64 offset;
	__le64 size;
};

/**
 * struct vsoc_board_header - start of shared memory, written once by M
 * @magic: VSOC_MAGIC
 * @version: VSOC_VERSION of the writer; readers refuse another major
 * @size: total bytes of the table, header included (<= VSOC_MAX_TABLE_SIZE)
 * @checksum: CRC-32 (IEEE 802.3, as zlib's crc32() and the kernel's
 *	``crc32_le(~0, p, n) ^ ~0``) of table bytes [16, @size), i.e. of
 *	everything after this field
 * @header_size: sizeof(struct vsoc_board_header) of the writer
 * @flags: zero for now
 * @shm_size: size of the shared memory the model created (== BAR2 size)
 * @model_peer: ivshmem peer ID of the model (VSOC_PEER_MODEL)
 * @guest_peer: peer ID the model gave the guest (VSOC_PEER_GUEST)
 * @nr_vectors: MSI-X vectors the guest must have (VSOC_NR_VECTORS)
 * @reserved0: zero
 * @board_name: board name from the board file, NUL-terminated
 * @domains: struct vsoc_domain_desc entries
 * @clocks: struct vsoc_clock_desc entries
 * @periphs: struct vsoc_periph_desc entries
 * @cores: struct vsoc_core_desc entries
 * @mems: struct vsoc_mem_desc entries (the cores' memory maps)
 * @mboxes: struct vsoc_mbox_desc entries
 * @telemetry: the read-only struct vsoc_telemetry page
 * @pwr: struct vsoc_req_slot[domains.count], one per domain
 * @clk: struct vsoc_req_slot[clocks.count], one per clock
 * @echo: struct vsoc_echo
 * @core_ctl: struct vsoc_core_ctl[cores.count]
 * @fault: struct vsoc_fault_ctl (version 1.1; zero size before)
 * @chans: struct vsoc_chan_desc entries (version 1.2; empty before)
 * @levels: struct vsoc_level_desc entries, the domains' performance
 *	levels (version 1.5; reserved, so empty, before)
 * @reserved: zero; room for areas added by later minor versions
 */
struct vsoc_board_header {
	__le32 magic;
	__le32 version;
	__le32 size;
	__le32 checksum;
	/* ---- covered by the checksum from here on ---- */
	__le32 header_size;
	__le32 flags;
	__le64 shm_size;
	__le16 model_peer;
	__le16 guest_peer;
	__le16 nr_vectors;
	__le16 reserved0;
	char board_name[VSOC_NAME_LEN];
	struct vsoc_array domains;
	struct vsoc_array clocks;
	struct vsoc_array periphs;
	struct vsoc_array cores;
	struct vsoc_array mems;
	struct vsoc_array mboxes;
	struct vsoc_area telemetry;
	struct vsoc_area pwr;
	struct vsoc_area clk;
	struct vsoc_area echo;
	struct vsoc_area core_ctl;
	struct vsoc_area fault;
	struct vsoc_array chans;
	struct vsoc_array levels;
	__le64 reserved[2];
};

#define VSOC_CSUM_START		16	/* first byte covered by @checksum */

/* Domain flags */
#define VSOC_DOMAIN_ALWAYS_ON	VSOC_BIT(0)	/* never powered off */
#define VSOC_DOMAIN_CORE	VSOC_BIT(1)	/* holds a remote core */
/*
 * The parent's performance level must be at least this domain's (1.5):
 * both have levels and every level of this domain is one of the parent's.
 */
#define VSOC_DOMAIN_PERF_PARENT_GE	VSOC_BIT(2)
/*
 * (1.5) Stay on until sync: the domain starts on (@initial_state
 * VSOC_PWR_ON) and must not be powered off before G has sent
 * VSOC_PWR_OP_SYNC on its slot (its consumers probed, or G's timeout).
 */
#define VSOC_DOMAIN_STAY_ON	VSOC_BIT(3)
/*
 * (1.6) IRQ-safe: the domain switches within VSOC_IRQ_SAFE_MAX_LATENCY_NS
 * each way, so that G may post its power requests and poll for the answer
 * with interrupts off (Linux's GENPD_FLAG_IRQ_SAFE). Its parent, if any,
 * is IRQ-safe too, and it has no performance levels.
 */
#define VSOC_DOMAIN_IRQ_SAFE	VSOC_BIT(4)
#define VSOC_IRQ_SAFE_MAX_LATENCY_NS	100000u

/**
 * struct vsoc_domain_desc - a power domain
 * @name: NUL-padded name
 * @parent: index of the parent domain or VSOC_NONE; the hierarchy is a
 *	forest (the model rejects cycles, the guest must re-check)
 * @flags: VSOC_DOMAIN_*
 * @on_latency_ns: time the model takes to power the domain on
 * @off_latency_ns: time the model takes to power it off
 * @on_power_uw: power drawn while on, in microwatts
 * @off_power_uw: leakage while off, in microwatts
 * @initial_state: VSOC_PWR_ON or VSOC_PWR_OFF at model start
 * @first_level: index of its first entry in the levels array (1.5)
 * @nr_levels: its performance levels, consecutive entries of the levels
 *	array from @first_level, <= VSOC_MAX_DOMAIN_LEVELS; 0: it has none
 *	(1.5; reserved, so zero, before)
 * @reserved: zero
 */
struct vsoc_domain_desc {
	char name[VSOC_NAME_LEN];
	__le32 parent;
	__le32 flags;
	__le64 on_latency_ns;
	__le64 off_latency_ns;
	__le32 on_power_uw;
	__le32 off_power_uw;
	__le32 initial_state;
	__le16 first_level;
	__le16 nr_levels;
	__le32 reserved[2];
};

/**
 * struct vsoc_level_desc - a performance level of a domain (version 1.5)
 * @domain: index of the domain
 * @level: the level's number, 1..VSOC_MAX_LEVEL; a domain's levels are
 *	consecutive entries sorted by strictly increasing @level
 * @voltage_uv: the domain's supply at this level, 1..VSOC_MAX_LEVEL_UV
 *	microvolts, not lower than at the level below
 * @power_uw: power drawn while on at this level (replaces the domain's
 *	@on_power_uw), microwatts, not lower than at the level below
 *
 * A domain starts at its lowest level. VSOC_PWR_OP_SET_LEVEL changes it.
 */
struct vsoc_level_desc {
	__le32 domain;
	__le32 level;
	__le32 voltage_uv;
	__le32 power_uw;
};

/* Clock flags */
#define VSOC_CLK_GATE		VSOC_BIT(0)	/* can be gated/ungated */
#define VSOC_CLK_SET_RATE	VSOC_BIT(1)	/* rate can be set */
#define VSOC_CLK_CRITICAL	VSOC_BIT(2)	/* never gated */

/**
 * struct vsoc_clock_desc - a clock
 * @name: NUL-padded name
 * @parent: index of the parent clock or VSOC_NONE (a root oscillator)
 * @flags: VSOC_CLK_*
 * @rate_hz: rate at model start
 * @min_rate_hz: lowest settable rate (== @rate_hz without SET_RATE)
 * @max_rate_hz: highest settable rate
 * @initial_on: 1 if ungated at model start
 * @reserved: zero
 */
struct vsoc_clock_desc {
	char name[VSOC_NAME_LEN];
	__le32 parent;
	__le32 flags;
	__le64 rate_hz;
	__le64 min_rate_hz;
	__le64 max_rate_hz;
	__le32 initial_on;
	__le32 reserved[3];
};

/* Peripheral types */
#define VSOC_PERIPH_TIMER	1
#define VSOC_PERIPH_SENSOR	2
#define VSOC_PERIPH_DMA		3	/* copy + transform engine */
#define VSOC_PERIPH_SIMPLE	4	/* a register block; NOP command */

/**
 * struct vsoc_periph_desc - a peripheral
 * @name: NUL-padded name
 * @type: VSOC_PERIPH_*
 * @domain: index of its power domain
 * @clock: index of its functional clock or VSOC_NONE
 * @vector: guest vector it raises (normally VSOC_VEC_PERIPH)
 * @regs: its register window (struct vsoc_periph_regs)
 * @data: its data window (sensor samples, DMA source and destination)
 * @active_power_uw: extra power drawn in its domain while busy
 * @reserved: zero
 */
struct vsoc_periph_desc {
	char name[VSOC_NAME_LEN];
	__le32 type;
	__le32 domain;
	__le32 clock;
	__le32 vector;
	struct vsoc_area regs;
	struct vsoc_area data;
	__le32 active_power_uw;
	__le32 reserved[3];
};

/* Core flags (version 1.3) */
#define VSOC_CORE_F_FIREWALL	VSOC_BIT(0)	/* vring firewall enforced */

/**
 * struct vsoc_core_desc - a remote core
 * @name: NUL-padded name (also the remoteproc name)
 * @domain: index of the domain that powers it
 * @clock: index of its clock or VSOC_NONE
 * @peer: its ivshmem peer ID (VSOC_PEER_CORE_BASE + index)
 * @first_mem: index of its first entry in the mems array
 * @nr_mems: number of consecutive mems entries that are its memory map
 * @mbox_tx: mailbox channel guest->core, or VSOC_NONE
 * @mbox_rx: mailbox channel core->guest, or VSOC_NONE
 * @mem_domain: index of the domain that powers the core's memory, which
 *	must be on while the core runs (VSOC_RULE_CORE_MEM_OFF), or
 *	VSOC_NONE: the core's own domain powers it (version 1.5; reserved,
 *	so zero, before: a reader of an older table takes VSOC_NONE)
 * @ctl: its struct vsoc_core_ctl
 * @resmgr_domains: bit d set: the core may ask Linux's resource manager
 *	for domain d; no other (version 1.3; reserved, so zero, before)
 * @resmgr_clocks: bit c set: the same for clock c (version 1.3)
 * @flags: VSOC_CORE_F_* (version 1.3)
 * @isa: AMPSOC_CORE_ISA_* (include/uapi/ampsoc/core_fault.h) of the core's
 *	instruction set (version 1.4; reserved, so zero, before: a reader
 *	takes 0 as AMPSOC_CORE_ISA_X86_64)
 */
struct vsoc_core_desc {
	char name[VSOC_NAME_LEN];
	__le32 domain;
	__le32 clock;
	__le32 peer;
	__le32 first_mem;
	__le32 nr_mems;
	__le32 mbox_tx;
	__le32 mbox_rx;
	__le32 mem_domain;
	struct vsoc_area ctl;
	__le32 resmgr_domains;
	__le32 resmgr_clocks;
	__le32 flags;
	__le32 isa;
};

/* Memory flags */
#define VSOC_MEM_EXEC		VSOC_BIT(0)	/* code may be loaded here */
#define VSOC_MEM_DMA		VSOC_BIT(1)	/* carveouts / vrings allowed */

/**
 * struct vsoc_mem_desc - one entry of a core's memory map
 * @name: NUL-padded name (e.g. "iram", "ddr")
 * @core: index of the owning core
 * @flags: VSOC_MEM_*
 * @shm_offset: where the memory is in shared memory
 * @da: the device address the core sees it at
 * @size: length in bytes; entries never overlap in shared memory nor,
 *	for one core, in device address space
 */
struct vsoc_mem_desc {
	char name[VSOC_NAME_LEN];
	__le32 core;
	__le32 flags;
	__le64 shm_offset;
	__le64 da;
	__le64 size;
};

/* Address meaning "any" in struct vsoc_chan_desc (rpmsg's RPMSG_ADDR_ANY) */
#define VSOC_RPMSG_ADDR_ANY	0xffffffffu

/**
 * struct vsoc_chan_desc - an rpmsg channel a core serves without announcing
 *	it (a static channel, as a board declares for a remote that has no
 *	name service); version 1.2
 * @name: NUL-padded channel name, 1..31 characters of [A-Za-z0-9_.-]
 * @core: index of the core that serves it
 * @dst: the core's rpmsg address of the service; not VSOC_RPMSG_ADDR_ANY
 * @src: Linux's local address for the channel, or VSOC_RPMSG_ADDR_ANY;
 *	a fixed one is at least 1024 (below is rpmsg's reserved range)
 * @reserved: zero
 *
 * Entries are sorted by @core; at most VSOC_MAX_CHANS_PER_CORE per core,
 * and no two entries of one core share @name and @dst.
 */
struct vsoc_chan_desc {
	char name[VSOC_NAME_LEN];
	__le32 core;
	__le32 dst;
	__le32 src;
	__le32 reserved;
};

/* Mailbox endpoints */
#define VSOC_MBOX_EP_GUEST	0xfffeu	/* the Linux side */
/* otherwise an endpoint is a core index */

/**
 * struct vsoc_mbox_desc - a unidirectional mailbox channel
 * @name: NUL-padded name
 * @from: sending endpoint: VSOC_MBOX_EP_GUEST or a core index
 * @to: receiving endpoint: VSOC_MBOX_EP_GUEST or a core index
 * @peer: ivshmem peer to ring after a send (the receiver's peer ID)
 * @vector: vector to ring on @peer
 * @depth: messages in the FIFO, a power of two <= VSOC_MBOX_MAX_DEPTH
 * @reserved0: zero
 * @fifo: the struct vsoc_mbox_fifo
 */
struct vsoc_mbox_desc {
	char name[VSOC_NAME_LEN];
	__le32 from;
	__le32 to;
	__le32 peer;
	__le32 vector;
	__le32 depth;
	__le32 reserved0;
	struct vsoc_area fifo;
};

/* ------------------------------------------------------------------ */
/* Power and clock controller request slots                           */
/* ------------------------------------------------------------------ */

/*
 * One slot per domain (power controller) and per clock (clock
 * controller), so independent targets transition concurrently.
 *
 * Protocol: G writes @op and @arg, then (write barrier) increments
 * @req_seq, then rings (model peer, VSOC_VEC_PWR or VSOC_VEC_CLK).
 * M notices @req_seq != @ack_seq, validates, applies the latency, writes
 * @status and @state, then (write barrier) @ack_seq = @req_seq, then
 * rings (guest peer, same vector). A request is in flight while
 * @req_seq != @ack_seq; G must not write the slot then (M counts it as
 * garbage). A slot whose request never completes is a stuck target: G
 * times out by itself.
 */

/* Power-controller ops (slot index = domain index) */
#define VSOC_PWR_OP_ON		1
#define VSOC_PWR_OP_OFF		2
/*
 * Set the domain's performance level (1.5): @arg = a level number the
 * table declares for the domain, else -VSOC_ERANGE (a domain without
 * levels has none). Immediate, in any power state. Raising a domain above
 * its parent's level, or lowering a parent below a child's, where the
 * child has VSOC_DOMAIN_PERF_PARENT_GE, is refused with -VSOC_EPERM and a
 * VSOC_RULE_PERF_PARENT violation. The slot's @level is the result.
 */
#define VSOC_PWR_OP_SET_LEVEL	3
/*
 * (1.5) Sync reached for a VSOC_DOMAIN_STAY_ON domain: from now on it may
 * be powered off. No latency, the state is unchanged; -VSOC_EINVAL for a
 * domain without the flag.
 */
#define VSOC_PWR_OP_SYNC	4

/* Domain states (slot @state, telemetry) */
#define VSOC_PWR_OFF		0
#define VSOC_PWR_ON		1
#define VSOC_PWR_GOING_ON	2	/* telemetry only: in a latency */
#define VSOC_PWR_GOING_OFF	3

/* Clock-controller ops (slot index = clock index) */
#define VSOC_CLK_OP_UNGATE	1
#define VSOC_CLK_OP_GATE	2
#define VSOC_CLK_OP_SET_RATE	3	/* @arg = rate in Hz */

/* Clock states */
#define VSOC_CLK_GATED		0
#define VSOC_CLK_RUNNING	1

/**
 * struct vsoc_req_slot - a power- or clock-controller request slot
 * @req_seq: G: incremented to submit a request
 * @op: G: VSOC_PWR_OP_* or VSOC_CLK_OP_*
 * @flags: G: zero
 * @reserved0: G: zero
 * @arg: G: operation argument (rate for SET_RATE), else zero
 * @ack_seq: M: set to @req_seq when the request is complete
 * @status: M: VSOC_OK or a negative VSOC_E* value
 * @state: M: resulting VSOC_PWR_* / VSOC_CLK_* state
 * @level: M: the domain's performance level number after the request,
 *	0 for a domain without levels and in clock slots (1.5; zero before)
 * @rate_hz: M: resulting rate (clock slots), zero otherwise
 * @done_ns: M: model time of completion
 * @pad: to one cache line
 */
struct vsoc_req_slot {
	__le32 req_seq;
	__le32 op;
	__le32 flags;
	__le32 reserved0;
	__le64 arg;
	/* ---- model-written half ---- */
	__le32 ack_seq;
	__le32 status;
	__le32 state;
	__le32 level;
	__le64 rate_hz;
	__le64 done_ns;
	__le64 pad;
};

/* ------------------------------------------------------------------ */
/* Echo block: raw doorbell round trips                               */
/* ------------------------------------------------------------------ */

/**
 * struct vsoc_echo - doorbell round-trip tests and benchmarks
 * @ping_seq: G: incremented, then G rings (model, VSOC_VEC_ECHO)
 * @ping_ack: M: copied from @ping_seq at once, then M rings
 *	(guest, VSOC_VEC_ECHO); no latency is modelled
 * @rt_req_seq: G: incremented to ask for @rt_count model-initiated
 *	round trips; rung on (model, VSOC_VEC_ECHO_RT)
 * @rt_count: G: number of round trips wanted (<= 1000000)
 * @rt_ring_seq: M: incremented before each ring of (guest,
 *	VSOC_VEC_ECHO_RT)
 * @rt_reply_seq: G: set to @rt_ring_seq, then G rings (model,
 *	VSOC_VEC_ECHO_RT) to answer
 * @rt_ack_seq: M: set to @rt_req_seq when the run is over
 * @rt_status: M: VSOC_OK or negative VSOC_E*
 * @rt_done: M: round trips completed
 * @reserved0: zero
 * @rt_total_ns: M: sum of the round-trip times
 * @rt_min_ns: M: fastest round trip
 * @rt_max_ns: M: slowest round trip
 * @reserved: zero
 */
struct vsoc_echo {
	__le32 ping_seq;
	__le32 ping_ack;
	__le32 rt_req_seq;
	__le32 rt_count;
	__le32 rt_ring_seq;
	__le32 rt_reply_seq;
	__le32 rt_ack_seq;
	__le32 rt_status;
	__le32 rt_done;
	__le32 reserved0;
	__le64 rt_total_ns;
	__le64 rt_min_ns;
	__le64 rt_max_ns;
	__le64 reserved[3];
};

/* ------------------------------------------------------------------ */
/* Mailbox channels                                                   */
/* ------------------------------------------------------------------ */

#define VSOC_MBOX_MAX_DEPTH	256

/*
 * Reserved mailbox messages, the same numbers as mainline's OMAP
 * remoteproc uses; any other value is a payload (rpmsg: a vring index).
 * VSOC_MBOX_MSG_CRASH is pushed by the model into a dead core's
 * core->guest channel (the core can no longer write it).
 */
#define VSOC_MBOX_MSG_READY		0xffffff00u
#define VSOC_MBOX_MSG_PENDING		0xffffff01u
#define VSOC_MBOX_MSG_CRASH		0xffffff02u
#define VSOC_MBOX_MSG_ECHO_REQUEST	0xffffff03u
#define VSOC_MBOX_MSG_ECHO_REPLY	0xffffff04u

/**
 * struct vsoc_mbox_fifo - a single-producer single-consumer FIFO of words
 * @head: producer: free-running count of messages written
 * @pad0: keeps @head and @tail on separate cache lines
 * @tail: consumer: free-running count of messages read
 * @overflows: producer: messages dropped because the FIFO was full
 * @pad1: to the end of the cache line
 * @msg: the ring; message n is msg[n % depth]
 *
 * The producer writes msg[head % depth], then (write barrier) head + 1,
 * then rings the receiver. The FIFO is full when head - tail == depth.
 * The consumer must treat head - tail > depth as corruption.
 */
struct vsoc_mbox_fifo {
	__le32 head;
	__le32 pad0[15];
	__le32 tail;
	__le32 overflows;
	__le32 pad1[14];
	__le32 msg[];
};

/* ------------------------------------------------------------------ */
/* Remote-core control block                                          */
/* ------------------------------------------------------------------ */

/* Core control ops (slot embedded in the control block) */
#define VSOC_CORE_OP_RUN	1	/* release reset: boot at @boot_addr */
#define VSOC_CORE_OP_HALT	2	/* assert reset: hard stop */

/* Core states */
#define VSOC_CORE_OFF		0	/* domain off */
#define VSOC_CORE_RESET		1	/* domain on, held in reset */
#define VSOC_CORE_RUNNING	2
#define VSOC_CORE_CRASHED	3	/* died; stays until HALT */

/* Crash reasons */
#define VSOC_CRASH_NONE		0
#define VSOC_CRASH_SIGNAL	1	/* @crash_info = signal number */
#define VSOC_CRASH_EXIT		2	/* @crash_info = exit status */
#define VSOC_CRASH_WATCHDOG	3	/* @wdt_count stalled */
#define VSOC_CRASH_START	4	/* could not be started */
#define VSOC_CRASH_POWER	5	/* domain lost power while running */
/*
 * VSOC_CRASH_FAULT (1.3): the core's runner reported the fault that ended
 * it: @crash_info = AMPSOC_CORE_FAULT_* (include/uapi/ampsoc/core_fault.h), with
 * @fault_addr, @fault_pc and @fault_access.
 */
#define VSOC_CRASH_FAULT	6

/*
 * The vring firewall (version 1.3). Before it releases a core (RUN), the
 * guest may list in the control block up to VSOC_CORE_FW_REGIONS ranges
 * of the core's device addresses the core must not write: the parts of
 * its vrings that only the guest writes. The model checks them (inside
 * one memory of the core, no overflow, @fw_count bounded, reserved zero;
 * otherwise the RUN fails with -EINVAL and a VSOC_RULE_FIREWALL
 * violation) and, if the board enables the core's firewall
 * (VSOC_CORE_F_FIREWALL), makes them read-only for that run. The
 * firewall works on whole 4 KiB pages: it protects the pages that lie
 * entirely inside the union of the regions and reports the bytes it
 * could not protect. A write into a protected page ends the core: crash
 * reason VSOC_CRASH_FAULT, info AMPSOC_CORE_FAULT_FIREWALL.
 */
#define VSOC_CORE_FW_REGIONS	8
/* Size of struct vsoc_core_ctl before version 1.3, and before 1.4. */
#define VSOC_CORE_CTL_SIZE_1_2	120
#define VSOC_CORE_CTL_SIZE_1_3	320
/* Registers of a fault (1.4): as many as a fault record may carry. */
#define VSOC_CORE_FAULT_REGS	40

/**
 * struct vsoc_fw_region - a range of device addresses a core may not write
 * @da: first device address
 * @len: length in bytes, not 0
 */
struct vsoc_fw_region {
	__le64 da;
	__le64 len;
};

/**
 * struct vsoc_core_ctl - per-core control block
 * @boot_addr: G: device address of the entry point, written before RUN
 * @req_seq: G: incremented to submit @op; ring (model, VSOC_VEC_CORE)
 * @op: G: VSOC_CORE_OP_*
 * @ack_seq: M: set to @req_seq when done; M rings (guest, VSOC_VEC_CORE)
 * @status: M: VSOC_OK or negative VSOC_E* (EPERM: domain off)
 * @state: M: VSOC_CORE_*
 * @crash_reason: M: VSOC_CRASH_* of the last crash
 * @crash_info: M: signal number, exit status, ...
 * @boot_count: M: number of starts
 * @crash_count: M: number of crashes; M also rings (guest, VSOC_VEC_CORE)
 *	and pushes VSOC_MBOX_MSG_CRASH on the core->guest channel
 * @wdt_timeout_ms: C: watchdog period, 0 = disabled
 * @wdt_count: C: incremented at least once per @wdt_timeout_ms
 * @reserved0: zero
 * @start_ns: M: model time of the last start
 * @stop_ns: M: model time of the last stop or crash
 * @reserved: zero
 * @fw_count: G: entries of @fw in use, <= VSOC_CORE_FW_REGIONS (1.3)
 * @fw_reserved: G: zero
 * @fw: G: the firewall regions for the next RUN
 * @fw_protected: M: bytes the firewall protects in this run (0 when the
 *	board turns the core's firewall off)
 * @fw_unprotected: M: bytes of @fw it could not protect (not whole pages)
 * @fault_addr: M: device address of the access that ended the core, for
 *	crash reason VSOC_CRASH_FAULT; like @crash_info, of the last crash
 * @fault_pc: M: device address of the faulting instruction
 * @fault_access: M: AMPSOC_CORE_ACCESS_* of that access
 * @fw_faults: M: firewall faults of this core since the model started
 * @reserved1: zero
 * @fault_signo: M: the signal the core ended with, for crash reason
 *	VSOC_CRASH_FAULT (1.4)
 * @fault_nr_regs: M: entries of @fault_regs in use, <= VSOC_CORE_FAULT_REGS;
 *	0 if the runner gave none (1.4)
 * @fault_regs: M: the core's registers when it faulted, in gdb's order
 *	for the core's instruction set (struct ampsoc_core_fault's @regs) (1.4)
 */
struct vsoc_core_ctl {
	__le64 boot_addr;
	__le32 req_seq;
	__le32 op;
	__le32 ack_seq;
	__le32 status;
	__le32 state;
	__le32 crash_reason;
	__le32 crash_info;
	__le32 boot_count;
	__le32 crash_count;
	__le32 wdt_timeout_ms;
	__le32 wdt_count;
	__le32 reserved0;
	__le64 start_ns;
	__le64 stop_ns;
	__le64 reserved[6];
	/* ---- version 1.3 ---- */
	__le32 fw_count;
	__le32 fw_reserved;
	struct vsoc_fw_region fw[VSOC_CORE_FW_REGIONS];
	__le64 fw_protected;
	__le64 fw_unprotected;
	__le64 fault_addr;
	__le64 fault_pc;
	__le32 fault_access;
	__le32 fw_faults;
	/*
	 * Linux's DRAM as the core sees it (version 1.4; reserved, so zero,
	 * before; written by the model before the guest starts; 0 size: the
	 * core does not see it): guest physical address 0 is device address
	 * @ddr_da, up to @ddr_size bytes.
	 */
	__le64 ddr_da;
	__le64 ddr_size;
	__le64 reserved1[1];
	/* ---- version 1.4 ---- */
	__le32 fault_signo;
	__le32 fault_nr_regs;
	__le64 fault_regs[VSOC_CORE_FAULT_REGS];
};

/* ------------------------------------------------------------------ */
/* Peripheral register blocks                                         */
/* ------------------------------------------------------------------ */

/*
 * BAR2 does not trap, so "touching" a device is a command: G writes the
 * argument registers and @cmd, then (write barrier) increments @cmd_seq
 * and rings (model, VSOC_VEC_PERIPH). M checks the hardware rules on
 * every command (domain on, clock ungated, nothing in flight across a
 * power-off), records a violation otherwise and completes the command
 * with -VSOC_EPERM so that the guest never hangs. Accepted commands are
 * acknowledged with @cmd_result and @cmd_ack = @cmd_seq (then a ring of
 * the peripheral's vector). Asynchronous completions (timer expiry,
 * sensor samples, DMA done) increment @event_seq and ring the vector if
 * @irq_enable is 1.
 */

/* Commands common to all types */
#define VSOC_CMD_NOP		0	/* just a register access */
#define VSOC_CMD_STOP		1	/* stop what is running */

/* Timer */
#define VSOC_TIMER_CMD_START	2	/* arg0 = period ns, arg1 = flags */
#define VSOC_TIMER_CMD_READ	3	/* refresh @counter */
#define VSOC_TIMER_PERIODIC	VSOC_BIT(0)	/* else one-shot */

/* Sensor: samples into the data window */
#define VSOC_SENSOR_CMD_SAMPLE	2	/* arg0 = count, arg1 = period ns */

/* DMA engine: within its data window */
#define VSOC_DMA_CMD_START	2
#define VSOC_DMA_XFORM_COPY	0
#define VSOC_DMA_XFORM_XOR	1	/* each byte ^= key & 0xff */
#define VSOC_DMA_XFORM_REVERSE	2	/* byte order of the whole buffer */
#define VSOC_DMA_XFORM_CRC32	3	/* no dst write; crc in result */

/**
 * struct vsoc_periph_regs - the common register block of a peripheral
 * @type: M: VSOC_PERIPH_* (read-only)
 * @index: M: the peripheral's index in the table (read-only)
 * @cmd: G: command code
 * @cmd_seq: G: incremented to submit @cmd
 * @cmd_ack: M: set to @cmd_seq when the command is processed
 * @cmd_result: M: VSOC_OK or negative VSOC_E*
 * @irq_enable: G: 1 to have events ring the peripheral's vector
 * @event_seq: M: incremented per asynchronous event
 * @busy: M: 1 while an operation is in flight
 * @event_result: M: status of the last asynchronous completion
 * @arg: G: command arguments (meaning per type)
 * @value: M: type-specific results, see VSOC_REG_*
 * @reserved: zero
 */
struct vsoc_periph_regs {
	__le32 type;
	__le32 index;
	__le32 cmd;
	__le32 cmd_seq;
	__le32 cmd_ack;
	__le32 cmd_result;
	__le32 irq_enable;
	__le32 event_seq;
	__le32 busy;
	__le32 event_result;
	__le64 arg[6];
	__le64 value[6];
	__le64 reserved[2];
};

/*
 * Argument and value registers per type:
 *  timer:  arg[0] period ns, arg[1] VSOC_TIMER_*; value[0] expirations,
 *          value[1] counter (ns since start, refreshed by READ and on
 *          each expiry)
 *  sensor: arg[0] count (<= data window / sizeof(struct
 *          vsoc_sensor_sample)), arg[1] sample period ns; value[0]
 *          samples written by the last SAMPLE, value[1] total samples
 *  dma:    arg[0] src offset, arg[1] dst offset (both within the data
 *          window), arg[2] length, arg[3] transform, arg[4] key;
 *          value[0] bytes transferred, value[1] CRC-32 (CRC32 transform)
 */
#define VSOC_REG_EXPIRATIONS	0
#define VSOC_REG_COUNTER	1

/**
 * struct vsoc_sensor_sample - one sample in a sensor's data window
 * @ts_ns: model time the sample was taken
 * @seq: free-running sample number
 * @value: the measured value (millidegrees Celsius)
 */
struct vsoc_sensor_sample {
	__le64 ts_ns;
	__le32 seq;
	__le32 value;
};

/* ------------------------------------------------------------------ */
/* Telemetry page: the model's ground truth, read-only for the guest   */
/* ------------------------------------------------------------------ */

/* Violation rules */
#define VSOC_RULE_DOMAIN_OFF		1	/* access with its domain off */
#define VSOC_RULE_CLOCK_GATED		2	/* access with its clock gated */
#define VSOC_RULE_INFLIGHT_POWEROFF	3	/* busy across a power-off */
#define VSOC_RULE_PARENT_OFF		4	/* domain on with parent off */
#define VSOC_RULE_CHILD_ON		5	/* domain off with a child on */
#define VSOC_RULE_CLK_PARENT_GATED	6	/* clock on with parent gated */
#define VSOC_RULE_CORE_POWEROFF		7	/* core running at power-off */
#define VSOC_RULE_ALWAYS_ON		8	/* always-on domain switched off */
#define VSOC_RULE_FIREWALL		9	/* bad firewall regions (1.3) */
#define VSOC_RULE_CORE_MEM_OFF		10	/* core running, memory off (1.5) */
#define VSOC_RULE_PERF_PARENT		11	/* child's level above parent's (1.5) */
#define VSOC_RULE_STAY_ON		12	/* stay-on off before sync (1.5) */

/* Violation object kinds */
#define VSOC_OBJ_DOMAIN		1
#define VSOC_OBJ_CLOCK		2
#define VSOC_OBJ_PERIPH		3
#define VSOC_OBJ_CORE		4

#define VSOC_TELEM_VIOLATIONS	16	/* last N violations kept */

/**
 * struct vsoc_telem_domain - live state of one domain
 * @state: VSOC_PWR_*
 * @on_count: completed power-ons
 * @off_count: completed power-offs
 * @failed_count: power-ons that failed (fault injection)
 * @last_change_ns: model time of the last state change
 * @energy_uj: energy used since model start, microjoules
 */
struct vsoc_telem_domain {
	__le32 state;
	__le32 on_count;
	__le32 off_count;
	__le32 failed_count;
	__le64 last_change_ns;
	__le64 energy_uj;
};

/**
 * struct vsoc_telem_clock - live state of one clock
 * @state: VSOC_CLK_GATED or VSOC_CLK_RUNNING
 * @ungate_count: completed ungates
 * @gate_count: completed gates
 * @rate_count: completed rate changes
 * @rate_hz: current rate
 */
struct vsoc_telem_clock {
	__le32 state;
	__le32 ungate_count;
	__le32 gate_count;
	__le32 rate_count;
	__le64 rate_hz;
};

/**
 * struct vsoc_telem_violation - one recorded violation
 * @time_ns: model time
 * @rule: VSOC_RULE_*
 * @obj_kind: VSOC_OBJ_*
 * @obj_index: index of the object in its table array
 * @seq: violation number (1 for the first)
 */
struct vsoc_telem_violation {
	__le64 time_ns;
	__le32 rule;
	__le32 obj_kind;
	__le32 obj_index;
	__le32 seq;
};

/**
 * struct vsoc_telemetry - the model's status page (M writes, G reads)
 * @seq: seqlock: odd while M updates; G retries a read when @seq is odd
 *	or changed across it
 * @reserved0: zero
 * @now_ns: model time of the last update (monotonic, from model start)
 * @violations: violations recorded
 * @garbage: request slots or commands rejected as garbage
 * @lost_doorbells: doorbells dropped by fault injection
 * @faults_active: bitmask of active fault injections (1 << VSOC_FAULT_*)
 * @energy_total_uj: all domains, microjoules
 * @domains: per domain, indexed like the table
 * @clocks: per clock
 * @last: ring of the last VSOC_TELEM_VIOLATIONS violations; record n
 *	(n = seq) is last[(n - 1) % VSOC_TELEM_VIOLATIONS]
 * @periph_busy: bit i set while peripheral i has an operation in flight
 * @fw_faults: firewall faults of all cores (version 1.3; zero before)
 * @periph_ops: operations accepted per peripheral
 * @level: per domain, its current performance level number; 0 for a
 *	domain without levels (version 1.5)
 * @level_energy_uj: per entry of the levels array, the energy its domain
 *	used while on (or going on or off) at that level, microjoules; a
 *	domain's entries plus its leakage while off make its @energy_uj
 *	(version 1.5)
 */
struct vsoc_telemetry {
	__le32 seq;
	__le32 reserved0;
	__le64 now_ns;
	__le32 violations;
	__le32 garbage;
	__le32 lost_doorbells;
	__le32 faults_active;
	__le64 energy_total_uj;
	struct vsoc_telem_domain domains[VSOC_MAX_DOMAINS];
	struct vsoc_telem_clock clocks[VSOC_MAX_CLOCKS];
	struct vsoc_telem_violation last[VSOC_TELEM_VIOLATIONS];
	__le32 periph_busy;
	__le32 fw_faults;
	__le32 periph_ops[VSOC_MAX_PERIPHS];
	/* ---- version 1.5 ---- */
	__le32 level[VSOC_MAX_DOMAINS];
	__le64 level_energy_uj[VSOC_MAX_PERF_LEVELS];
};

/* Fault kinds (telemetry @faults_active bits, control interface) */
#define VSOC_FAULT_SLOW_ON	0	/* power-on takes extra time */
#define VSOC_FAULT_FAIL_ON	1	/* power-on completes with -EIO */
#define VSOC_FAULT_STUCK	2	/* requests never complete */
#define VSOC_FAULT_LOST_DB	3	/* completion doorbells dropped */
#define VSOC_FAULT_ALL		0xffffffffu	/* CLEAR: every fault */

/* ------------------------------------------------------------------ */
/* Fault-control slot (test mode, version 1.1)                        */
/* ------------------------------------------------------------------ */

/*
 * Lets an in-guest test arm a fault exactly around the transition it
 * checks. G writes @op, @kind, @target, @arg, then (write barrier)
 * increments @req_seq and rings (model, VSOC_VEC_FAULT); M validates,
 * applies, writes @status, then @ack_seq = @req_seq and rings (guest,
 * VSOC_VEC_FAULT). A LOST_DB fault starts after that ring.
 *
 *   kind      target                  arg
 *   SLOW_ON   domain index            extra power-on time, ns (<= 10 s)
 *   FAIL_ON   domain index            power-ons to fail; 0 = all
 *   STUCK     domain index            zero
 *   LOST_DB   0: model->guest,        doorbells to drop (<= 1000000)
 *             1: guest->model
 *
 * CLEAR removes @kind on @target (LOST_DB: both directions), or every
 * fault when @kind is VSOC_FAULT_ALL; a stuck request then completes.
 */
#define VSOC_FAULT_OP_SET	1
#define VSOC_FAULT_OP_CLEAR	2

/**
 * struct vsoc_fault_ctl - the fault-control slot
 * @req_seq: G: incremented to submit
 * @op: G: VSOC_FAULT_OP_*
 * @kind: G: VSOC_FAULT_* (or VSOC_FAULT_ALL with CLEAR)
 * @target: G: see the table above
 * @arg: G: see the table above
 * @ack_seq: M: set to @req_seq when applied
 * @status: M: VSOC_OK or negative VSOC_E*
 * @reserved: zero
 */
struct vsoc_fault_ctl {
	__le32 req_seq;
	__le32 op;
	__le32 kind;
	__le32 target;
	__le64 arg;
	__le32 ack_seq;
	__le32 status;
	__le64 reserved[2];
};

/* ------------------------------------------------------------------ */
/* Size checks                                                        */
/* ------------------------------------------------------------------ */

/*
 * A compile-time check that works in the kernel, in userspace and in
 * freestanding firmware alike: an array of negative size does not build.
 */
#define VSOC_ABI_CHECK(name, cond) \
	extern char vsoc_abi_check_##name[(cond) ? 1 : -1]

VSOC_ABI_CHECK(vsoc_array, sizeof(struct vsoc_array) == 16);
VSOC_ABI_CHECK(vsoc_area, sizeof(struct vsoc_area) == 16);
VSOC_ABI_CHECK(board_header, sizeof(struct vsoc_board_header) == 312);
VSOC_ABI_CHECK(domain_desc, sizeof(struct vsoc_domain_desc) == 80);
VSOC_ABI_CHECK(clock_desc, sizeof(struct vsoc_clock_desc) == 80);
VSOC_ABI_CHECK(periph_desc, sizeof(struct vsoc_periph_desc) == 96);
VSOC_ABI_CHECK(core_desc, sizeof(struct vsoc_core_desc) == 96);
VSOC_ABI_CHECK(mem_desc, sizeof(struct vsoc_mem_desc) == 64);
VSOC_ABI_CHECK(mbox_desc, sizeof(struct vsoc_mbox_desc) == 72);
VSOC_ABI_CHECK(chan_desc, sizeof(struct vsoc_chan_desc) == 48);
VSOC_ABI_CHECK(level_desc, sizeof(struct vsoc_level_desc) == 16);
VSOC_ABI_CHECK(domain_levels_1_5,
	       __builtin_offsetof(struct vsoc_domain_desc, first_level) == 68);
VSOC_ABI_CHECK(header_levels_1_5,
	       __builtin_offsetof(struct vsoc_board_header, levels) == 280);
VSOC_ABI_CHECK(slot_level_1_5,
	       __builtin_offsetof(struct vsoc_req_slot, level) == 36);
VSOC_ABI_CHECK(telemetry_1_5,
	       __builtin_offsetof(struct vsoc_telemetry, level) == 2352);
VSOC_ABI_CHECK(telemetry_size_1_5, sizeof(struct vsoc_telemetry) == 2992);
VSOC_ABI_CHECK(request_slot, sizeof(struct vsoc_req_slot) == 64);
VSOC_ABI_CHECK(echo, sizeof(struct vsoc_echo) == 88);
VSOC_ABI_CHECK(mbox_fifo, sizeof(struct vsoc_mbox_fifo) == 128);
VSOC_ABI_CHECK(fw_region, sizeof(struct vsoc_fw_region) == 16);
VSOC_ABI_CHECK(core_ctl, sizeof(struct vsoc_core_ctl) == 648);
VSOC_ABI_CHECK(core_ctl_1_3,
	       __builtin_offsetof(struct vsoc_core_ctl, fault_signo) ==
	       VSOC_CORE_CTL_SIZE_1_3);
VSOC_ABI_CHECK(core_ctl_1_2,
	       __builtin_offsetof(struct vsoc_core_ctl, fw_count) ==
	       VSOC_CORE_CTL_SIZE_1_2);
VSOC_ABI_CHECK(core_ctls_fit_one_page,
	       VSOC_MAX_CORES * sizeof(struct vsoc_core_ctl) <= VSOC_PAGE_SIZE);
VSOC_ABI_CHECK(periph_regs, sizeof(struct vsoc_periph_regs) == 152);
VSOC_ABI_CHECK(sensor_sample, sizeof(struct vsoc_sensor_sample) == 16);
VSOC_ABI_CHECK(fault_ctl, sizeof(struct vsoc_fault_ctl) == 48);
VSOC_ABI_CHECK(telem_domain, sizeof(struct vsoc_telem_domain) == 32);
VSOC_ABI_CHECK(telem_clock, sizeof(struct vsoc_telem_clock) == 24);
VSOC_ABI_CHECK(telem_viol, sizeof(struct vsoc_telem_violation) == 24);
VSOC_ABI_CHECK(telemetry_fits_one_page,
	       sizeof(struct vsoc_telemetry) <= VSOC_PAGE_SIZE);

#endif /* _AMPSOC_VSOC_ABI_H */
