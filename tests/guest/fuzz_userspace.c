// SPDX-License-Identifier: GPL-2.0
/*
 * Bounded random-syscall campaign against ampsoc's userspace interfaces:
 * /dev/rpmsg_ctrl*, /dev/rpmsg*, /dev/remoteproc*, the remoteproc and
 * rpmsg sysfs attributes, the PM domains' sysfs view and the ampsoc
 * debugfs files. Several worker threads open, close, read, write, poll
 * and ioctl random targets with random sizes, flags, bad pointers and
 * random struct rpmsg_endpoint_info; an unloader thread removes modules
 * (delete_module(O_NONBLOCK), as rmmod does) while the workers hold
 * descriptors, then reloads them with a shell command and checks that it
 * succeeds.
 *
 * Usage: fuzz_userspace [-s SEED] [-n OPS] [-t THREADS] [-u EVERY]
 *                       [-m "MOD..."] [-r RELOAD_CMD]
 *   -s  seed (printed; default: time), worker i uses SEED + i
 *   -n  total operations over all workers (default 20000)
 *   -t  worker threads (default 4)
 *   -u  try an unload every EVERY operations (default 2000, 0: never)
 *   -m  modules to unload, picked at random (in the given order of
 *       dependency the later ones are refused while earlier ones are in)
 *   -r  command run after a successful unload; must exit 0
 *
 * The kernel's verdict (no WARN, oops or hang) is the runner's; this
 * program checks what userspace can: every unload either succeeds or is
 * refused with EBUSY/EAGAIN, every reload works, a buffer the process
 * cannot access is never accepted, and no worker stops making progress.
 *
 * The main thread also reads and releases pending devcoredumps, as the
 * system's collector would: the remoteproc "inline" coredump mode makes
 * crash handling wait for that.
 *
 * Deny list, and why (these are harness controls, not parsers):
 *   - vsoc/<soc>/{ping,loopback,rt,shm_bw}, vsoc_rproc/<dev>/mbox_ping:
 *     benchmarks that run iters round trips per read (seconds under TCG);
 *     their iters bound is checked on its own by the vsoc scenarios;
 *   - ampsoc_rpmsg_lb/ctl: the loopback remote's test controls ("add",
 *     "stream" N) build remotes and traffic on request; random bytes are
 *     written to it, the dictionary words below are not.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/rpmsg.h>

#include "guest_util.h"
#include "ktap_user.h"

#ifndef RPMSG_GET_OUTGOING_FLOWCONTROL
#define RPMSG_GET_OUTGOING_FLOWCONTROL	_IOR(0xb5, 0x5, int)
#endif
#ifndef RPMSG_SET_INCOMING_FLOWCONTROL
#define RPMSG_SET_INCOMING_FLOWCONTROL	_IOR(0xb5, 0x6, int)
#endif
/* mainline's <linux/remoteproc_cdev.h>, which Debian 12 does not ship */
#define RPROC_SET_SHUTDOWN_ON_RELEASE	_IOW(0xb7, 1, int32_t)
#define RPROC_GET_SHUTDOWN_ON_RELEASE	_IOR(0xb7, 2, int32_t)

#define MAX_TARGETS	1024
#define MAX_FDS		8
#define MAX_THREADS	16
#define BUF_MAX		8192

enum kind { K_CTRL, K_EPT, K_RPROC, K_ATTR };

struct target {
	char path[200];
	enum kind kind;
	bool writable;
};

static struct target targets[MAX_TARGETS];
static unsigned int nr_targets;
static pthread_mutex_t targets_lock = PTHREAD_MUTEX_INITIALIZER;

static unsigned long long seed;
static unsigned long total_ops = 20000, unload_every = 2000;
static unsigned int nr_threads = 4;
static const char *modules = "", *reload_cmd;

static atomic_ulong ops_done;
static atomic_ulong progress[MAX_THREADS];
static atomic_bool stop;
static atomic_ulong n_ok, n_err, n_open, n_bad_ptr, n_eps;
static atomic_ulong n_bad_accepted, n_unload_ok, n_unload_busy, n_unload_bad;
static atomic_ulong n_reload_bad, n_reloads, n_dumps;
static uintptr_t bad_ptrs[5];

static const char *const deny[] = {
	"/ping", "/loopback", "/rt", "/shm_bw", "/mbox_ping",
};

static const char *const words[] = {
	"start", "stop", "detach", "enabled", "disabled", "inline", "1", "0",
	"on", "auto", "ampsoc-rpmsg-echo.elf", "rpmsg_chrdev", "", "\n",
	"add", "remove", "4294967295", "-1", "ampsoc-echo", "rpmsg-raw",
};

static const char *const ept_names[] = {
	"rpmsg-raw", "ampsoc-echo", "rpmsg_ctrl", "rpmsg_ns", "rpmsg-client-sample",
	"core-test", "",
};

static uint64_t rnd(uint64_t *s)
{
	/* xorshift64* */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static unsigned int below(uint64_t *s, unsigned int n)
{
	return n ? rnd(s) % n : 0;
}

static bool denied(const char *path)
{
	size_t len = strlen(path), i;

	for (i = 0; i < ARRAY_SIZE(deny); i++) {
		size_t d = strlen(deny[i]);

		if (len >= d && !strcmp(path + len - d, deny[i]))
			return true;
	}
	return false;
}

static void add_target(const char *path, enum kind kind, bool writable)
{
	if (nr_targets >= MAX_TARGETS || denied(path))
		return;
	snprintf(targets[nr_targets].path, sizeof(targets[0].path), "%s", path);
	targets[nr_targets].kind = kind;
	targets[nr_targets].writable = writable;
	nr_targets++;
}

/* Regular files under DIR (not following symlinks), DEPTH levels down. */
static void scan_files(const char *dir, int depth)
{
	char p[200];
	struct dirent *e;
	struct stat st;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (snprintf(p, sizeof(p), "%s/%s", dir, e->d_name) >= (int)sizeof(p))
			continue;
		if (lstat(p, &st))
			continue;
		if (S_ISREG(st.st_mode))
			add_target(p, K_ATTR, st.st_mode & 0222);
		else if (S_ISDIR(st.st_mode) && depth > 0)
			scan_files(p, depth - 1);
	}
	closedir(d);
}

/* The members of DIR (which may be symlinks to device directories). */
static void scan_devices(const char *dir)
{
	char p[200];
	struct dirent *e;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (snprintf(p, sizeof(p), "%s/%s", dir, e->d_name) >= (int)sizeof(p))
			continue;
		scan_files(p, 1);	/* the attributes and power/ */
	}
	closedir(d);
}

static void enumerate(void)
{
	static const char *const dbg[] = {
		"ampsoc_pd", "vsoc", "remoteproc", "ampsoc_rpmsg", "vsoc_rproc",
		"ampsoc_rpmsg_lb", "rpmsg",
	};
	char p[200];
	struct dirent *e;
	unsigned int i;
	DIR *d;

	pthread_mutex_lock(&targets_lock);
	nr_targets = 0;
	d = opendir("/dev");
	while (d && (e = readdir(d))) {
		if (snprintf(p, sizeof(p), "/dev/%s", e->d_name) >= (int)sizeof(p))
			continue;
		if (!strncmp(e->d_name, "rpmsg_ctrl", 10))
			add_target(p, K_CTRL, true);
		else if (!strncmp(e->d_name, "rpmsg", 5))
			add_target(p, K_EPT, true);
		else if (!strncmp(e->d_name, "remoteproc", 10))
			add_target(p, K_RPROC, true);
	}
	if (d)
		closedir(d);
	scan_devices("/sys/class/remoteproc");
	scan_devices("/sys/bus/rpmsg/devices");
	/* the PM domains' read-only sysfs view */
	scan_files("/sys/kernel/ampsoc_pd", 1);
	for (i = 0; i < ARRAY_SIZE(dbg); i++) {
		snprintf(p, sizeof(p), "/sys/kernel/debug/%s", dbg[i]);
		scan_files(p, 2);
	}
	pthread_mutex_unlock(&targets_lock);
}

struct worker {
	unsigned int id;
	pthread_t thread;
	uint64_t rs;
	int fd[MAX_FDS];
	bool raw_only[MAX_FDS];	/* the loopback's controls: no words */
	unsigned char buf[BUF_MAX + 64];
};

static void count(long ret)
{
	if (ret < 0)
		atomic_fetch_add(&n_err, 1);
	else
		atomic_fetch_add(&n_ok, 1);
}

/*
 * A buffer pointer: usually good, sometimes one the process cannot use
 * (the read-only page is bad only for the kernel to write into).
 */
static void *pick_buf(struct worker *w, bool *bad, bool kernel_writes)
{
	*bad = !below(&w->rs, 10);
	if (*bad)
		return (void *)bad_ptrs[below(&w->rs, kernel_writes ? 5 : 4)];
	return w->buf;
}

static size_t pick_len(struct worker *w)
{
	switch (below(&w->rs, 4)) {
	case 0:
		return below(&w->rs, 17);
	case 1:
		return below(&w->rs, 513);
	case 2:
		return 496 + below(&w->rs, 32);
	default:
		return below(&w->rs, BUF_MAX + 1);
	}
}

static void fill_payload(struct worker *w, size_t *len, bool words_ok)
{
	size_t i;

	if (words_ok && below(&w->rs, 3) == 0) {
		const char *s = words[below(&w->rs, ARRAY_SIZE(words))];

		*len = strlen(s);
		memcpy(w->buf, s, *len);
		if (below(&w->rs, 2))
			w->buf[(*len)++] = '\n';
		return;
	}
	*len = pick_len(w);
	for (i = 0; i < *len; i++)
		w->buf[i] = rnd(&w->rs);
}

static void fill_info(struct worker *w, struct rpmsg_endpoint_info *ei)
{
	static const uint32_t addrs[] = {
		RPMSG_ADDR_ANY, 0, 53, 0x400, 0x401, 1023, 1024, 0x3000, 0x7fffffff,
	};
	size_t i;

	if (below(&w->rs, 2)) {
		for (i = 0; i < sizeof(ei->name); i++)
			ei->name[i] = rnd(&w->rs);	/* often not terminated */
	} else {
		snprintf(ei->name, sizeof(ei->name), "%s",
			 ept_names[below(&w->rs, ARRAY_SIZE(ept_names))]);
	}
	ei->src = below(&w->rs, 2) ? addrs[below(&w->rs, 9)] : (uint32_t)rnd(&w->rs);
	ei->dst = below(&w->rs, 2) ? addrs[below(&w->rs, 9)] : (uint32_t)rnd(&w->rs);
}

static void op_open(struct worker *w)
{
	static const int acc[] = { O_RDONLY, O_WRONLY, O_RDWR };
	unsigned int slot = below(&w->rs, MAX_FDS), t;
	char path[200];
	bool wr;
	int fd, flags;

	pthread_mutex_lock(&targets_lock);
	if (!nr_targets) {
		pthread_mutex_unlock(&targets_lock);
		return;
	}
	t = below(&w->rs, nr_targets);
	memcpy(path, targets[t].path, sizeof(path));
	wr = targets[t].writable;
	pthread_mutex_unlock(&targets_lock);
	if (w->fd[slot] >= 0) {
		close(w->fd[slot]);
		w->fd[slot] = -1;
	}
	flags = acc[wr ? below(&w->rs, 3) : 0] | O_CLOEXEC;
	if (below(&w->rs, 2))
		flags |= O_NONBLOCK;
	fd = open(path, flags);
	count(fd);
	if (fd >= 0) {
		atomic_fetch_add(&n_open, 1);
		w->fd[slot] = fd;
		w->raw_only[slot] = strstr(path, "/ampsoc_rpmsg_lb/");
	}
}

static int pick_fd(struct worker *w)
{
	return w->fd[below(&w->rs, MAX_FDS)];
}

static void op_read(struct worker *w)
{
	int fd = pick_fd(w);
	size_t len = pick_len(w);
	bool bad;
	void *p = pick_buf(w, &bad, true);
	ssize_t r;

	if (fd < 0)
		return;
	if (below(&w->rs, 3) == 0)
		lseek(fd, below(&w->rs, 2) ? 0 : (off_t)rnd(&w->rs), SEEK_SET);
	r = read(fd, p, len);
	count(r);
	if (bad && len) {
		atomic_fetch_add(&n_bad_ptr, 1);
		if (r > 0) {
			atomic_fetch_add(&n_bad_accepted, 1);
			ktap_diag("read of %zu bytes into %p returned %zd", len, p, r);
		}
	}
}

static void op_write(struct worker *w)
{
	unsigned int slot = below(&w->rs, MAX_FDS);
	int fd = w->fd[slot];
	size_t len;
	bool bad;
	void *p;
	ssize_t r;

	if (fd < 0)
		return;
	fill_payload(w, &len, !w->raw_only[slot]);
	p = pick_buf(w, &bad, false);
	r = write(fd, p, len);
	count(r);
	if (bad && len) {
		atomic_fetch_add(&n_bad_ptr, 1);
		if (r > 0) {
			atomic_fetch_add(&n_bad_accepted, 1);
			ktap_diag("write of %zu bytes from %p returned %zd", len, p, r);
		}
	}
}

static void op_poll(struct worker *w)
{
	struct pollfd pfd[3];
	unsigned int i, n = 1 + below(&w->rs, 3);

	for (i = 0; i < n; i++) {
		pfd[i].fd = pick_fd(w);
		pfd[i].events = POLLIN | POLLOUT | POLLPRI;
	}
	count(poll(pfd, n, below(&w->rs, 10)));
}

static void op_ioctl(struct worker *w)
{
	static const unsigned long cmds[] = {
		RPMSG_CREATE_EPT_IOCTL, RPMSG_DESTROY_EPT_IOCTL,
		RPMSG_CREATE_DEV_IOCTL, RPMSG_RELEASE_DEV_IOCTL,
		RPMSG_GET_OUTGOING_FLOWCONTROL, RPMSG_SET_INCOMING_FLOWCONTROL,
		RPROC_SET_SHUTDOWN_ON_RELEASE, RPROC_GET_SHUTDOWN_ON_RELEASE,
	};
	struct rpmsg_endpoint_info *ei = (void *)w->buf;
	int fd = pick_fd(w), r;
	unsigned long cmd;
	bool bad;
	void *p;

	if (fd < 0)
		return;
	if (below(&w->rs, 8))
		cmd = cmds[below(&w->rs, 8)];
	else if (below(&w->rs, 2))
		cmd = 0xb500 | below(&w->rs, 16) | (below(&w->rs, 4) << 30) |
		      (below(&w->rs, 64) << 16);
	else
		cmd = (uint32_t)rnd(&w->rs);
	p = pick_buf(w, &bad, true);
	if (!bad) {
		fill_info(w, ei);
		if (cmd == RPROC_SET_SHUTDOWN_ON_RELEASE || cmd == RPMSG_SET_INCOMING_FLOWCONTROL)
			*(int32_t *)w->buf = below(&w->rs, 3) ?
				(int32_t)below(&w->rs, 2) : (int32_t)rnd(&w->rs);
	}
	/* DESTROY_EPT takes no argument; SET_INCOMING_FLOWCONTROL takes a value */
	if (cmd == RPMSG_SET_INCOMING_FLOWCONTROL && below(&w->rs, 2))
		p = (void *)(uintptr_t)below(&w->rs, 3);
	r = ioctl(fd, cmd, p);
	count(r);
	if (!r && cmd == RPMSG_CREATE_EPT_IOCTL)
		atomic_fetch_add(&n_eps, 1);
}

static void op_close(struct worker *w)
{
	unsigned int slot = below(&w->rs, MAX_FDS);

	if (w->fd[slot] >= 0) {
		count(close(w->fd[slot]));
		w->fd[slot] = -1;
	}
}

static void *worker_fn(void *arg)
{
	struct worker *w = arg;
	unsigned int i;

	for (i = 0; i < MAX_FDS; i++)
		w->fd[i] = -1;
	while (!atomic_load(&stop) && atomic_fetch_add(&ops_done, 1) < total_ops) {
		switch (below(&w->rs, 12)) {
		case 0: case 1: case 2:
			op_open(w);
			break;
		case 3:
			op_close(w);
			break;
		case 4: case 5:
			op_read(w);
			break;
		case 6: case 7: case 8:
			op_write(w);
			break;
		case 9:
			op_poll(w);
			break;
		default:
			op_ioctl(w);
			break;
		}
		atomic_fetch_add(&progress[w->id], 1);
	}
	for (i = 0; i < MAX_FDS; i++)
		if (w->fd[i] >= 0)
			close(w->fd[i]);
	return NULL;
}

/*
 * Note an unload/reload on the console too, so that a hang's console log
 * says what was going on.
 */
static void console_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void console_note(const char *fmt, ...)
{
	char buf[200];
	va_list ap;
	int fd, n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (write(fd, buf, n) < 0)
			n = 0;
		close(fd);
	}
}

static void try_unload(uint64_t *rs)
{
	char list[256], *mods[16], *save = NULL, *m;
	unsigned int n = 0;
	int r, e;

	snprintf(list, sizeof(list), "%s", modules);
	for (m = strtok_r(list, " ", &save); m && n < 16; m = strtok_r(NULL, " ", &save))
		mods[n++] = m;
	if (!n)
		return;
	m = mods[below(rs, n)];
	console_note("fuzz_userspace: unloading %s at op %lu\n", m, atomic_load(&ops_done));
	r = syscall(SYS_delete_module, m, O_NONBLOCK);
	e = errno;
	console_note("fuzz_userspace: unloading %s: %d\n", m, r ? -e : 0);
	if (!r) {
		atomic_fetch_add(&n_unload_ok, 1);
		ktap_diag("unloaded %s at op %lu", m, atomic_load(&ops_done));
		if (reload_cmd) {
			atomic_fetch_add(&n_reloads, 1);
			r = system(reload_cmd);
			console_note("fuzz_userspace: reloaded: %d\n", r);
			if (r) {
				atomic_fetch_add(&n_reload_bad, 1);
				ktap_diag("reload after %s: status %d", m, r);
			}
		}
		enumerate();
	} else if (e == EBUSY || e == EAGAIN || e == ENOENT) {
		atomic_fetch_add(&n_unload_busy, 1);
	} else {
		atomic_fetch_add(&n_unload_bad, 1);
		ktap_diag("delete_module(%s): %s", m, strerror(e));
	}
}

static atomic_ulong unloader_busy_since;	/* CLOCK_MONOTONIC s, 0: idle */

static unsigned long now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

/* Unload attempts run apart from the ticks, so a stuck one is noticed. */
static void *unloader_fn(void *arg)
{
	unsigned long next = unload_every;
	uint64_t rs = seed ^ 0x5deece66dULL;

	rnd(&rs);
	while (!atomic_load(&stop)) {
		struct timespec tick = { 0, 20 * 1000 * 1000 };
		unsigned long done = atomic_load(&ops_done);

		if (done >= total_ops)
			break;
		if (done >= next) {
			next = done + unload_every;
			atomic_store(&unloader_busy_since, now_s());
			try_unload(&rs);
			atomic_store(&unloader_busy_since, 0);
		}
		nanosleep(&tick, NULL);
	}
	return NULL;
}

/*
 * Play the part of the coredump collector (udev's, on a real system): read
 * each pending devcoredump and release it. With the remoteproc coredump
 * mode "inline", which the workers may set, crash handling waits for this.
 */
static void collect_dumps(void)
{
	static char buf[65536];
	char p[200];
	struct dirent *e;
	DIR *d = opendir("/sys/class/devcoredump");
	int fd;

	while (d && (e = readdir(d))) {
		if (strncmp(e->d_name, "devcd", 5))
			continue;
		snprintf(p, sizeof(p), "/sys/class/devcoredump/%.64s/data", e->d_name);
		fd = open(p, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		while (read(fd, buf, sizeof(buf)) > 0)
			;
		if (write(fd, "1", 1) == 1)
			atomic_fetch_add(&n_dumps, 1);
		close(fd);
	}
	if (d)
		closedir(d);
}

/*
 * Join @t, still ticking it and collecting dumps meanwhile: a thread that
 * finished its share can be the one blocked in the kernel behind crash
 * handling, which waits for an "inline" dump only this collector releases.
 * False if it has not ended after about 120 s.
 */
static bool join_collecting(pthread_t t)
{
	struct timespec until;
	unsigned int i;

	for (i = 0; i < 6000; i++) {
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 20 * 1000 * 1000;
		if (until.tv_nsec >= 1000000000) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000;
		}
		if (!pthread_timedjoin_np(t, NULL, &until))
			return true;
		pthread_kill(t, SIGUSR1);
		if (i % 50 == 49)
			collect_dumps();
	}
	return false;
}

/* A hang: show the blocked tasks' stacks on the console, and give up. */
static void hung(const char *what)
{
	int fd = open("/proc/sysrq-trigger", O_WRONLY);

	ktap_diag("%s", what);
	console_note("fuzz_userspace: %s\n", what);
	if (fd >= 0) {
		if (write(fd, "w", 1) < 0)
			ktap_diag("sysrq: %s", strerror(errno));
		close(fd);
	}
	atomic_store(&stop, true);
}

static void on_signal(int sig)
{
}

int main(int argc, char **argv)
{
	static struct worker w[MAX_THREADS];
	unsigned long last[MAX_THREADS] = {}, next_scan, stuck = 0, ticks = 0;
	struct sigaction sa = { .sa_handler = on_signal };
	struct timespec t0, t1;
	pthread_t unloader;
	unsigned int i;
	void *page;
	int c;

	seed = time(NULL);
	while ((c = getopt(argc, argv, "s:n:t:u:m:r:")) != -1) {
		switch (c) {
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'n':
			total_ops = strtoul(optarg, NULL, 0);
			break;
		case 't':
			nr_threads = strtoul(optarg, NULL, 0);
			break;
		case 'u':
			unload_every = strtoul(optarg, NULL, 0);
			break;
		case 'm':
			modules = optarg;
			break;
		case 'r':
			reload_cmd = optarg;
			break;
		default:
			fprintf(stderr, "usage: see the top of fuzz_userspace.c\n");
			return 2;
		}
	}
	if (!nr_threads || nr_threads > MAX_THREADS)
		nr_threads = 4;
	ktap_plan(5);
	ktap_diag("seed %llu ops %lu threads %u unload_every %lu modules '%s'",
		  seed, total_ops, nr_threads, unload_every, modules);

	/* The bad pointers: NULL, low, kernel, inaccessible and read-only pages. */
	/* PROT_NONE keeps the address reserved: nothing else is mapped there */
	page = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	bad_ptrs[0] = 0;
	bad_ptrs[1] = 1;
	bad_ptrs[2] = 0xffffffff81000000UL;
	bad_ptrs[3] = (uintptr_t)page;
	bad_ptrs[4] = (uintptr_t)mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	/* No SA_RESTART: the ticks below end any blocking read/write/poll. */
	sigaction(SIGUSR1, &sa, NULL);
	enumerate();
	ktap_diag("%u targets", nr_targets);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < nr_threads; i++) {
		w[i].id = i;
		w[i].rs = (seed + i) * 0x9e3779b97f4a7c15ULL | 1;
		pthread_create(&w[i].thread, NULL, worker_fn, &w[i]);
	}
	if (unload_every)
		pthread_create(&unloader, NULL, unloader_fn, NULL);
	next_scan = 500;
	for (;;) {
		struct timespec tick = { 0, 20 * 1000 * 1000 };
		unsigned long done = atomic_load(&ops_done), moved = 0, busy;

		if (done >= total_ops || atomic_load(&stop))
			break;
		nanosleep(&tick, NULL);
		for (i = 0; i < nr_threads; i++)
			pthread_kill(w[i].thread, SIGUSR1);
		if (done >= next_scan) {
			next_scan = done + 500;
			enumerate();
		}
		if (++ticks % 50 == 0)
			collect_dumps();
		for (i = 0; i < nr_threads; i++) {
			unsigned long p = atomic_load(&progress[i]);

			moved |= p != last[i];
			last[i] = p;
		}
		/* 1500 ticks: 30 s plus the work in between */
		stuck = moved ? 0 : stuck + 1;
		if (stuck > 1500) {
			hung("no worker made progress for 30 s");
			break;
		}
		busy = atomic_load(&unloader_busy_since);
		if (busy && now_s() - busy > 120) {
			hung("an unload or reload took more than 120 s");
			break;
		}
	}
	if (atomic_load(&stop)) {
		/* threads stuck in the kernel cannot be joined */
		ktap_ok(false, "workers_kept_progressing");
		return ktap_exit();
	}
	if (unload_every && !join_collecting(unloader)) {
		hung("an unload or reload did not end within 120 s");
		ktap_ok(false, "workers_kept_progressing");
		return ktap_exit();
	}
	for (i = 0; i < nr_threads; i++) {
		if (!join_collecting(w[i].thread)) {
			hung("a worker did not end within 120 s");
			ktap_ok(false, "workers_kept_progressing");
			return ktap_exit();
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);

	ktap_diag("ops %lu ok %lu err %lu opens %lu bad_ptr %lu eps_created %lu",
		  atomic_load(&ops_done) > total_ops ? total_ops : atomic_load(&ops_done),
		  atomic_load(&n_ok), atomic_load(&n_err), atomic_load(&n_open),
		  atomic_load(&n_bad_ptr), atomic_load(&n_eps));
	ktap_diag("unloads ok %lu refused %lu reloads %lu coredumps %lu time_ms %ld",
		  atomic_load(&n_unload_ok), atomic_load(&n_unload_busy),
		  atomic_load(&n_reloads), atomic_load(&n_dumps),
		  (long)((t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000));
	ktap_ok(!atomic_load(&stop), "workers_kept_progressing");
	ktap_ok(atomic_load(&ops_done) >= total_ops, "all_operations_ran");
	ktap_ok(!atomic_load(&n_bad_accepted), "bad_buffers_never_accepted");
	ktap_ok(!atomic_load(&n_unload_bad), "unload_succeeds_or_is_refused");
	ktap_ok(!atomic_load(&n_reload_bad), "reload_after_unload_works");
	return ktap_exit();
}
