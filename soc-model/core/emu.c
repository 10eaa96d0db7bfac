// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc-core: the emulated cores (ARMv7-M, RV32) on Unicorn.
 *
 * The windows of the shared memory are mapped anywhere in this process and
 * given to Unicorn at the core's device addresses (uc_mem_map_ptr), so the
 * firmware's loads and stores reach the shared memory directly; the
 * --ro ranges are mapped read/execute only. The core peripheral
 * (include/uapi/ampsoc/core_mmio.h) replaces the boot ROM. See docs/cores.md.
 *
 * Threads: the CPU thread (this one) owns Unicorn and everything below;
 * the I/O thread waits for the outside world and raises attention, which
 * the per-instruction hook turns into a stop of the emulation.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "emu.h"

struct emu emu;

/* A window as the host sees it. */
struct emu_win {
	uint64_t da, len;
	uint8_t *host;
};

static struct emu_win wins[AMPSOC_BOOTROM_MAX_WINDOWS];
static unsigned int nr_wins;
/* Linux's DRAM (--ddr), if one window is it; ddr.len 0 if none. */
static struct emu_win ddr;

/* The core peripheral's registers (CPU thread). */
static struct {
	uint64_t doorbell_in;
	uint32_t error;
	char line[AMPSOC_BOOTROM_LINE_MAX];
	uint32_t line_len;
	uint32_t time_hi;
	uint64_t timer_cmp;
	uint32_t timer_ctrl;
	uint64_t wdog_deadline;		/* 0: disarmed */
	uint64_t wdog_left;		/* while halted: what was left */
} per;

/* What the CPU thread and the I/O thread share. */
static struct {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	uint64_t events;		/* lock: bumped for every wake-up */
	uint64_t rings;			/* atomic: doorbells not yet folded */
	uint64_t deadline;		/* atomic: the earliest timer, 0 none */
	int wake_fd;			/* CPU -> I/O: look at the deadline again */
	int listen_fd;			/* gdb's listening socket, or -1 */
	int slot;			/* the fd number a gdb connection gets */
	int new_conn;			/* lock: a connection to attach, or -1 */
	bool started;			/* lock: the I/O thread runs */
	bool watch_gdb;			/* atomic: poll the gdb connection */
	bool gdb_ready;			/* atomic: it has input */
} io = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.cond = PTHREAD_COND_INITIALIZER,
	.wake_fd = -1, .listen_fd = -1, .slot = -1, .new_conn = -1,
};

uint64_t emu_now(void)
{
	return rom_time_ns();
}

void emu_attention(unsigned int bits)
{
	__atomic_fetch_or(&emu.attention, bits, __ATOMIC_RELEASE);
}

static void attention_clear(unsigned int bits)
{
	__atomic_fetch_and(&emu.attention, ~bits, __ATOMIC_RELEASE);
}

void emu_request_stop(enum emu_stop why)
{
	emu.stop = why;
	uc_emu_stop(emu.uc);
}

uint32_t emu_reg(int reg)
{
	uint32_t v = 0;

	uc_reg_read(emu.uc, reg, &v);
	return v;
}

void emu_set_reg(int reg, uint32_t v)
{
	uc_reg_write(emu.uc, reg, &v);
}

static uint8_t *da_host(uint64_t da, uint64_t len)
{
	unsigned int i;

	for (i = 0; i < nr_wins; i++)
		if (da >= wins[i].da && len <= wins[i].len &&
		    da - wins[i].da <= wins[i].len - len)
			return wins[i].host + (da - wins[i].da);
	return NULL;
}

bool emu_in_ro(uint64_t da)
{
	unsigned int i;

	for (i = 0; i < core.nr_ro; i++)
		if (da >= core.ro[i].da && da - core.ro[i].da < core.ro[i].len)
			return true;
	return false;
}

/*
 * Memory as the core sees it, for the ISAs' exception stacking and
 * instruction decoding: windows only, naturally aligned, and a write
 * obeys --ro.
 */
static bool core_mem(uint64_t da, void *buf, unsigned int len, bool write)
{
	uint8_t *p = da_host(da, len);

	if (!p || (da & (len - 1)) || (write && emu_in_ro(da)))
		return false;
	if (write)
		memcpy(p, buf, len);
	else
		memcpy(buf, p, len);
	return true;
}

bool emu_read32(uint64_t da, uint32_t *v)
{
	return core_mem(da, v, sizeof(*v), false);
}

bool emu_read16(uint64_t da, uint16_t *v)
{
	return core_mem(da, v, sizeof(*v), false);
}

bool emu_write32(uint64_t da, uint32_t v)
{
	return core_mem(da, &v, sizeof(v), true);
}

/* gdb's view: any byte of a window (--ro ranges too: a debugger may patch). */
bool emu_mem_access(uint64_t da, void *buf, uint64_t len, bool write)
{
	uint8_t *p = da_host(da, len);

	if (!p)
		return false;
	if (write) {
		memcpy(p, buf, len);
		/* Translated code of those bytes is stale now. */
		emu_uc_remove_cache(emu.uc, da, da + len);
	} else {
		memcpy(buf, p, len);
	}
	return true;
}

void emu_kick_io(void)
{
	uint64_t one = 1;

	if (write(io.wake_fd, &one, sizeof(one)) != sizeof(one))
		die(EXIT_SETUP, "cannot wake the I/O thread: %s", strerror(errno));
}

/* ---- timers ------------------------------------------------------------ */

/* The earliest future deadline of every timer; tells the I/O thread. */
static void update_deadline(void)
{
	uint64_t now = emu_now(), d = 0, t, old;

	if ((per.timer_ctrl & AMPSOC_TIMER_ENABLE) && per.timer_cmp > now)
		d = per.timer_cmp;
	t = emu.isa->deadline ? emu.isa->deadline() : 0;
	if (t && (!d || t < d))
		d = t;
	if (per.wdog_deadline && !emu.halted && (!d || per.wdog_deadline < d))
		d = per.wdog_deadline;
	/*
	 * Any change: an earlier deadline must cut the I/O thread's wait
	 * short, a later one must start a wait that may have ended (the
	 * I/O thread waits for nothing once a deadline has fired).
	 */
	old = __atomic_exchange_n(&io.deadline, d, __ATOMIC_ACQ_REL);
	if (d != old)
		emu_kick_io();
}

static void watchdog_freeze(bool halt)
{
	uint64_t now = emu_now();

	if (halt && per.wdog_deadline) {
		per.wdog_left = per.wdog_deadline > now ? per.wdog_deadline - now : 1;
		per.wdog_deadline = 0;
	} else if (!halt && per.wdog_left) {
		per.wdog_deadline = now + per.wdog_left;
		per.wdog_left = 0;
	}
}

/* ---- the core peripheral ---------------------------------------------- */

static void fold_rings(void)
{
	uint64_t n = __atomic_exchange_n(&io.rings, 0, __ATOMIC_ACQ_REL);

	per.doorbell_in += n;
}

/* Words waiting in the guest->core channel; -1 if its indexes are corrupt. */
static int64_t mbox_in_count(void)
{
	struct core_mbox *m = &core.mbox_in;
	uint32_t head, avail;

	if (!m->present)
		return 0;
	head = __atomic_load_n(mbox_word(m, MBOX_HEAD), __ATOMIC_ACQUIRE);
	avail = head - m->mine;
	return avail > m->depth ? -1 : (int64_t)avail;
}

uint32_t emu_lines(void)
{
	uint32_t lines = 0;

	fold_rings();
	if (per.doorbell_in)
		lines |= 1u << AMPSOC_IRQ_DOORBELL;
	if (mbox_in_count() > 0)
		lines |= 1u << AMPSOC_IRQ_MBOX_IN;
	if ((per.timer_ctrl & AMPSOC_TIMER_ENABLE) && emu_now() >= per.timer_cmp)
		lines |= 1u << AMPSOC_IRQ_TIMER;
	return lines;
}

static void console_flush(void)
{
	if (per.line_len)
		rom_console(per.line, per.line_len);
	per.line_len = 0;
}

/* A line ends at '\n'; what goes beyond 256 characters is dropped. */
static void console_put(char c)
{
	if (c == '\n') {
		rom_console(per.line, per.line_len);
		per.line_len = 0;
	} else if (per.line_len < sizeof(per.line)) {
		per.line[per.line_len++] = c;
	}
}

static uint32_t mbox_status(void)
{
	struct core_mbox *o = &core.mbox_out;
	uint32_t st = 0;
	int64_t n = mbox_in_count();

	if (core.mbox_in.present)
		st |= AMPSOC_MBOX_IN_PRESENT;
	if (n > 0)
		st |= AMPSOC_MBOX_IN_NOT_EMPTY;
	if (n < 0)
		st |= AMPSOC_MBOX_IN_CORRUPT;
	if (o->present) {
		uint32_t tail = __atomic_load_n(mbox_word(o, MBOX_TAIL), __ATOMIC_ACQUIRE);
		uint32_t used = o->mine - tail;

		st |= AMPSOC_MBOX_OUT_PRESENT;
		if (used > o->depth)
			st |= AMPSOC_MBOX_OUT_CORRUPT;
		else if (used == o->depth)
			st |= AMPSOC_MBOX_OUT_FULL;
	}
	return st;
}

void emu_bus_error(uint64_t addr, bool write)
{
	emu.fault = (struct emu_fault){
		.reason = AMPSOC_CORE_FAULT_UNMAPPED,
		.access = write ? AMPSOC_CORE_ACCESS_WRITE : AMPSOC_CORE_ACCESS_READ,
		.addr = addr,
		.pc = emu.pc,
		.precise = false,
	};
	emu_request_stop(STOP_FAULT);
}

static __attribute__((noreturn)) void end_exit(uint32_t code)
{
	console_flush();
	_exit(code & 63);
}

void emu_abort(void)
{
	console_flush();
	syscall(SYS_tgkill, core.pid, core.tid, SIGABRT);
	_exit(EXIT_SETUP);
}

void emu_kill(void)
{
	console_flush();
	syscall(SYS_tgkill, core.pid, core.tid, SIGKILL);
	_exit(EXIT_SETUP);
}

static uint64_t per_read(uc_engine *uc, uint64_t off, unsigned int size, void *opaque)
{
	uint64_t now;
	uint32_t v;

	if (size != 4 || (off & 3))
		goto bad;
	if (off >= AMPSOC_MMIO_NAME && off < AMPSOC_MMIO_NAME + AMPSOC_MMIO_NAME_LEN) {
		char name[AMPSOC_MMIO_NAME_LEN] = { 0 };

		strncpy(name, core.name, sizeof(name) - 1);
		memcpy(&v, name + (off - AMPSOC_MMIO_NAME), 4);
		return v;
	}
	if (off >= AMPSOC_MMIO_WINDOW_DA(0) &&
	    off < AMPSOC_MMIO_WINDOW_DA(AMPSOC_MMIO_MAX_WINDOWS)) {
		unsigned int i = (off - AMPSOC_MMIO_WINDOW_DA(0)) / 8;

		if (i >= nr_wins)
			return 0;
		return off & 4 ? wins[i].len : wins[i].da;
	}
	if (off >= AMPSOC_MMIO_VECTOR(0) && off < AMPSOC_MMIO_VECTOR(AMPSOC_MMIO_MAX_VECTORS)) {
		unsigned int i = (off - AMPSOC_MMIO_VECTOR(0)) / 4;

		return i < core.nr_kicks ? core.kicks[i].vector : 0;
	}
	switch (off) {
	case AMPSOC_MMIO_ID:
		return AMPSOC_MMIO_MAGIC;
	case AMPSOC_MMIO_VERSION:
		return AMPSOC_MMIO_VERSION_1;
	case AMPSOC_MMIO_ISA:
		return core.isa;
	case AMPSOC_MMIO_FEATURES:
		return (core.mbox_in.present ? AMPSOC_MMIO_F_MBOX_IN : 0) |
		       (core.mbox_out.present ? AMPSOC_MMIO_F_MBOX_OUT : 0) |
		       (ddr.len ? AMPSOC_MMIO_F_DDR : 0);
	case AMPSOC_MMIO_DDR_DA:
		return ddr.da;
	case AMPSOC_MMIO_DDR_LEN:
		return ddr.len;
	case AMPSOC_MMIO_NR_WINDOWS:
		return nr_wins;
	case AMPSOC_MMIO_NR_VECTORS:
		return core.nr_kicks;
	case AMPSOC_MMIO_DOORBELL_IN:
		fold_rings();
		v = per.doorbell_in > UINT32_MAX ? UINT32_MAX : per.doorbell_in;
		per.doorbell_in = 0;
		emu_attention(ATTN_IRQ);
		return v;
	case AMPSOC_MMIO_ERROR:
		return per.error;
	case AMPSOC_MMIO_TIME_LO:
		now = emu_now();
		per.time_hi = now >> 32;
		return (uint32_t)now;
	case AMPSOC_MMIO_TIME_HI:
		return per.time_hi;
	case AMPSOC_MMIO_TIMER_CMP_LO:
		return (uint32_t)per.timer_cmp;
	case AMPSOC_MMIO_TIMER_CMP_HI:
		return per.timer_cmp >> 32;
	case AMPSOC_MMIO_TIMER_CTRL:
		return per.timer_ctrl |
		       (emu_lines() & (1u << AMPSOC_IRQ_TIMER) ? AMPSOC_TIMER_EXPIRED : 0);
	case AMPSOC_MMIO_WATCHDOG:
		now = emu_now();
		if (!per.wdog_deadline || per.wdog_deadline <= now)
			return 0;
		return (per.wdog_deadline - now + 999) / 1000;
	case AMPSOC_MMIO_MBOX_STATUS:
		return mbox_status();
	case AMPSOC_MMIO_MBOX_IN:
		if (rom_mbox_recv(&v) != 1)
			v = 0;
		emu_attention(ATTN_IRQ);
		return v;
	case AMPSOC_MMIO_MBOX_IN_COUNT:
		now = mbox_in_count();
		return (int64_t)now < 0 ? 0 : now;
	}
bad:
	emu_bus_error(emu.isa->mmio_base + off, false);
	return 0;
}

static void per_write(uc_engine *uc, uint64_t off, unsigned int size, uint64_t value,
		      void *opaque)
{
	uint32_t v = value;

	if (off == AMPSOC_MMIO_CONSOLE) {
		console_put(v & 0xff);
		return;
	}
	if (size != 4 || (off & 3))
		goto bad;
	switch (off) {
	case AMPSOC_MMIO_DOORBELL_OUT:
		per.error = rom_doorbell(v);
		return;
	case AMPSOC_MMIO_TIMER_CMP_LO:
		per.timer_cmp = (per.timer_cmp & ~0xffffffffull) | v;
		break;
	case AMPSOC_MMIO_TIMER_CMP_HI:
		per.timer_cmp = (per.timer_cmp & 0xffffffffull) | (uint64_t)v << 32;
		break;
	case AMPSOC_MMIO_TIMER_CTRL:
		per.timer_ctrl = v & AMPSOC_TIMER_ENABLE;
		break;
	case AMPSOC_MMIO_WATCHDOG:
		per.wdog_deadline = v ? emu_now() + (uint64_t)v * 1000 : 0;
		per.error = 0;
		break;
	case AMPSOC_MMIO_EXIT:
		end_exit(v);
	case AMPSOC_MMIO_ABORT:
		emu_abort();
	case AMPSOC_MMIO_FAULT:
		if (emu.in_fault_handler && emu.isa->fault_active())
			emu_die(&emu.handled);
		emu_abort();
	case AMPSOC_MMIO_MBOX_OUT:
		per.error = rom_mbox_send(v);
		return;
	default:
		goto bad;
	}
	/* A timer changed: its line, and the I/O thread's deadline. */
	update_deadline();
	emu_attention(ATTN_IRQ);
	return;
bad:
	emu_bus_error(emu.isa->mmio_base + off, true);
}

void emu_map_mmio(uint64_t base, uint64_t size, uc_cb_mmio_read_t rd,
		  uc_cb_mmio_write_t wr)
{
	uc_err err = uc_mmio_map(emu.uc, base, size, rd, NULL, wr, NULL);

	if (err)
		die(EXIT_SETUP, "cannot map device registers at %#llx: %s",
		    (unsigned long long)base, uc_strerror(err));
}

/* ---- ending the core --------------------------------------------------- */

int emu_fault_signal(uint32_t reason)
{
	switch (reason) {
	case AMPSOC_CORE_FAULT_ILLEGAL:
		return SIGILL;
	case AMPSOC_CORE_FAULT_MISALIGNED:
		return SIGBUS;
	case AMPSOC_CORE_FAULT_BREAKPOINT:
		return SIGTRAP;
	case AMPSOC_CORE_FAULT_WATCHDOG:
		return SIGALRM;
	default:
		return SIGSEGV;
	}
}

void emu_capture_regs(struct emu_fault *f)
{
	unsigned int i;

	for (i = 0; i < emu.isa->nr_g_regs && i < AMPSOC_CORE_FAULT_MAX_REGS; i++)
		f->regs[i] = emu.isa->get_reg(i);
	f->nr_regs = i;
}

void emu_die(const struct emu_fault *f)
{
	struct ampsoc_core_fault rec = {
		.magic = AMPSOC_CORE_FAULT_MAGIC,
		.size = sizeof(rec),
		.reason = f->reason,
		.isa = core.isa,
		.signo = emu_fault_signal(f->reason),
		.access = f->access,
		.addr = f->addr,
		.pc = f->pc,
	};
	unsigned int i;

	/* A double fault ends with the signal of the fault in the handler. */
	if (f->reason == AMPSOC_CORE_FAULT_DOUBLE && emu.fault.reason &&
	    emu.fault.reason != AMPSOC_CORE_FAULT_DOUBLE)
		rec.signo = emu_fault_signal(emu.fault.reason);
	for (i = 0; i < emu.isa->nr_g_regs && i < AMPSOC_CORE_FAULT_MAX_REGS; i++)
		rec.regs[i] = f->nr_regs ? f->regs[i] : emu.isa->get_reg(i);
	rec.nr_regs = i;
	console_flush();
	if (core.fault_fd >= 0 && write(core.fault_fd, &rec, sizeof(rec)) != sizeof(rec))
		fprintf(stderr, "ampsoc-core: %s: cannot write the fault record\n", core.name);
	syscall(SYS_tgkill, core.pid, core.tid, rec.signo);
	_exit(EXIT_SETUP);
}

void emu_fatal(const struct emu_fault *f)
{
	/* With gdb attached, the fault is shown first; continuing ends the core. */
	if (gdb_conn() >= 0) {
		emu.fault = *f;
		emu_halt(emu_fault_signal(f->reason));
		gdb_serve();
	}
	emu_die(f);
}

void emu_halt(int sig)
{
	if (!emu.halted) {
		emu.halted = true;
		watchdog_freeze(true);
		update_deadline();
	}
	gdb_stopped(sig);
}

/* ---- hooks ------------------------------------------------------------- */

static void insn_slow(uint64_t addr)
{
	unsigned int a = __atomic_load_n(&emu.attention, __ATOMIC_ACQUIRE);
	bool first = emu.first_insn;

	emu.first_insn = false;
	if (a & ATTN_STEP) {
		/* One instruction, with interrupts held: then stop. */
		if (!first)
			emu_request_stop(STOP_STEP);
		return;
	}
	if ((a & ATTN_BREAK) && !first && gdb_breakpoint_at(addr)) {
		emu_request_stop(STOP_BREAK);
		return;
	}
	if (a & (ATTN_EXT | ATTN_IRQ)) {
		emu_request_stop(STOP_ATTN);
		return;
	}
	if ((a & ATTN_POLL) && emu.isa->masked_pending && !emu.isa->masked_pending())
		emu_request_stop(STOP_ATTN);
}

static void on_insn(uc_engine *uc, uint64_t addr, uint32_t size, void *opaque)
{
	emu.pc = addr;
	if (__builtin_expect(__atomic_load_n(&emu.attention, __ATOMIC_RELAXED), 0))
		insn_slow(addr);
}

static void on_intr(uc_engine *uc, uint32_t intno, void *opaque)
{
	emu.intno = intno;
	emu_request_stop(STOP_ARCH);
}

static bool on_bad_access(uc_engine *uc, uc_mem_type type, uint64_t addr, int size,
			  int64_t value, void *opaque)
{
	switch (type) {
	case UC_MEM_WRITE_UNMAPPED:
	case UC_MEM_WRITE_PROT:
		emu.bad_access = AMPSOC_CORE_ACCESS_WRITE;
		break;
	case UC_MEM_FETCH_UNMAPPED:
	case UC_MEM_FETCH_PROT:
		emu.bad_access = AMPSOC_CORE_ACCESS_FETCH;
		break;
	default:
		emu.bad_access = AMPSOC_CORE_ACCESS_READ;
	}
	emu.bad_addr = addr;
	/* A store that missed lets its instruction finish: remember it now. */
	emu.bad_pc = emu.pc;
	return false;
}

bool emu_mem_fault(uc_err err, struct emu_fault *f)
{
	*f = (struct emu_fault){
		.access = emu.bad_access,
		.addr = emu.bad_addr,
		.pc = emu.bad_pc,
		.precise = true,
	};
	switch (err) {
	case UC_ERR_READ_UNMAPPED:
	case UC_ERR_WRITE_UNMAPPED:
	case UC_ERR_FETCH_UNMAPPED:
		f->reason = AMPSOC_CORE_FAULT_UNMAPPED;
		break;
	case UC_ERR_WRITE_PROT:
		f->reason = emu_in_ro(f->addr) ? AMPSOC_CORE_FAULT_FIREWALL :
						 AMPSOC_CORE_FAULT_PROT;
		break;
	case UC_ERR_READ_PROT:
	case UC_ERR_FETCH_PROT:
		f->reason = AMPSOC_CORE_FAULT_PROT;
		break;
	default:
		return false;
	}
	/* A fetch faults at its own address; a store after its instruction. */
	if (f->access == AMPSOC_CORE_ACCESS_FETCH)
		f->pc = f->addr;
	else if (f->access == AMPSOC_CORE_ACCESS_WRITE)
		f->precise = false;
	return true;
}

/* ---- the I/O thread ---------------------------------------------------- */

static void io_event(void)
{
	emu_attention(ATTN_EXT);
	pthread_mutex_lock(&io.lock);
	io.events++;
	pthread_cond_broadcast(&io.cond);
	pthread_mutex_unlock(&io.lock);
}

/* gdb connects: one debugger at a time, known to the sandbox by io.slot. */
static bool io_accept(void)
{
	int fd = accept4(io.listen_fd, NULL, NULL, SOCK_CLOEXEC);
	bool taken = false;

	if (fd < 0)
		return false;
	pthread_mutex_lock(&io.lock);
	if (io.new_conn >= 0 || gdb_conn() >= 0) {
		close(fd);
	} else {
		if (fd != io.slot) {
			if (dup3(fd, io.slot, O_CLOEXEC) < 0)
				die(EXIT_SETUP, "dup3: %s", strerror(errno));
			close(fd);
		}
		io.new_conn = io.slot;
		taken = true;
	}
	pthread_mutex_unlock(&io.lock);
	return taken;
}

static void *io_thread(void *arg)
{
	uint64_t fired = 0;

	/* The C library's thread setup (rseq) is done: the sandbox may come. */
	pthread_mutex_lock(&io.lock);
	io.started = true;
	pthread_cond_broadcast(&io.cond);
	pthread_mutex_unlock(&io.lock);

	for (;;) {
		struct pollfd pfd[4];
		struct timespec ts, *tsp = NULL;
		uint64_t d = __atomic_load_n(&io.deadline, __ATOMIC_ACQUIRE), now, v;
		int conn = gdb_conn(), n = 0, i_irq, i_wake, i_listen = -1, i_conn = -1;
		bool ev = false;

		pfd[i_irq = n++] = (struct pollfd){ .fd = core.irq_fd, .events = POLLIN };
		pfd[i_wake = n++] = (struct pollfd){ .fd = io.wake_fd, .events = POLLIN };
		if (io.listen_fd >= 0)
			pfd[i_listen = n++] = (struct pollfd){ .fd = io.listen_fd,
							       .events = POLLIN };
		if (conn >= 0 && __atomic_load_n(&io.watch_gdb, __ATOMIC_ACQUIRE))
			pfd[i_conn = n++] = (struct pollfd){ .fd = conn, .events = POLLIN };
		now = emu_now();
		if (d && d != fired) {
			uint64_t left = d > now ? d - now : 0;

			ts.tv_sec = left / 1000000000ull;
			ts.tv_nsec = left % 1000000000ull;
			tsp = &ts;
		}
		if (ppoll(pfd, n, tsp, NULL) < 0 && errno != EINTR)
			die(EXIT_SETUP, "ppoll: %s", strerror(errno));
		if (pfd[i_irq].revents & POLLIN) {
			if (read(core.irq_fd, &v, sizeof(v)) == sizeof(v)) {
				__atomic_fetch_add(&io.rings, v, __ATOMIC_ACQ_REL);
				ev = true;
			}
		} else if (pfd[i_irq].revents & (POLLERR | POLLNVAL)) {
			die(EXIT_SETUP, "the irq eventfd failed");
		}
		if ((pfd[i_wake].revents & POLLIN) &&
		    read(io.wake_fd, &v, sizeof(v)) != sizeof(v))
			die(EXIT_SETUP, "wake eventfd: %s", strerror(errno));
		if (i_listen >= 0 && (pfd[i_listen].revents & POLLIN))
			ev |= io_accept();
		if (i_conn >= 0 && pfd[i_conn].revents) {
			__atomic_store_n(&io.watch_gdb, false, __ATOMIC_RELEASE);
			__atomic_store_n(&io.gdb_ready, true, __ATOMIC_RELEASE);
			ev = true;
		}
		if (d && d != fired && emu_now() >= d) {
			fired = d;
			ev = true;
		}
		if (ev)
			io_event();
	}
	return NULL;
}

static uint64_t io_events(void)
{
	uint64_t e;

	pthread_mutex_lock(&io.lock);
	e = io.events;
	pthread_mutex_unlock(&io.lock);
	return e;
}

/* Sleep until the I/O thread has something newer than @seen. */
static void io_wait(uint64_t seen)
{
	pthread_mutex_lock(&io.lock);
	while (io.events == seen)
		pthread_cond_wait(&io.cond, &io.lock);
	pthread_mutex_unlock(&io.lock);
}

/* Let the I/O thread watch gdb's connection again (the core runs). */
static void io_watch_gdb(void)
{
	if (gdb_conn() >= 0 && !__atomic_exchange_n(&io.watch_gdb, true, __ATOMIC_ACQ_REL))
		emu_kick_io();
}

/* ---- the CPU loop ------------------------------------------------------ */

/* What the I/O thread brought: a debugger, its input, expired timers. */
static void service(void)
{
	int fd;

	pthread_mutex_lock(&io.lock);
	fd = io.new_conn;
	io.new_conn = -1;
	pthread_mutex_unlock(&io.lock);
	if (fd >= 0) {
		gdb_attach(fd);
		emu_halt(SIGTRAP);
	}
	if (__atomic_exchange_n(&io.gdb_ready, false, __ATOMIC_ACQ_REL)) {
		gdb_input();
		if (!emu.halted)
			io_watch_gdb();
	}
	if (per.wdog_deadline && !emu.halted && emu_now() >= per.wdog_deadline) {
		struct emu_fault f = {
			.reason = AMPSOC_CORE_FAULT_WATCHDOG,
			.pc = emu.isa->resume_pc() & ~1ull,
		};

		emu.fault = f;
		emu_fatal(&f);
	}
	update_deadline();
}

static void resume_from_halt(void)
{
	emu.halted = false;
	watchdog_freeze(false);
	update_deadline();
	io_watch_gdb();
}

static void run(void)
{
	for (;;) {
		uint64_t seen = io_events(), pc;
		unsigned int keep;
		uc_err err;

		attention_clear(ATTN_EXT | ATTN_IRQ | ATTN_POLL);
		service();
		if (emu.halted) {
			if (gdb_conn() < 0) {
				/* --gdb-wait: nobody to resume us yet. */
				io_wait(seen);
				continue;
			}
			gdb_serve();
			if (!emu.halted)
				resume_from_halt();
			continue;
		}
		if (!gdb_stepping()) {
			emu.isa->deliver_irqs();
			if (emu.sleeping) {
				if (!emu.isa->wake_pending()) {
					/* the timers as they are now, not as at service() */
					update_deadline();
					io_wait(seen);
					continue;
				}
				emu.sleeping = false;
			}
			if (emu.isa->masked_pending())
				emu_attention(ATTN_POLL);
		}
		keep = gdb_stepping() ? ATTN_STEP : 0;
		if (gdb_has_breakpoints())
			keep |= ATTN_BREAK;
		attention_clear(ATTN_STEP | ATTN_BREAK);
		emu_attention(keep);
		emu.stop = STOP_NONE;
		emu.first_insn = true;
		emu.bad_addr = 0;
		emu.bad_access = AMPSOC_CORE_ACCESS_NONE;
		pc = emu.isa->resume_pc();
		err = uc_emu_start(emu.uc, pc, emu.isa->stop_addr, 0, 0);
		if (err) {
			emu.isa->error(err);
			if (gdb_stepping() && !emu.halted)
				emu_halt(SIGTRAP);
			continue;
		}
		switch (emu.stop) {
		case STOP_NONE:
			pc = emu.isa->resume_pc();
			if (emu.isa->after_wfi(pc & ~1ull) && !gdb_stepping())
				emu.sleeping = true;
			break;
		case STOP_ATTN:
			break;
		case STOP_STEP:
		case STOP_BREAK:
			emu_halt(SIGTRAP);
			break;
		case STOP_FAULT:
			emu.isa->fault(&emu.fault);
			break;
		case STOP_ARCH:
			emu.isa->intr(emu.intno);
			break;
		}
		/* Whatever ended it, a step is one. */
		if (gdb_stepping() && !emu.halted)
			emu_halt(SIGTRAP);
	}
}

/* ---- setup ------------------------------------------------------------- */

static void check_ranges(void)
{
	unsigned int i, j;

	for (i = 0; i < core.nr_maps; i++) {
		const struct core_map *m = &core.maps[i];

		for (j = 0; j < emu.isa->nr_reserved; j++)
			if (m->da < emu.isa->reserved[j][1] &&
			    emu.isa->reserved[j][0] < m->da + m->len)
				die(EXIT_USAGE,
				    "window %#llx+%#llx overlaps the core's devices at %#llx",
				    (unsigned long long)m->da, (unsigned long long)m->len,
				    (unsigned long long)emu.isa->reserved[j][0]);
	}
	for (i = 0; i < core.nr_ro; i++) {
		const struct core_range *r = &core.ro[i];
		bool inside = false;

		if (!r->len || ((r->da | r->len) & 0xfff) || r->da + r->len < r->da)
			die(EXIT_USAGE, "--ro %#llx:%#llx is empty or not page aligned",
			    (unsigned long long)r->da, (unsigned long long)r->len);
		for (j = 0; j < core.nr_maps; j++)
			if (r->da >= core.maps[j].da &&
			    r->da + r->len <= core.maps[j].da + core.maps[j].len)
				inside = true;
		if (!inside)
			die(EXIT_USAGE, "--ro %#llx:%#llx is not inside one window",
			    (unsigned long long)r->da, (unsigned long long)r->len);
		for (j = 0; j < i; j++)
			if (r->da < core.ro[j].da + core.ro[j].len &&
			    core.ro[j].da < r->da + r->len)
				die(EXIT_USAGE, "--ro ranges at %#llx and %#llx overlap",
				    (unsigned long long)core.ro[j].da,
				    (unsigned long long)r->da);
	}
}

static void uc_map(uint64_t da, uint64_t len, uint32_t perms, uint8_t *host)
{
	uc_err err;

	if (!len)
		return;
	err = uc_mem_map_ptr(emu.uc, da, len, perms, host);
	if (err)
		die(EXIT_SETUP, "cannot give %#llx+%#llx to the core: %s",
		    (unsigned long long)da, (unsigned long long)len, uc_strerror(err));
}

/* One window: read/write/execute, but its --ro ranges read/execute. */
static void map_window(const struct emu_win *w)
{
	uint64_t at = w->da, end = w->da + w->len;

	while (at < end) {
		uint64_t next = end, ro_end = 0;
		unsigned int i;

		for (i = 0; i < core.nr_ro; i++) {
			const struct core_range *r = &core.ro[i];

			if (r->da == at)
				ro_end = r->da + r->len;
			else if (r->da > at && r->da < next)
				next = r->da;
		}
		if (ro_end) {
			uc_map(at, ro_end - at, UC_PROT_READ | UC_PROT_EXEC,
			       w->host + (at - w->da));
			at = ro_end;
		} else {
			uc_map(at, next - at, UC_PROT_ALL, w->host + (at - w->da));
			at = next;
		}
	}
}

static void map_windows_emu(uint64_t shm_size)
{
	unsigned int i;

	check_windows(0, 1ull << 32, shm_size);
	check_ranges();
	for (i = 0; i < core.nr_maps; i++) {
		const struct core_map *m = &core.maps[i];
		void *p = mmap(NULL, m->len, PROT_READ | PROT_WRITE, MAP_SHARED,
			       core_map_fd(m), m->off);

		if (p == MAP_FAILED)
			die(EXIT_SETUP, "cannot map window %#llx+%#llx: %s",
			    (unsigned long long)m->da, (unsigned long long)m->len,
			    strerror(errno));
		wins[i] = (struct emu_win){ .da = m->da, .len = m->len, .host = p };
		if (m->ram)
			ddr = wins[i];
	}
	nr_wins = core.nr_maps;
}

static void open_gdb(void)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(core.gdb_port),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	int one = 1, fd;
	socklen_t len = sizeof(one);

	if (core.gdb_fd >= 0) {
		if (getsockopt(core.gdb_fd, SOL_SOCKET, SO_ACCEPTCONN, &one, &len) || !one)
			die(EXIT_USAGE, "--gdb-fd %d is not a listening socket", core.gdb_fd);
		io.listen_fd = core.gdb_fd;
		return;
	}
	if (!core.gdb_port)
		return;
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, (struct sockaddr *)&sin, sizeof(sin)) || listen(fd, 1))
		die(EXIT_SETUP, "cannot listen for gdb on 127.0.0.1:%d: %s",
		    core.gdb_port, strerror(errno));
	io.listen_fd = fd;
}

/*
 * Only what the engine was seen to need once the firmware runs (strace of
 * every unit test of the emulated cores): reading and writing its own
 * descriptors, waiting (ppoll, the threads' futexes), time (vDSO, else
 * clock_gettime), memory for the C library's and Unicorn's allocations
 * (brk, mmap and munmap, never executable: the translation buffer exists
 * already), taking and dropping gdb's connection, and ending with a
 * signal or an exit. Anything else kills the core with SIGSYS.
 */
static void sandbox_emu(void)
{
	static struct bpf_prog_buf b;
	uint32_t rfds[3], wfds[AMPSOC_BOOTROM_MAX_VECTORS + 5];
	uint32_t sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGALRM, SIGABRT, SIGKILL };
	unsigned int i, nr = 0, nw = 0;

	rfds[nr++] = core.irq_fd;
	rfds[nr++] = io.wake_fd;
	for (i = 0; i < core.nr_kicks; i++)
		wfds[nw++] = core.kicks[i].fd;
	wfds[nw++] = core.console_fd;
	wfds[nw++] = io.wake_fd;
	wfds[nw++] = STDERR_FILENO;
	if (core.fault_fd >= 0)
		wfds[nw++] = core.fault_fd;
	bpf_prologue(&b);
	if (io.listen_fd >= 0) {
		uint32_t lfd = io.listen_fd, slot = io.slot;

		rfds[nr++] = io.slot;
		wfds[nw++] = io.slot;
		bpf_allow_if_arg(&b, SYS_accept4, 0, &lfd, 1);
		bpf_allow_if_arg(&b, SYS_dup3, 1, &slot, 1);
		bpf_allow(&b, SYS_close);
	}
	bpf_allow_if_arg(&b, SYS_read, 0, rfds, nr);
	bpf_allow_if_arg(&b, SYS_write, 0, wfds, nw);
	bpf_allow_if_arg(&b, SYS_tgkill, 2, sigs, ARRAY_SIZE(sigs));
	/* Unicorn's and the C library's allocations: never executable. */
	bpf_emit(&b, JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_mmap, 0, 4));
	bpf_emit(&b, STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[2])));
	bpf_emit(&b, JUMP(BPF_JMP | BPF_JSET | BPF_K, PROT_EXEC, 0, 1));
	bpf_emit(&b, KILL);
	bpf_emit(&b, ALLOW);
	bpf_emit(&b, STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)));
	bpf_allow(&b, SYS_munmap);
	bpf_allow(&b, SYS_brk);
	bpf_allow(&b, SYS_futex);
	bpf_allow(&b, SYS_ppoll);
	bpf_allow(&b, SYS_clock_gettime);
	bpf_allow(&b, SYS_restart_syscall);
	bpf_allow(&b, SYS_exit_group);
	bpf_install(&b, SECCOMP_FILTER_FLAG_TSYNC);
}

static const struct emu_isa *isa_of(unsigned int isa)
{
	switch (isa) {
	case AMPSOC_CORE_ISA_ARMV7M:
		return &emu_isa_armv7m;
	case AMPSOC_CORE_ISA_RV32IMAC:
		return &emu_isa_rv32;
	}
	die(EXIT_USAGE, "instruction set %u cannot be emulated", isa);
}

void emu_main(void)
{
	uc_hook h;
	uc_err err;
	pthread_t tid;
	sigset_t all, old;
	struct stat st;
	int fl;

	emu.isa = isa_of(core.isa);
	if (core.entry >> 32)
		die(EXIT_USAGE, "entry %#llx is not a 32-bit address",
		    (unsigned long long)core.entry);
	check_fds();
	if (core.fault_fd >= 0) {
		fl = fcntl(core.fault_fd, F_GETFL);
		if (fl < 0 || (fl & O_ACCMODE) == O_RDONLY)
			die(EXIT_USAGE, "--fault-fd %d is not writable", core.fault_fd);
	}
	if (fstat(core.shm_fd, &st) || st.st_size <= 0)
		die(EXIT_USAGE, "--shm-fd %d has no size", core.shm_fd);
	map_windows_emu(st.st_size);
	map_mbox(&core.mbox_in, "incoming", st.st_size);
	map_mbox(&core.mbox_out, "outgoing", st.st_size);
	core.pid = getpid();
	core.tid = gettid();

	fflush(NULL);
	close_other_fds();
	core.shm_fd = -1;
	open_gdb();
	io.wake_fd = eventfd(0, EFD_CLOEXEC);
	/* A number for gdb's connection, held by a placeholder until then. */
	if (io.listen_fd >= 0)
		io.slot = eventfd(0, EFD_CLOEXEC);
	if (io.wake_fd < 0 || (io.listen_fd >= 0 && io.slot < 0))
		die(EXIT_SETUP, "eventfd: %s", strerror(errno));

	emu_load_unicorn();
	err = uc_open(emu.isa->arch, emu.isa->mode, &emu.uc);
	if (!err)
		err = emu_uc_set_cpu_model(emu.uc, emu.isa->cpu_model);
	if (err)
		die(EXIT_SETUP, "cannot create the %s CPU: %s", emu.isa->name,
		    uc_strerror(err));
	for (unsigned int i = 0; i < nr_wins; i++)
		map_window(&wins[i]);
	emu_map_mmio(emu.isa->mmio_base, AMPSOC_CORE_MMIO_SIZE, per_read, per_write);
	if (uc_hook_add(emu.uc, &h, UC_HOOK_CODE, on_insn, NULL, 1, 0) ||
	    uc_hook_add(emu.uc, &h, UC_HOOK_INTR, on_intr, NULL, 1, 0) ||
	    uc_hook_add(emu.uc, &h, UC_HOOK_MEM_UNMAPPED | UC_HOOK_MEM_PROT,
			on_bad_access, NULL, 1, 0))
		die(EXIT_SETUP, "cannot hook the CPU");
	emu.isa->init(core.entry);
	gdb_init();

	/* The I/O thread takes no signal: they are all for this thread. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if (pthread_create(&tid, NULL, io_thread, NULL))
		die(EXIT_SETUP, "cannot start the I/O thread");
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_mutex_lock(&io.lock);
	while (!io.started)
		pthread_cond_wait(&io.cond, &io.lock);
	pthread_mutex_unlock(&io.lock);
	reset_signals();
	if (!core.no_sandbox)
		sandbox_emu();
	if (core.gdb_wait)
		emu_halt(SIGTRAP);
	update_deadline();
	run();
	_exit(EXIT_SETUP);
}
