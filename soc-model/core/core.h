/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ampsoc-core: what the native runner (ampsoc-core.c) shares with the
 * emulation engine (emu*.c, gdbstub.c): the parsed command line, the
 * checks and the boot-ROM services both kinds of core offer, and the
 * seccomp building blocks.
 */
#ifndef _AMPSOC_CORE_RUNNER_H
#define _AMPSOC_CORE_RUNNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <linux/filter.h>
#include <linux/seccomp.h>

#include <uapi/ampsoc/bootrom.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define EXIT_USAGE	64	/* EX_USAGE */
#define EXIT_SETUP	71	/* EX_OSERR */

/* Most --ro ranges a core can be given. */
#define CORE_MAX_RO	16

/* A window: of the shared memory, or (@ram) of Linux's DRAM (--ddr) */
struct core_map {
	uint64_t off, da, len;
	bool ram;
};

struct core_kick {
	uint32_t vector;
	int fd;
};

/* A --ro range: device addresses the core may read but not write. */
struct core_range {
	uint64_t da, len;
};

/*
 * A mailbox channel: a single-producer single-consumer FIFO of 32-bit
 * words in shared memory, laid out as struct vsoc_mbox_fifo
 * (include/uapi/ampsoc/vsoc_abi.h): head at 0, tail at 64, overflows at 68,
 * the words from 128. Our own index lives in @mine; the other side's is
 * read from shared memory and checked.
 */
#define MBOX_HEAD	0
#define MBOX_TAIL	64
#define MBOX_OVERFLOWS	68
#define MBOX_MSG	128
#define MBOX_MAX_DEPTH	256

struct core_mbox {
	uint64_t off;
	uint32_t depth;
	uint32_t vector;
	int kick_fd;
	uint8_t *fifo;
	uint32_t mine;
	bool present;
};

/* The command line, checked; see docs/firmware-sdk.md and docs/cores.md. */
struct core_config {
	const char *name;
	unsigned int isa;		/* AMPSOC_CORE_ISA_* */
	int shm_fd;
	int ram_fd;			/* --ram-fd: the guest's RAM, or -1 */
	uint64_t ram_size;
	struct core_map maps[AMPSOC_BOOTROM_MAX_WINDOWS];
	unsigned int nr_maps;
	uint64_t entry;
	bool have_entry;
	int irq_fd;
	struct core_kick kicks[AMPSOC_BOOTROM_MAX_VECTORS];
	unsigned int nr_kicks;
	int console_fd;
	struct core_mbox mbox_in, mbox_out;
	struct core_range ro[CORE_MAX_RO];
	unsigned int nr_ro;
	int fault_fd;			/* --fault-fd, or -1 */
	int gdb_fd;			/* listening socket for gdb, or -1 */
	int gdb_port;			/* --gdb PORT, or 0 */
	bool gdb_wait;			/* start halted until gdb continues */
	bool no_sandbox;
	pid_t pid, tid;
};

extern struct core_config core;

/* The file behind window @m: the shared memory or the guest's RAM. */
static inline int core_map_fd(const struct core_map *m)
{
	return m->ram ? core.ram_fd : core.shm_fd;
}

__attribute__((noreturn, format(printf, 2, 3)))
void die(int status, const char *fmt, ...);

/* Boot-ROM services, shared by the native ROM and the emulated peripheral. */
int rom_doorbell(uint32_t vector);
int rom_console(const char *line, uint32_t len);
__u64 rom_time_ns(void);
int rom_mbox_send(uint32_t msg);
int rom_mbox_recv(uint32_t *msg);
uint32_t *mbox_word(const struct core_mbox *m, unsigned int off);

/* Setup steps shared by both kinds of core. */
void check_fds(void);
void check_windows(uint64_t floor, uint64_t top, uint64_t shm_size);
void map_mbox(struct core_mbox *m, const char *what, uint64_t shm_size);
void close_other_fds(void);
void reset_signals(void);

/* seccomp: a filter is built with these, then installed. */
struct bpf_prog_buf {
	struct sock_filter insn[160];
	unsigned int n;
};

#define STMT(c, k)		((struct sock_filter)BPF_STMT(c, k))
#define JUMP(c, k, t, f)	((struct sock_filter)BPF_JUMP(c, k, t, f))
#define ALLOW			STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)
#define KILL			STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS)

void bpf_emit(struct bpf_prog_buf *b, struct sock_filter f);
void bpf_prologue(struct bpf_prog_buf *b);
void bpf_allow(struct bpf_prog_buf *b, int nr);
void bpf_allow_if_arg(struct bpf_prog_buf *b, int nr, int arg,
		      const uint32_t *vals, unsigned int n);
void bpf_install(struct bpf_prog_buf *b, unsigned int flags);

/* The emulated cores (emu.c): runs the firmware, never returns. */
__attribute__((noreturn)) void emu_main(void);

#endif /* _AMPSOC_CORE_RUNNER_H */
