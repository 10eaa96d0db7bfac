// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc-core: one remote core of the virtual SoC.
 *
 * The SoC model forks this program when Linux powers a core on:
 *
 *   ampsoc-core --name NAME --shm-fd FD --map SHM_OFF:DA:LEN [--map ...]
 *               --entry DA --irq-fd FD [--kick-fd VECTOR:FD ...]
 *               --console-fd FD [--mbox-in SHM_OFF:DEPTH]
 *               [--mbox-out SHM_OFF:DEPTH:VECTOR] [--no-sandbox]
 *               [--isa x86_64|armv7m|rv32imac] [--ro DA:LEN ...]
 *               [--fault-fd FD] [--gdb PORT | --gdb-fd FD] [--gdb-wait]
 *               [--ram-fd FD --ddr DA:LEN]
 *
 * It maps each window of the shared memory at its device address, checks
 * that nothing else of this process lives there, drops everything the
 * firmware does not need (file descriptors, privileges, system calls) and
 * calls the entry point that Linux's remoteproc loaded, handing it the boot
 * ROM (include/uapi/ampsoc/bootrom.h). The firmware is untrusted: it can only
 * fault, which kills this process with a signal the model reports as a
 * crash. Stopping the core is the model's SIGKILL.
 *
 * That is the native x86-64 core. A core of another instruction set
 * (--isa) is emulated instead, by emu.c on Unicorn (docs/cores.md); both
 * share the command line, the checks and the boot-ROM services below.
 *
 * The vring firewall: each --ro range (page-aligned, inside one window) is
 * made read-only before the firmware runs. A write there ends the core
 * with SIGSEGV like any bad access, but first one struct ampsoc_core_fault
 * (include/uapi/ampsoc/core_fault.h, reason FIREWALL) goes to --fault-fd in a
 * single write(), so the model can tell Linux why.
 *
 * Linux's DRAM: with --ram-fd (the guest's RAM, a file QEMU shares) and
 * --ddr, the first LEN bytes of it (guest physical address 0 on) are one
 * more window, at DA, and the boot ROM says where (ddr_da, ddr_len): the
 * memory mainline Linux allocates vrings and rpmsg buffers from.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/ucontext.h>
#include <time.h>
#include <unistd.h>

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include <uapi/ampsoc/bootrom.h>
#include <uapi/ampsoc/core_fault.h>

#include "core.h"

/* Highest user address on x86-64 with 4-level paging. */
#define USER_TOP	0x00007ffffffff000ull

/* The vring firewall works on whole 4 KiB pages. */
#define CORE_FW_PAGE	4096ull

struct core_config core = {
	.isa = AMPSOC_CORE_ISA_X86_64,
	.shm_fd = -1, .ram_fd = -1, .irq_fd = -1, .console_fd = -1, .fault_fd = -1,
	.gdb_fd = -1,
};

void die(int status, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "ampsoc-core: %s: ", core.name ? core.name : "?");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(status);
}

/* ---- the boot ROM ------------------------------------------------------ */

int rom_doorbell(uint32_t vector)
{
	uint64_t one = 1;
	unsigned int i;

	for (i = 0; i < core.nr_kicks; i++) {
		if (core.kicks[i].vector != vector)
			continue;
		if (write(core.kicks[i].fd, &one, sizeof(one)) != sizeof(one))
			return -errno;
		return 0;
	}
	return -EINVAL;
}

static int rom_wait_irq(__u64 timeout_ns)
{
	struct pollfd pfd = { .fd = core.irq_fd, .events = POLLIN };
	struct timespec ts, *tsp = NULL;
	uint64_t count;
	int ret;

	if (timeout_ns != AMPSOC_BOOTROM_FOREVER) {
		ts.tv_sec = timeout_ns / 1000000000ull;
		ts.tv_nsec = timeout_ns % 1000000000ull;
		tsp = &ts;
	}
	ret = ppoll(&pfd, 1, tsp, NULL);
	if (ret < 0)
		return errno == EINTR ? 0 : -errno;
	if (ret == 0)
		return 0;
	if (pfd.revents & POLLNVAL)
		return -EBADF;
	if (read(core.irq_fd, &count, sizeof(count)) != sizeof(count))
		return errno == EAGAIN ? 0 : -errno;
	return count > INT_MAX ? INT_MAX : (int)count;
}

int rom_console(const char *line, uint32_t len)
{
	char buf[AMPSOC_BOOTROM_LINE_MAX + 1];
	uint32_t i;

	/* Never look past what will be printed, whatever @len claims. */
	if (len > AMPSOC_BOOTROM_LINE_MAX + 1)
		len = AMPSOC_BOOTROM_LINE_MAX + 1;
	if (len && line[len - 1] == '\n')
		len--;
	if (len > AMPSOC_BOOTROM_LINE_MAX)
		len = AMPSOC_BOOTROM_LINE_MAX;
	for (i = 0; i < len; i++) {
		unsigned char c = line[i];

		buf[i] = (c >= 0x20 && c < 0x7f) || c == '\t' ? c : '?';
	}
	buf[len] = '\n';
	if (write(core.console_fd, buf, len + 1) != (ssize_t)len + 1)
		return errno ? -errno : -EIO;
	return 0;
}

__u64 rom_time_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static int rom_watchdog(__u64 timeout_ns)
{
	struct itimerval it = { 0 };

	if (timeout_ns) {
		uint64_t us = (timeout_ns + 999) / 1000;

		if (us / 1000000 > INT_MAX)
			return -EINVAL;
		it.it_value.tv_sec = us / 1000000;
		it.it_value.tv_usec = us % 1000000;
	}
	if (setitimer(ITIMER_REAL, &it, NULL))
		return -errno;
	return 0;
}

uint32_t *mbox_word(const struct core_mbox *m, unsigned int off)
{
	return (uint32_t *)(m->fifo + off);
}

int rom_mbox_send(uint32_t msg)
{
	struct core_mbox *m = &core.mbox_out;
	uint64_t one = 1;
	uint32_t tail, used;
	int ret = 0;

	if (!m->present)
		return -ENODEV;
	tail = __atomic_load_n(mbox_word(m, MBOX_TAIL), __ATOMIC_ACQUIRE);
	used = m->mine - tail;
	if (used > m->depth)
		return -EIO;
	if (used == m->depth) {
		__atomic_fetch_add(mbox_word(m, MBOX_OVERFLOWS), 1, __ATOMIC_RELAXED);
		ret = -ENOSPC;
	} else {
		*mbox_word(m, MBOX_MSG + 4 * (m->mine & (m->depth - 1))) = msg;
		m->mine++;
		__atomic_store_n(mbox_word(m, MBOX_HEAD), m->mine, __ATOMIC_RELEASE);
	}
	if (write(m->kick_fd, &one, sizeof(one)) != sizeof(one) && !ret)
		ret = -errno;
	return ret;
}

int rom_mbox_recv(uint32_t *msg)
{
	struct core_mbox *m = &core.mbox_in;
	uint32_t head, avail;

	if (!m->present)
		return -ENODEV;
	head = __atomic_load_n(mbox_word(m, MBOX_HEAD), __ATOMIC_ACQUIRE);
	avail = head - m->mine;
	if (avail > m->depth)
		return -EIO;
	if (!avail)
		return 0;
	*msg = *mbox_word(m, MBOX_MSG + 4 * (m->mine & (m->depth - 1)));
	m->mine++;
	__atomic_store_n(mbox_word(m, MBOX_TAIL), m->mine, __ATOMIC_RELEASE);
	return 1;
}

static void rom_exit(int code)
{
	_exit(code & 63);
}

static void rom_abort(void)
{
	syscall(SYS_tgkill, core.pid, core.tid, SIGABRT);
	/* Not reached: SIGABRT is unblocked and has its default action. */
	__builtin_trap();
}

static struct ampsoc_bootrom rom = {
	.magic = AMPSOC_BOOTROM_MAGIC,
	.version = AMPSOC_BOOTROM_VERSION,
	.size = sizeof(struct ampsoc_bootrom),
	.doorbell = rom_doorbell,
	.wait_irq = rom_wait_irq,
	.console = rom_console,
	.time_ns = rom_time_ns,
	.watchdog = rom_watchdog,
	.exit = rom_exit,
	.abort = rom_abort,
	.mbox_send = rom_mbox_send,
	.mbox_recv = rom_mbox_recv,
};

/* ---- arguments --------------------------------------------------------- */

static bool parse_u64(const char *s, uint64_t *v, char **end)
{
	char *e;

	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return false;
	errno = 0;
	*v = strtoull(s, &e, 0);
	if (errno || e == s)
		return false;
	if (end)
		*end = e;
	else if (*e)
		return false;
	return true;
}

static int parse_fd(const char *s, const char *what)
{
	uint64_t v;

	if (!parse_u64(s, &v, NULL) || v > INT_MAX)
		die(EXIT_USAGE, "bad %s '%s'", what, s);
	if (fcntl((int)v, F_GETFD) < 0)
		die(EXIT_USAGE, "%s %d is not open", what, (int)v);
	return (int)v;
}

static void parse_map(const char *s)
{
	struct core_map *m;
	char *e;

	if (core.nr_maps == AMPSOC_BOOTROM_MAX_WINDOWS)
		die(EXIT_USAGE, "more than %d --map windows",
		    AMPSOC_BOOTROM_MAX_WINDOWS);
	m = &core.maps[core.nr_maps];
	if (!parse_u64(s, &m->off, &e) || *e != ':' ||
	    !parse_u64(e + 1, &m->da, &e) || *e != ':' ||
	    !parse_u64(e + 1, &m->len, NULL))
		die(EXIT_USAGE, "bad --map '%s' (want SHM_OFF:DA:LEN)", s);
	m->ram = false;
	core.nr_maps++;
}

/* --ddr DA:LEN: guest RAM [0, LEN) at DA */
static void parse_ddr(const char *s)
{
	struct core_map *m;
	char *e;

	if (core.nr_maps == AMPSOC_BOOTROM_MAX_WINDOWS)
		die(EXIT_USAGE, "more than %d windows with --ddr",
		    AMPSOC_BOOTROM_MAX_WINDOWS);
	for (unsigned int i = 0; i < core.nr_maps; i++)
		if (core.maps[i].ram)
			die(EXIT_USAGE, "more than one --ddr");
	m = &core.maps[core.nr_maps];
	m->off = 0;
	m->ram = true;
	if (!parse_u64(s, &m->da, &e) || *e != ':' ||
	    !parse_u64(e + 1, &m->len, NULL))
		die(EXIT_USAGE, "bad --ddr '%s' (want DA:LEN)", s);
	core.nr_maps++;
}

static void parse_kick(const char *s)
{
	struct core_kick *k;
	uint64_t vector;
	char *e;
	unsigned int i;

	if (core.nr_kicks == AMPSOC_BOOTROM_MAX_VECTORS)
		die(EXIT_USAGE, "more than %d --kick-fd", AMPSOC_BOOTROM_MAX_VECTORS);
	if (!parse_u64(s, &vector, &e) || *e != ':' || vector > UINT32_MAX)
		die(EXIT_USAGE, "bad --kick-fd '%s' (want VECTOR:FD)", s);
	for (i = 0; i < core.nr_kicks; i++)
		if (core.kicks[i].vector == vector)
			die(EXIT_USAGE, "vector %u given twice", (unsigned int)vector);
	k = &core.kicks[core.nr_kicks++];
	k->vector = vector;
	k->fd = parse_fd(e + 1, "--kick-fd");
}

static void parse_mbox(const char *s, struct core_mbox *m, bool out)
{
	uint64_t depth, vector = 0;
	char *e;

	if (m->present)
		die(EXIT_USAGE, "mailbox channel given twice");
	if (!parse_u64(s, &m->off, &e) || *e != ':' ||
	    !parse_u64(e + 1, &depth, out ? &e : NULL) ||
	    (out && (*e != ':' || !parse_u64(e + 1, &vector, NULL))))
		die(EXIT_USAGE, "bad mailbox '%s' (want SHM_OFF:DEPTH%s)", s,
		    out ? ":VECTOR" : "");
	if (depth < 2 || depth > MBOX_MAX_DEPTH || (depth & (depth - 1)) ||
	    (m->off & 63) || vector > UINT32_MAX)
		die(EXIT_USAGE, "bad mailbox '%s': depth a power of two in 2..%d, 64-byte offset",
		    s, MBOX_MAX_DEPTH);
	m->depth = depth;
	m->vector = vector;
	m->present = true;
}

static void parse_ro(const char *s)
{
	struct core_range *r;
	char *e;

	if (core.nr_ro == CORE_MAX_RO)
		die(EXIT_USAGE, "more than %d --ro ranges", CORE_MAX_RO);
	r = &core.ro[core.nr_ro++];
	if (!parse_u64(s, &r->da, &e) || *e != ':' || !parse_u64(e + 1, &r->len, NULL))
		die(EXIT_USAGE, "bad --ro '%s' (want DA:LEN)", s);
}

static void parse_isa(const char *s)
{
	static const struct {
		const char *name;
		unsigned int isa;
	} isas[] = {
		{ "x86_64", AMPSOC_CORE_ISA_X86_64 },
		{ "armv7m", AMPSOC_CORE_ISA_ARMV7M },
		{ "rv32imac", AMPSOC_CORE_ISA_RV32IMAC },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(isas); i++) {
		if (!strcmp(s, isas[i].name)) {
			core.isa = isas[i].isa;
			return;
		}
	}
	die(EXIT_USAGE, "unknown --isa '%s' (x86_64, armv7m or rv32imac)", s);
}

static void print_usage(void)
{
	fprintf(stderr,
		"usage: ampsoc-core --name NAME --shm-fd FD --map SHM_OFF:DA:LEN...\n"
		"                   --entry DA --irq-fd FD [--kick-fd VECTOR:FD...]\n"
		"                   --console-fd FD [--mbox-in SHM_OFF:DEPTH]\n"
		"                   [--mbox-out SHM_OFF:DEPTH:VECTOR] [--no-sandbox]\n"
		"                   [--isa x86_64|armv7m|rv32imac] [--ro DA:LEN...]\n"
		"                   [--fault-fd FD] [--gdb PORT | --gdb-fd FD] [--gdb-wait]\n"
		"                   [--ram-fd FD --ddr DA:LEN]\n");
	exit(EXIT_USAGE);
}

static void parse_args(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "name", required_argument, NULL, 'n' },
		{ "shm-fd", required_argument, NULL, 's' },
		{ "map", required_argument, NULL, 'm' },
		{ "entry", required_argument, NULL, 'e' },
		{ "irq-fd", required_argument, NULL, 'i' },
		{ "kick-fd", required_argument, NULL, 'k' },
		{ "console-fd", required_argument, NULL, 'c' },
		{ "mbox-in", required_argument, NULL, 'I' },
		{ "mbox-out", required_argument, NULL, 'O' },
		{ "no-sandbox", no_argument, NULL, 'S' },
		{ "isa", required_argument, NULL, 'a' },
		{ "ro", required_argument, NULL, 'r' },
		{ "fault-fd", required_argument, NULL, 'f' },
		{ "gdb", required_argument, NULL, 'g' },
		{ "gdb-fd", required_argument, NULL, 'G' },
		{ "gdb-wait", no_argument, NULL, 'W' },
		{ "ram-fd", required_argument, NULL, 'R' },
		{ "ddr", required_argument, NULL, 'D' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t port;
	int opt;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'n':
			core.name = optarg;
			break;
		case 's':
			core.shm_fd = parse_fd(optarg, "--shm-fd");
			break;
		case 'm':
			parse_map(optarg);
			break;
		case 'e':
			if (!parse_u64(optarg, &core.entry, NULL))
				die(EXIT_USAGE, "bad --entry '%s'", optarg);
			core.have_entry = true;
			break;
		case 'i':
			core.irq_fd = parse_fd(optarg, "--irq-fd");
			break;
		case 'k':
			parse_kick(optarg);
			break;
		case 'c':
			core.console_fd = parse_fd(optarg, "--console-fd");
			break;
		case 'I':
			parse_mbox(optarg, &core.mbox_in, false);
			break;
		case 'O':
			parse_mbox(optarg, &core.mbox_out, true);
			break;
		case 'S':
			core.no_sandbox = true;
			break;
		case 'a':
			parse_isa(optarg);
			break;
		case 'r':
			parse_ro(optarg);
			break;
		case 'f':
			core.fault_fd = parse_fd(optarg, "--fault-fd");
			break;
		case 'g':
			if (!parse_u64(optarg, &port, NULL) || !port || port > 65535)
				die(EXIT_USAGE, "bad --gdb port '%s'", optarg);
			core.gdb_port = port;
			break;
		case 'G':
			core.gdb_fd = parse_fd(optarg, "--gdb-fd");
			break;
		case 'W':
			core.gdb_wait = true;
			break;
		case 'R':
			core.ram_fd = parse_fd(optarg, "--ram-fd");
			break;
		case 'D':
			parse_ddr(optarg);
			break;
		default:
			print_usage();
		}
	}
	if (optind != argc)
		print_usage();
	if (!core.name || !*core.name || strlen(core.name) >= sizeof(rom.name))
		die(EXIT_USAGE, "--name missing or longer than %zu bytes",
		    sizeof(rom.name) - 1);
	if (core.shm_fd < 0 || !core.nr_maps || !core.have_entry ||
	    core.irq_fd < 0 || core.console_fd < 0)
		print_usage();
	if (core.gdb_port && core.gdb_fd >= 0)
		die(EXIT_USAGE, "--gdb and --gdb-fd are exclusive");
	for (unsigned int i = 0; i < core.nr_maps; i++)
		if (core.maps[i].ram && core.ram_fd < 0)
			die(EXIT_USAGE, "--ddr needs --ram-fd");
	if (core.ram_fd >= 0) {
		struct stat st;

		if (fstat(core.ram_fd, &st) || st.st_size <= 0)
			die(EXIT_USAGE, "--ram-fd %d has no size", core.ram_fd);
		core.ram_size = st.st_size;
	}
	if (core.gdb_wait && !core.gdb_port && core.gdb_fd < 0)
		die(EXIT_USAGE, "--gdb-wait needs --gdb or --gdb-fd");
	if (core.isa == AMPSOC_CORE_ISA_X86_64 && (core.gdb_port || core.gdb_fd >= 0))
		die(EXIT_USAGE, "--gdb needs an emulated core (--isa)");
}

/* ---- checks ------------------------------------------------------------ */

static bool is_eventfd(int fd)
{
	char path[64], link[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0)
		return false;
	link[n] = 0;
	return strcmp(link, "anon_inode:[eventfd]") == 0;
}

void check_fds(void)
{
	unsigned int i;
	int fl;

	if (!is_eventfd(core.irq_fd))
		die(EXIT_USAGE, "--irq-fd %d is not an eventfd", core.irq_fd);
	for (i = 0; i < core.nr_kicks; i++)
		if (!is_eventfd(core.kicks[i].fd))
			die(EXIT_USAGE, "--kick-fd %u:%d is not an eventfd",
			    core.kicks[i].vector, core.kicks[i].fd);
	fl = fcntl(core.console_fd, F_GETFL);
	if (fl < 0 || (fl & O_ACCMODE) == O_RDONLY)
		die(EXIT_USAGE, "--console-fd %d is not writable", core.console_fd);
}

static uint64_t mmap_floor(void)
{
	unsigned long long v = 65536;
	FILE *f = fopen("/proc/sys/vm/mmap_min_addr", "r");

	if (f) {
		if (fscanf(f, "%llu", &v) != 1)
			v = 65536;
		fclose(f);
	}
	return v;
}

static int cmp_map(const void *a, const void *b)
{
	const struct core_map *x = a, *y = b;

	return x->da < y->da ? -1 : x->da > y->da;
}

/* Return the first mapping of this process that meets [da, da + len). */
static bool find_collision(uint64_t da, uint64_t len, char *what, size_t size)
{
	unsigned long long lo, hi;
	char line[512];
	bool hit = false;
	FILE *f;

	f = fopen("/proc/self/maps", "r");
	if (!f)
		die(EXIT_SETUP, "cannot read /proc/self/maps: %s", strerror(errno));
	while (!hit && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx-%llx", &lo, &hi) != 2)
			continue;
		if (lo < da + len && da < hi) {
			line[strcspn(line, "\n")] = 0;
			snprintf(what, size, "%s", line);
			hit = true;
		}
	}
	fclose(f);
	return hit;
}

/*
 * Every window page aligned, not empty, inside the shared memory and inside
 * [@floor, @top); no two windows overlapping; the entry inside one. Sorts
 * the windows by device address.
 */
void check_windows(uint64_t floor, uint64_t top, uint64_t shm_size)
{
	uint64_t page = sysconf(_SC_PAGESIZE);
	bool entry_ok = false;
	unsigned int i;

	for (i = 0; i < core.nr_maps; i++) {
		struct core_map *m = &core.maps[i];

		if ((m->off | m->da | m->len) & (page - 1))
			die(EXIT_USAGE, "window %#llx:%#llx:%#llx is not page aligned",
			    (unsigned long long)m->off, (unsigned long long)m->da,
			    (unsigned long long)m->len);
		if (!m->len)
			die(EXIT_USAGE, "window at %#llx is empty",
			    (unsigned long long)m->da);
		if (m->ram && m->len > core.ram_size)
			die(EXIT_USAGE, "ddr window %#llx+%#llx is beyond the %llu-byte guest RAM",
			    (unsigned long long)m->da, (unsigned long long)m->len,
			    (unsigned long long)core.ram_size);
		if (!m->ram &&
		    (m->off + m->len < m->off || m->off + m->len > shm_size))
			die(EXIT_USAGE, "shm window %#llx+%#llx is beyond the %llu-byte shm",
			    (unsigned long long)m->off, (unsigned long long)m->len,
			    (unsigned long long)shm_size);
		if (m->da < floor || m->da + m->len < m->da || m->da + m->len > top)
			die(EXIT_USAGE, "window %#llx+%#llx is outside the mappable address space",
			    (unsigned long long)m->da, (unsigned long long)m->len);
		if (core.entry >= m->da && core.entry - m->da < m->len)
			entry_ok = true;
	}
	qsort(core.maps, core.nr_maps, sizeof(core.maps[0]), cmp_map);
	for (i = 1; i < core.nr_maps; i++)
		if (core.maps[i].da < core.maps[i - 1].da + core.maps[i - 1].len)
			die(EXIT_USAGE, "windows at %#llx and %#llx overlap",
			    (unsigned long long)core.maps[i - 1].da,
			    (unsigned long long)core.maps[i].da);
	if (!entry_ok)
		die(EXIT_USAGE, "entry %#llx is in no window",
		    (unsigned long long)core.entry);
}

static void map_windows(void)
{
	char what[512];
	struct stat st;
	unsigned int i;

	if (fstat(core.shm_fd, &st) || st.st_size <= 0)
		die(EXIT_USAGE, "--shm-fd %d has no size", core.shm_fd);
	check_windows(mmap_floor(), USER_TOP, st.st_size);
	for (i = 0; i < core.nr_maps; i++) {
		struct core_map *m = &core.maps[i];
		void *p;

		if (find_collision(m->da, m->len, what, sizeof(what)))
			die(EXIT_SETUP, "window %#llx+%#llx collides with this process: %s",
			    (unsigned long long)m->da, (unsigned long long)m->len, what);
		/* NOREPLACE closes the race with anything mapped since. */
		p = mmap((void *)(uintptr_t)m->da, m->len,
			 PROT_READ | PROT_WRITE | PROT_EXEC,
			 MAP_SHARED | MAP_FIXED_NOREPLACE, core_map_fd(m), m->off);
		if (p == MAP_FAILED)
			die(EXIT_SETUP, "cannot map window %#llx+%#llx: %s",
			    (unsigned long long)m->da, (unsigned long long)m->len,
			    strerror(errno));
		if (p != (void *)(uintptr_t)m->da)
			die(EXIT_SETUP, "window %#llx landed at %p",
			    (unsigned long long)m->da, p);
		rom.windows[i].da = m->da;
		rom.windows[i].len = m->len;
		if (m->ram) {
			rom.ddr_da = m->da;
			rom.ddr_len = m->len;
		}
	}
	rom.nr_windows = core.nr_maps;
}

/* Map a mailbox FIFO anywhere (the firmware reaches it through the ROM). */
void map_mbox(struct core_mbox *m, const char *what, uint64_t shm_size)
{
	uint64_t page = sysconf(_SC_PAGESIZE), start, len, size;
	uint8_t *p;
	unsigned int i;

	if (!m->present)
		return;
	size = MBOX_MSG + 4ull * m->depth;
	if (m->off + size < m->off || m->off + size > shm_size)
		die(EXIT_USAGE, "%s mailbox at %#llx is outside the shared memory",
		    what, (unsigned long long)m->off);
	for (i = 0; i < core.nr_maps; i++)
		if (!core.maps[i].ram &&
		    m->off < core.maps[i].off + core.maps[i].len &&
		    core.maps[i].off < m->off + size)
			die(EXIT_USAGE, "%s mailbox at %#llx overlaps a memory window",
			    what, (unsigned long long)m->off);
	start = m->off & ~(page - 1);
	len = (m->off + size - start + page - 1) & ~(page - 1);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, core.shm_fd, start);
	if (p == MAP_FAILED)
		die(EXIT_SETUP, "cannot map the %s mailbox: %s", what, strerror(errno));
	m->fifo = p + (m->off - start);
	/* Our index carries on from where the last run of the core left it. */
	m->mine = *mbox_word(m, m == &core.mbox_in ? MBOX_TAIL : MBOX_HEAD);
	m->kick_fd = -1;
	for (i = 0; i < core.nr_kicks; i++)
		if (core.kicks[i].vector == m->vector)
			m->kick_fd = core.kicks[i].fd;
	if (m == &core.mbox_out && m->kick_fd < 0)
		die(EXIT_USAGE, "outgoing mailbox vector %u has no --kick-fd", m->vector);
}

/* ---- sandbox ----------------------------------------------------------- */

#define ARG_LO(n)	(offsetof(struct seccomp_data, args[n]))

void bpf_emit(struct bpf_prog_buf *b, struct sock_filter f)
{
	if (b->n == ARRAY_SIZE(b->insn))
		die(EXIT_SETUP, "seccomp filter too long");
	b->insn[b->n++] = f;
}

/* x86-64 system calls only (x32 is refused); leaves the number loaded. */
void bpf_prologue(struct bpf_prog_buf *b)
{
	bpf_emit(b, STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)));
	bpf_emit(b, JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0));
	bpf_emit(b, KILL);
	bpf_emit(b, STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)));
	bpf_emit(b, JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1));	/* x32 */
	bpf_emit(b, KILL);
}

/* Allow syscall @nr when its argument @arg (low 32 bits) is one of @vals. */
void bpf_allow_if_arg(struct bpf_prog_buf *b, int nr, int arg,
		      const uint32_t *vals, unsigned int n)
{
	unsigned int i;

	bpf_emit(b, JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, n + 3));
	bpf_emit(b, STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LO(arg)));
	for (i = 0; i < n; i++)
		bpf_emit(b, JUMP(BPF_JMP | BPF_JEQ | BPF_K, vals[i], n - i, 0));
	bpf_emit(b, KILL);
	bpf_emit(b, ALLOW);
	/* Not this syscall: reload the number for the next test. */
	bpf_emit(b, STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)));
}

void bpf_allow(struct bpf_prog_buf *b, int nr)
{
	bpf_emit(b, JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 1));
	bpf_emit(b, ALLOW);
}

/* End the filter (anything not allowed is killed) and install it. */
void bpf_install(struct bpf_prog_buf *b, unsigned int flags)
{
	struct sock_fprog prog;

	bpf_emit(b, KILL);
	prog.len = b->n;
	prog.filter = b->insn;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		die(EXIT_SETUP, "no_new_privs: %s", strerror(errno));
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog))
		die(EXIT_SETUP, "seccomp: %s", strerror(errno));
}

/*
 * What the boot ROM needs and nothing else: reading the irq eventfd, writing
 * the doorbells, the console and the fault record, waiting, time, the
 * watchdog timer, abort and exit. Anything else kills the core with SIGSYS.
 */
static void sandbox(void)
{
	static struct bpf_prog_buf b;
	uint32_t fds[AMPSOC_BOOTROM_MAX_VECTORS + 2];
	uint32_t itimer = ITIMER_REAL, sigs[] = { SIGABRT, SIGSEGV };
	unsigned int i, n = 0;

	bpf_prologue(&b);
	bpf_allow_if_arg(&b, SYS_read, 0, (uint32_t *)&core.irq_fd, 1);
	for (i = 0; i < core.nr_kicks; i++)
		fds[n++] = core.kicks[i].fd;
	fds[n++] = core.console_fd;
	/* the firewall's fault record */
	if (core.fault_fd >= 0)
		fds[n++] = core.fault_fd;
	bpf_allow_if_arg(&b, SYS_write, 0, fds, n);
	bpf_allow_if_arg(&b, SYS_setitimer, 0, &itimer, 1);
	/* abort(), and the firewall handler passing on a sent SIGSEGV */
	bpf_allow_if_arg(&b, SYS_tgkill, 2, sigs, ARRAY_SIZE(sigs));
	bpf_allow(&b, SYS_ppoll);
	bpf_allow(&b, SYS_clock_gettime);
	bpf_allow(&b, SYS_restart_syscall);
	bpf_allow(&b, SYS_rt_sigreturn);
	bpf_allow(&b, SYS_exit);
	bpf_allow(&b, SYS_exit_group);
	bpf_install(&b, 0);
}

static bool keep_fd(unsigned int fd)
{
	unsigned int i;

	if (fd == STDERR_FILENO || fd == (unsigned int)core.irq_fd ||
	    fd == (unsigned int)core.console_fd ||
	    fd == (unsigned int)core.fault_fd || fd == (unsigned int)core.gdb_fd)
		return true;
	for (i = 0; i < core.nr_kicks; i++)
		if (fd == (unsigned int)core.kicks[i].fd)
			return true;
	return false;
}

/* Close every descriptor the firmware has no business with. */
void close_other_fds(void)
{
	unsigned int fd, start = 0;

	for (fd = 0; fd < 1024; fd++) {
		if (keep_fd(fd)) {
			if (fd > start)
				close_range(start, fd - 1, 0);
			start = fd + 1;
		}
	}
	close_range(start, ~0u, 0);
}

void reset_signals(void)
{
	static const int sigs[] = {
		SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT, SIGALRM, SIGSYS,
	};
	struct rlimit nocore = { 0, 0 };
	sigset_t all;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sigs); i++)
		signal(sigs[i], SIG_DFL);
	/* A console reader that went away is an error, not a crash. */
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	setrlimit(RLIMIT_CORE, &nocore);
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}

/* ---- the vring firewall ------------------------------------------------ */

/*
 * SIGSEGV, run on its own stack once (SA_RESETHAND): a write into a --ro
 * range is reported on --fault-fd, then every SIGSEGV ends the core as it
 * always did: a fault happens again when the instruction is retried, a
 * signal someone sent is sent again.
 */
static void firewall_fault(int sig, siginfo_t *si, void *uctx)
{
	const greg_t *g = ((const ucontext_t *)uctx)->uc_mcontext.gregs;
	static const int order[] = {
		REG_RAX, REG_RBX, REG_RCX, REG_RDX, REG_RSI, REG_RDI, REG_RBP,
		REG_RSP, REG_R8, REG_R9, REG_R10, REG_R11, REG_R12, REG_R13,
		REG_R14, REG_R15, REG_RIP, REG_EFL,
	};
	uint64_t addr = (uintptr_t)si->si_addr, err = g[REG_ERR];
	struct ampsoc_core_fault f = {
		.magic = AMPSOC_CORE_FAULT_MAGIC,
		.size = sizeof(f),
		.reason = AMPSOC_CORE_FAULT_FIREWALL,
		.isa = AMPSOC_CORE_ISA_X86_64,
		.signo = SIGSEGV,
		.addr = addr,
		.pc = g[REG_RIP],
		.nr_regs = ARRAY_SIZE(order),
	};
	unsigned int i;
	bool hit = false;

	for (i = 0; i < core.nr_ro; i++)
		if (addr - core.ro[i].da < core.ro[i].len)
			hit = true;
	if (si->si_code == SEGV_ACCERR && hit && core.fault_fd >= 0) {
		/* x86 page-fault error code: bit 1 write, bit 4 fetch */
		f.access = err & 0x10 ? AMPSOC_CORE_ACCESS_FETCH :
			   err & 0x2 ? AMPSOC_CORE_ACCESS_WRITE :
			   AMPSOC_CORE_ACCESS_READ;
		for (i = 0; i < ARRAY_SIZE(order); i++)
			f.regs[i] = g[order[i]];
		if (write(core.fault_fd, &f, sizeof(f)) != sizeof(f))
			f.magic = 0;	/* nothing else to do about it */
	}
	if (si->si_code <= 0)
		syscall(SYS_tgkill, core.pid, core.tid, sig);
}

/*
 * Check each --ro range (whole 4 KiB pages inside one window), make it
 * read-only (the firmware may still read and execute it) and install the
 * handler that reports writes there. Nothing to do without --ro.
 */
static void firewall_setup(void)
{
	struct sigaction sa = { .sa_sigaction = firewall_fault };
	stack_t ss = { .ss_size = 1 << 16 };
	unsigned int i, j;

	for (i = 0; i < core.nr_ro; i++) {
		const struct core_range *r = &core.ro[i];

		if (!r->len || ((r->da | r->len) & (CORE_FW_PAGE - 1)))
			die(EXIT_USAGE, "--ro %#llx:%#llx is not whole pages",
			    (unsigned long long)r->da, (unsigned long long)r->len);
		for (j = 0; j < core.nr_maps; j++)
			if (r->da >= core.maps[j].da &&
			    r->da - core.maps[j].da < core.maps[j].len &&
			    r->len <= core.maps[j].len - (r->da - core.maps[j].da))
				break;
		if (j == core.nr_maps)
			die(EXIT_USAGE, "--ro %#llx:%#llx is not inside one window",
			    (unsigned long long)r->da, (unsigned long long)r->len);
		if (mprotect((void *)(uintptr_t)r->da, r->len,
			     PROT_READ | PROT_EXEC))
			die(EXIT_SETUP, "cannot protect %#llx:%#llx: %s",
			    (unsigned long long)r->da, (unsigned long long)r->len,
			    strerror(errno));
	}
	if (!core.nr_ro)
		return;
	ss.ss_sp = mmap(NULL, ss.ss_size, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ss.ss_sp == MAP_FAILED || sigaltstack(&ss, NULL))
		die(EXIT_SETUP, "no signal stack: %s", strerror(errno));
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, NULL))
		die(EXIT_SETUP, "sigaction: %s", strerror(errno));
}

int main(int argc, char **argv)
{
	void (*entry)(const struct ampsoc_bootrom *rom);
	unsigned int i;

	parse_args(argc, argv);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL))
		die(EXIT_SETUP, "pdeathsig: %s", strerror(errno));
	if (core.isa != AMPSOC_CORE_ISA_X86_64)
		emu_main();
	check_fds();
	map_windows();
	{
		struct stat st;

		fstat(core.shm_fd, &st);
		map_mbox(&core.mbox_in, "incoming", st.st_size);
		map_mbox(&core.mbox_out, "outgoing", st.st_size);
	}

	snprintf(rom.name, sizeof(rom.name), "%s", core.name);
	for (i = 0; i < core.nr_kicks; i++)
		rom.vectors[i] = core.kicks[i].vector;
	rom.nr_vectors = core.nr_kicks;
	core.pid = getpid();
	core.tid = gettid();

	fflush(NULL);
	close_other_fds();
	core.shm_fd = -1;
	reset_signals();
	firewall_setup();
	if (!core.no_sandbox)
		sandbox();

	entry = (void *)(uintptr_t)core.entry;
	entry(&rom);
	/* A firmware whose entry returns has halted with status 0. */
	_exit(0);
}
