/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ampsoc SoC model: the hardware state machine. It knows nothing about
 * sockets, processes or clocks: the caller sets the time, delivers
 * doorbells and runs due events, and the model calls back to ring a peer
 * or to start/stop a remote core. That makes every rule unit-testable.
 */
#ifndef _SOCMODEL_SOC_H
#define _SOCMODEL_SOC_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "board.h"
#include <uapi/ampsoc/core_fault.h>

#define SOC_VIOL_MAX		4096
#define SOC_TIMELINE_MAX	65536
/* Step marks a control client puts on the timeline (soc_mark()). */
#define SOC_MARKS_MAX		256
#define SOC_MARK_LEN		32	/* with the NUL */
/* Read-only ranges the model hands a core's runner (its --ro options). */
#define SOC_RO_MAX		16
#define SOC_FW_PAGE		4096ull	/* the firewall's granularity */

/* A page-aligned range of a core's device addresses, inside one memory. */
struct soc_ro {
	uint64_t da, len;
};

struct soc_ops {
	/* ring (peer, vector) */
	void (*ring)(void *ctx, unsigned int peer, unsigned int vector);
	/*
	 * start core @core at device address @entry, the @nr_ro ranges of
	 * @ro read-only (the vring firewall); 0 or -errno
	 */
	int (*core_start)(void *ctx, unsigned int core, uint64_t entry,
			  const struct soc_ro *ro, unsigned int nr_ro);
	/* hard-stop core @core (kill its process) */
	void (*core_stop)(void *ctx, unsigned int core);
};

struct soc_violation {
	uint64_t t;
	uint32_t rule, kind, idx, seq;
};

enum { TL_DOMAIN = 1, TL_CLOCK, TL_PERIPH, TL_CORE, TL_MARK };

struct soc_tl {
	uint64_t t;
	uint32_t kind, idx, state;
	uint32_t power_uw;	/* domains: power after the change */
};

struct soc_domain {
	uint32_t state;
	uint32_t acked, taken;
	bool inflight;
	uint32_t op;
	uint64_t due;			/* 0: nothing scheduled */
	uint32_t garbage_seq;
	uint32_t on_count, off_count, failed_count;
	uint64_t last_change;
	__uint128_t energy_fj;		/* microwatt-nanoseconds */
	unsigned int level;		/* index in its board levels (1.5) */
	uint32_t level_changes;
	/* faults */
	uint64_t slow_ns;
	uint32_t fail_on;		/* requests left to fail; ~0: all */
	bool stuck;
	bool synced;			/* VSOC_PWR_OP_SYNC seen (1.5) */
};

struct soc_clock {
	uint32_t state;
	uint64_t rate;
	uint32_t acked;
	uint32_t ungate_count, gate_count, rate_count;
};

struct soc_periph {
	bool busy;
	uint32_t acked;
	uint64_t due;
	uint64_t start, period;
	bool periodic;
	uint64_t count;			/* sensor samples to take */
	uint64_t total;			/* sensor samples ever */
	uint64_t src, dst, len, xform, key;
	uint32_t ops;
};

struct soc_core {
	uint32_t state;
	uint32_t acked;
	uint32_t wdt_last;
	uint64_t wdt_since, wdt_due;
	/* the firewall of the current run */
	struct soc_ro ro[SOC_RO_MAX];
	unsigned int nr_ro;
	uint32_t fw_faults;
};

struct soc {
	const struct board *b;
	uint8_t *shm;
	uint64_t shm_size;
	const struct soc_ops *ops;
	void *ctx;
	uint64_t now, last_integrated;

	struct vsoc_telemetry *telem;
	struct vsoc_req_slot *pwr, *clk;
	struct vsoc_echo *echo;
	struct vsoc_fault_ctl *fault;
	uint32_t fault_acked;

	struct soc_domain dom[VSOC_MAX_DOMAINS];
	/* per board level (1.5): energy while on at it, uW * ns */
	__uint128_t level_energy_fj[VSOC_MAX_PERF_LEVELS];
	struct soc_clock clk_st[VSOC_MAX_CLOCKS];
	struct soc_periph per[VSOC_MAX_PERIPHS];
	struct soc_core core[VSOC_MAX_CORES];

	uint32_t violations, garbage, lost_doorbells, fw_faults;
	uint32_t lost_in, lost_out;	/* doorbells still to drop */
	struct soc_violation *viol;	/* SOC_VIOL_MAX */
	struct soc_tl *tl;		/* SOC_TIMELINE_MAX */
	uint32_t nr_tl, tl_dropped;
	char mark[SOC_MARKS_MAX][SOC_MARK_LEN];	/* TL_MARK labels, by idx */
	uint32_t nr_marks;

	/* echo */
	uint32_t ping_acked;
	uint32_t rt_acked, rt_ring;
	bool rt_active;
	uint64_t rt_t0, rt_total, rt_min, rt_max;
	uint32_t rt_done, rt_count;
};

/*
 * Publish @b in @shm (zeroed, @shm_size bytes) and set the initial state.
 * The table is published only if Linux's checker accepts it. Returns 0,
 * -EINVAL (@shm_size too small), -ENOMEM, or -EPROTO (the table written
 * fails the check: one line on stderr, the table zeroed).
 */
int soc_init(struct soc *s, const struct board *b, void *shm,
	     uint64_t shm_size, const struct soc_ops *ops, void *ctx);
void soc_free(struct soc *s);

/* Advance model time to @now (ns), integrating energy. Never goes back. */
void soc_set_time(struct soc *s, uint64_t now);
/* The guest rang the model's @vector. */
void soc_doorbell(struct soc *s, unsigned int vector);
/* Run everything due at or before the current time. */
void soc_run_due(struct soc *s);
/* Earliest pending deadline, or UINT64_MAX. */
uint64_t soc_next_deadline(const struct soc *s);
/* A core's process ended without the model asking: reason VSOC_CRASH_*. */
void soc_core_exited(struct soc *s, unsigned int core, uint32_t reason,
		     uint32_t info);
/*
 * A core's process ended by signal @signo and its runner left @len bytes
 * @rec on its fault descriptor: a valid record (0) makes the crash a
 * VSOC_CRASH_FAULT with the record's reason, address and pc; anything else
 * (-1, @why set) is no record, and the crash is a plain VSOC_CRASH_SIGNAL.
 */
int soc_core_fault(struct soc *s, unsigned int core, int signo,
		   const void *rec, size_t len, const char **why);

/*
 * The vring firewall of core @core for its next run, from the regions
 * Linux wrote in its control block (read once into @regions, @count and
 * @reserved by the caller): merged, checked (each inside one memory of the
 * core, no overflow, at most VSOC_CORE_FW_REGIONS, @reserved zero) and cut
 * to the whole pages they cover. Returns 0 with the ranges in @ro (at most
 * SOC_RO_MAX), the bytes protected and those that are not whole pages, or
 * -1 with @why.
 */
int soc_firewall_plan(const struct board_core *bc, uint32_t count,
		      uint32_t reserved, const struct vsoc_fw_region *regions,
		      struct soc_ro *ro, unsigned int *nr_ro,
		      uint64_t *protected_bytes, uint64_t *unprotected_bytes,
		      const char **why);
/* Rewrite the telemetry page (done by every entry point above). */
void soc_publish(struct soc *s);

/*
 * Fault injection, "slow-on DOMAIN US", "fail-on DOMAIN [N]",
 * "stuck DOMAIN", "lost-db N [in|out]", "clear". 0 or -1 with @err.
 */
int soc_fault(struct soc *s, const char *spec, char *err, size_t errlen);
/* The same as the fault-control slot: 0 or a negative VSOC_E* value. */
int soc_fault_apply(struct soc *s, uint32_t op, uint32_t kind,
		    uint32_t target, uint64_t arg);

/* Reports for the control interface and the service's verdict. */
void soc_dump_state(const struct soc *s, FILE *f);
void soc_dump_violations(const struct soc *s, FILE *f);
void soc_dump_energy(struct soc *s, FILE *f);
void soc_dump_timeline(const struct soc *s, FILE *f);
/*
 * Put a labelled mark on the timeline at the model's current time (the
 * demo's steps). 0, or -1 with @err set for a bad or one-too-many label.
 */
int soc_mark(struct soc *s, const char *label, char *err, size_t errlen);
uint64_t soc_energy_uj(const struct soc *s, unsigned int domain);
/* Energy used while on at board level @level (ABI 1.5), microjoules. */
uint64_t soc_level_energy_uj(const struct soc *s, unsigned int level);
/* The level number @domain is at; 0 if it has no levels (ABI 1.5). */
uint32_t soc_domain_level(const struct soc *s, unsigned int domain);

const char *soc_pwr_state_name(uint32_t st);
const char *soc_core_state_name(uint32_t st);

#endif /* _SOCMODEL_SOC_H */
