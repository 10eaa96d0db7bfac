/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ampsoc SoC model: the board description, as read from a board file
 * (docs/board-file.md) and as published in the shared-memory table.
 */
#ifndef _SOCMODEL_BOARD_H
#define _SOCMODEL_BOARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <zlib.h>	/* crc32(): the table's checksum */

#include <uapi/ampsoc/vsoc_abi.h>

#include "table_check.h"

#define BOARD_ERR_LEN	256
#define BOARD_MAX_CORE_MEMS	8
#define BOARD_MAX_CORE_CHANS	VSOC_MAX_CHANS_PER_CORE

struct board_domain {
	char name[VSOC_NAME_LEN];
	uint32_t parent;		/* index or VSOC_NONE */
	uint32_t flags;			/* VSOC_DOMAIN_* */
	uint64_t on_latency_ns, off_latency_ns;
	uint32_t on_power_uw, off_power_uw;
	bool initially_on;
	int line, parent_line;
	char parent_name[VSOC_NAME_LEN];
	/* performance levels (ABI 1.5): perf_levels = L:UV:UW, ... */
	struct board_level {
		uint32_t level, voltage_uv, power_uw;
	} level[VSOC_MAX_DOMAIN_LEVELS];
	unsigned int nr_levels;
	unsigned int first_level;	/* index in the table's levels array */
	int levels_line, parent_ge_line;	/* 0: key absent */
};

struct board_clock {
	char name[VSOC_NAME_LEN];
	uint32_t parent;
	uint32_t flags;			/* VSOC_CLK_* */
	uint64_t rate_hz, min_rate_hz, max_rate_hz;
	bool initially_on;
	int line, parent_line;
	char parent_name[VSOC_NAME_LEN];
};

struct board_periph {
	char name[VSOC_NAME_LEN];
	uint32_t type;			/* VSOC_PERIPH_* */
	uint32_t domain, clock;
	uint32_t active_power_uw;
	uint64_t data_size;		/* data window, bytes */
	uint64_t bandwidth;		/* DMA: bytes per microsecond */
	uint32_t vector_guest;		/* guest vector it raises */
	int line, domain_line, clock_line;
	char domain_name[VSOC_NAME_LEN], clock_name[VSOC_NAME_LEN];
	/* layout, filled by board_layout() */
	uint64_t regs_off, data_off;
};

struct board_mem {
	char name[VSOC_NAME_LEN];
	uint32_t flags;			/* VSOC_MEM_* */
	uint64_t shm_off, da, size;
	int line;
};

/* A static rpmsg channel the core serves (rpmsg_static = NAME:DST[:SRC]) */
struct board_chan {
	char name[VSOC_NAME_LEN];
	uint32_t dst;			/* the core's address */
	uint32_t src;			/* Linux's, or VSOC_RPMSG_ADDR_ANY */
	int line;
};

/* resmgr_domains / resmgr_clocks, as written, resolved after parsing */
enum { BOARD_RESMGR_DOMAINS, BOARD_RESMGR_CLOCKS, BOARD_RESMGR_KINDS };

struct board_core {
	char name[VSOC_NAME_LEN];
	uint32_t domain, clock;
	struct board_mem mem[BOARD_MAX_CORE_MEMS];
	unsigned int nr_mems;
	struct board_chan chan[BOARD_MAX_CORE_CHANS];
	unsigned int nr_chans;
	uint32_t mbox_tx, mbox_rx;	/* channel indexes or VSOC_NONE */
	int line, domain_line, clock_line;
	char domain_name[VSOC_NAME_LEN], clock_name[VSOC_NAME_LEN];
	uint64_t ctl_off;
	/* what the core may ask Linux's resource manager for (ABI 1.3) */
	char resmgr_text[BOARD_RESMGR_KINDS][256];
	int resmgr_line[BOARD_RESMGR_KINDS];
	uint32_t resmgr_domains, resmgr_clocks;	/* bit per index */
	/* vring firewall: -1 as [soc] says, else 0 off / 1 on */
	int firewall_setting;
	int firewall_line;
	bool firewall;			/* resolved */
	/*
	 * ddr = DA:SIZE: Linux's DRAM (guest physical address 0 on) as the
	 * core sees it, when the model is given the guest's RAM; 0 size: none
	 */
	uint64_t ddr_da, ddr_size;
	int ddr_line;
	uint64_t ddr_len;		/* mapped at run time (--guest-ram) */
	/* isa = x86_64 | armv7m | rv32imac: AMPSOC_CORE_ISA_* (ABI 1.4) */
	uint32_t isa;
	int isa_line;
	/* mem_domain = NAME: the domain of its memory (ABI 1.5), or VSOC_NONE */
	uint32_t mem_domain;
	int mem_domain_line;
	char mem_domain_name[VSOC_NAME_LEN];
};

struct board_mbox {
	char name[VSOC_NAME_LEN];
	uint32_t from, to;		/* VSOC_MBOX_EP_GUEST or core index */
	uint32_t depth;
	uint32_t peer, vector;
	int line, from_line, to_line;
	char from_name[VSOC_NAME_LEN], to_name[VSOC_NAME_LEN];
	uint64_t fifo_off, fifo_size;
};

struct board {
	char name[VSOC_NAME_LEN];
	char path[256];
	uint64_t shm_size;		/* 0: computed */
	int shm_line;
	int firewall_setting;		/* [soc] firewall: -1 unset (on) */
	struct board_domain domain[VSOC_MAX_DOMAINS];
	struct board_clock clock[VSOC_MAX_CLOCKS];
	struct board_periph periph[VSOC_MAX_PERIPHS];
	struct board_core core[VSOC_MAX_CORES];
	struct board_mbox mbox[VSOC_MAX_MBOXES];
	unsigned int nr_domains, nr_clocks, nr_periphs, nr_cores, nr_mboxes;
	unsigned int nr_levels;		/* all domains' levels (ABI 1.5) */
	/* layout (board_layout) */
	uint64_t table_size;
	uint64_t telem_off, pwr_off, clk_off, echo_off, fault_off, core_ctl_off;
	uint64_t sys_end;		/* end of the model's areas */
};

/*
 * Parse a board file (text in @buf, @len bytes, @path used in messages)
 * into @b, validate it and compute the shared-memory layout. Returns 0, or
 * -1 with a message "path:line: what" in @err.
 */
int board_parse(struct board *b, const char *path, const char *buf,
		size_t len, char *err, size_t errlen);

/* board_parse() on a file. */
int board_load(struct board *b, const char *path, char *err, size_t errlen);

/*
 * Write the board table for @b into @table (at least b->table_size bytes,
 * zeroed by the caller). Returns the table size.
 */
size_t board_write_table(const struct board *b, void *table);

/* Turn every core's vring firewall on or off, whatever the file said. */
void board_force_firewall(struct board *b, bool on);

/* Name of a rule, object kind, domain state, ... for logs and tests. */
const char *vsoc_rule_name(uint32_t rule);

#endif /* _SOCMODEL_BOARD_H */
