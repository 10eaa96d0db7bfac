/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A program of the coverage-guided remote (docs/fuzz-remote.md): what the
 * agent sends to ampsoc-fuzz-remote's control endpoint in one message,
 * FZ_OP_SIZE bytes per operation. Shared by the firmware and the agent;
 * the fields are little-endian (every core of ampsoc is).
 */
#ifndef _FUZZ_REMOTE_PROG_H
#define _FUZZ_REMOTE_PROG_H

#define FZ_CTL_ADDR	1100	/* the firmware's control endpoint */
#define FZ_OP_SIZE	12
#define FZ_MAX_OPS	32	/* 384 bytes: one 512-byte rpmsg buffer */
#define FZ_NR_EXTRA	4	/* endpoints the EPT operation may hold */
/*
 * A program message starts with this magic: the control endpoint also gets
 * what Linux sends back to messages a program sent from its address.
 */
#define FZ_MAGIC	"FZP1"
#define FZ_MAGIC_LEN	4

enum fz_kind {
	FZ_MSG, FZ_NS, FZ_RESMGR, FZ_RING, FZ_CRASH, FZ_SLEEP, FZ_FLOOD, FZ_EPT,
	FZ_NR_KINDS
};

struct fz_op {
	uint8_t kind;
	uint8_t a;	/* per-kind switches */
	uint16_t b;	/* per-kind selector */
	uint32_t c;	/* address, seed, id */
	uint32_t d;	/* lengths, flags */
};

#endif
