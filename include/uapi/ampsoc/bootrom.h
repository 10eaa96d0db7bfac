/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ampsoc remote core's boot ROM: what a firmware image gets at entry.
 *
 * A remote core of the virtual SoC is a host process (ampsoc-core) that maps
 * the core's memory windows at their device addresses and calls the
 * firmware's ELF entry point as
 *
 *	void entry(const struct ampsoc_bootrom *rom);
 *
 * following the x86-64 System V calling convention (rom in %rdi). The table
 * is the firmware's only way out of its sandbox: doorbells towards Linux,
 * waiting for Linux's doorbell, a console line, time and a watchdog. The
 * firmware must leave %fs alone and give the boot-ROM calls at least
 * AMPSOC_BOOTROM_MIN_STACK bytes of stack; each call follows the same
 * calling convention as the entry.
 *
 * The table is versioned: a firmware checks magic, then version, and may use
 * any member that lies inside @size. New members are only ever appended.
 *
 * How a core ends, as the SoC model sees it (wait status of the process):
 *   - exit status 0..63: the firmware called exit() (0 is a halt, anything
 *     else a crash);
 *   - exit status 64 (EX_USAGE) or 71 (EX_OSERR): the core could not be set
 *     up (bad arguments, bad memory map); the firmware never ran;
 *   - killed by SIGALRM: the firmware's watchdog expired;
 *   - killed by SIGABRT: the firmware called abort();
 *   - killed by SIGSYS: the firmware made a forbidden system call;
 *   - killed by SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP: a fault.
 * Every signal death is a crash.
 */
#ifndef _AMPSOC_BOOTROM_H
#define _AMPSOC_BOOTROM_H

#include "types.h"

#define AMPSOC_BOOTROM_MAGIC	0x4d4f5242u	/* "BROM" little-endian */
#define AMPSOC_BOOTROM_VERSION	1u

/* Most memory windows and doorbell vectors a core can be given. */
#define AMPSOC_BOOTROM_MAX_WINDOWS	8
#define AMPSOC_BOOTROM_MAX_VECTORS	8

/* Stack the firmware must leave free for one boot-ROM call. */
#define AMPSOC_BOOTROM_MIN_STACK	8192

/* Longest console line, without its terminating newline. */
#define AMPSOC_BOOTROM_LINE_MAX		256

/* wait_irq() timeout meaning "forever". */
#define AMPSOC_BOOTROM_FOREVER		(~0ull)

/**
 * struct ampsoc_bootrom_window - one memory window of the core
 * @da: device address (where the firmware sees it)
 * @len: length in bytes
 */
struct ampsoc_bootrom_window {
	__u64 da;
	__u64 len;
};

/**
 * struct ampsoc_bootrom - the boot-ROM table
 * @magic: AMPSOC_BOOTROM_MAGIC
 * @version: AMPSOC_BOOTROM_VERSION
 * @size: sizeof(struct ampsoc_bootrom) as the runner knows it
 * @nr_windows: number of valid entries in @windows
 * @windows: the core's memory windows, sorted by device address
 * @nr_vectors: number of valid entries in @vectors
 * @vectors: the guest interrupt vectors this core may ring
 * @name: the core's name, NUL-terminated
 * @doorbell: raise guest interrupt @vector. Returns 0, or -EINVAL (-22) if
 *	the core has no doorbell for that vector, or another negative errno.
 * @wait_irq: wait until Linux rings this core or @timeout_ns passes
 *	(0 polls, AMPSOC_BOOTROM_FOREVER never times out). Returns the number
 *	of doorbells rung since the last call (>= 1), 0 on timeout, or a
 *	negative errno.
 * @console: write one console line of @len bytes (no newline needed; longer
 *	lines are cut at AMPSOC_BOOTROM_LINE_MAX, bytes outside printable
 *	ASCII are replaced). Returns 0 or a negative errno.
 * @time_ns: monotonic time in nanoseconds.
 * @watchdog: arm the watchdog to expire @timeout_ns from now, or disarm it
 *	with 0. Calling it again pets it. If it expires the core dies with
 *	SIGALRM, which the SoC model reports as a watchdog crash. Returns 0 or
 *	a negative errno.
 * @exit: stop the core normally with status @code & 63. Does not return.
 *	(The SoC model treats a non-zero status as a crash.)
 * @abort: stop the core as a crash (SIGABRT). Does not return.
 * @mbox_send: push @msg on the core's outgoing mailbox channel (towards
 *	Linux) and ring that channel's doorbell. Returns 0, -ENODEV (-19)
 *	without such a channel, -ENOSPC (-28) if it is full (the doorbell is
 *	rung anyway), -EIO (-5) if its indexes are corrupt.
 * @mbox_recv: pop one message of the core's incoming mailbox channel into
 *	*@msg. Returns 1, 0 if it is empty, -ENODEV without such a channel,
 *	-EIO if its indexes are corrupt.
 * @ddr_da: (appended) where the core sees Linux's DRAM: guest physical
 *	address 0 is at @ddr_da, and [@ddr_da, @ddr_da + @ddr_len) is also
 *	one of @windows. Linux's bus addresses of its DRAM (vring and buffer
 *	addresses mainline remoteproc and rpmsg write) are offsets in it.
 * @ddr_len: (appended) bytes of Linux's DRAM the core sees; 0 if none
 */
struct ampsoc_bootrom {
	__u32 magic;
	__u32 version;
	__u32 size;
	__u32 nr_windows;
	struct ampsoc_bootrom_window windows[AMPSOC_BOOTROM_MAX_WINDOWS];
	__u32 nr_vectors;
	__u32 vectors[AMPSOC_BOOTROM_MAX_VECTORS];
	char name[32];
	int (*doorbell)(__u32 vector);
	int (*wait_irq)(__u64 timeout_ns);
	int (*console)(const char *line, __u32 len);
	__u64 (*time_ns)(void);
	int (*watchdog)(__u64 timeout_ns);
	void (*exit)(int code);
	void (*abort)(void);
	int (*mbox_send)(__u32 msg);
	int (*mbox_recv)(__u32 *msg);
	__u64 ddr_da;
	__u64 ddr_len;
};

/*
 * Reserved mailbox words (the SoC model's, after mainline's OMAP
 * remoteproc); any other word is a payload: for rpmsg, a vring notifyid.
 */
#define AMPSOC_MBOX_MSG_READY		0xffffff00u
#define AMPSOC_MBOX_MSG_PENDING		0xffffff01u
#define AMPSOC_MBOX_MSG_CRASH		0xffffff02u
#define AMPSOC_MBOX_MSG_ECHO_REQUEST	0xffffff03u
#define AMPSOC_MBOX_MSG_ECHO_REPLY	0xffffff04u

#endif /* _AMPSOC_BOOTROM_H */
