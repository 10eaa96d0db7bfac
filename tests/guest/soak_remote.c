// SPDX-License-Identifier: GPL-2.0
/*
 * The remote lifecycle campaign: boot, traffic, crash with userspace
 * endpoints open, recovery, traffic, stop with an endpoint open, over and
 * over on one remote core running ampsoc-rpmsg-echo. One process does every
 * cycle (no fork per cycle, so that the slab count is not blurred by it).
 *
 * Per cycle: "start" on the processor's sysfs state; the echo channel
 * appears; an endpoint is created through /dev/rpmsg_ctrlN and a thread
 * streams checked echoes through /dev/rpmsgN; a crash is reported through
 * remoteproc's debugfs "crash" while the thread is in the middle of it; the
 * thread must end with an error (not hang) within 20 s; the channel comes
 * back (a new sysfs node) and a new endpoint echoes again; "stop" with that
 * endpoint still open, which must then fail; the processor is offline.
 *
 * Before the measured cycles, warm-up cycles fill first-use caches; the
 * active slab objects (caches shrunk) and vmalloc areas are counted after
 * them and at the end.
 *
 * Usage: soak_remote RPROC_SYSFS_DIR RPROC_DEBUGFS_DIR CYCLES WARMUP SEED
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <linux/rpmsg.h>

#include "guest_util.h"
#include "ktap_user.h"

static const char *rproc, *rdbg;
static unsigned long long rng;
static char why[300];

static unsigned int rnd(unsigned int n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned int)(rng % n);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int read_line(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* The echo channel: its sysfs inode and destination address. */
static int echo_chan(ino_t *ino, unsigned int *dst)
{
	DIR *d = opendir("/sys/bus/rpmsg/devices");
	struct dirent *e;
	char p[320], buf[32];
	struct stat st;
	int ret = -1;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (!strstr(e->d_name, ".ampsoc-echo."))
			continue;
		snprintf(p, sizeof(p), "/sys/bus/rpmsg/devices/%.200s/", e->d_name);
		if (stat(p, &st))
			break;
		strcat(p, "dst");
		if (read_line(p, buf, sizeof(buf)))
			break;
		*ino = st.st_ino;
		*dst = strtoul(buf, NULL, 0);
		ret = 0;
		break;
	}
	closedir(d);
	return ret;
}

/* Wait for an echo channel other than @old (0: any). */
static int wait_chan(ino_t old, unsigned int *dst, double secs)
{
	double end = now() + secs;
	ino_t ino;

	while (now() < end) {
		if (echo_chan(&ino, dst) == 0 && ino != old)
			return 0;
		sleep_ms(5);
	}
	return -1;
}

static int ctrl_path(char *p, size_t len)
{
	DIR *d = opendir("/dev");
	struct dirent *e;
	int ret = -1;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "rpmsg_ctrl", 10)) {
			snprintf(p, len, "/dev/%.40s", e->d_name);
			ret = 0;
			break;
		}
	closedir(d);
	return ret;
}

/* Create an endpoint to @dst and open its /dev/rpmsgN. */
static int open_ept(const char *name, unsigned int dst)
{
	struct rpmsg_endpoint_info info = { .src = RPMSG_ADDR_ANY, .dst = dst };
	char p[64], buf[64];
	int ctrl, n, i, fd;

	if (ctrl_path(p, sizeof(p)))
		return -1;
	snprintf(info.name, sizeof(info.name), "%s", name);
	ctrl = open(p, O_RDWR);
	if (ctrl < 0)
		return -1;
	n = ioctl(ctrl, RPMSG_CREATE_EPT_IOCTL, &info);
	close(ctrl);
	if (n)
		return -1;
	for (n = 0; n < 256; n++) {
		snprintf(p, sizeof(p), "/sys/class/rpmsg/rpmsg%d/name", n);
		if (read_line(p, buf, sizeof(buf)) || strcmp(buf, name))
			continue;
		snprintf(p, sizeof(p), "/dev/rpmsg%d", n);
		for (i = 0; i < 1000; i++) {
			fd = open(p, O_RDWR);
			if (fd >= 0)
				return fd;
			sleep_ms(5);
		}
	}
	return -1;
}

/* One checked echo; 0, -1 on a mismatch, or -errno. */
static int echo_once(int fd, uint32_t seq, unsigned int len)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	uint8_t m[496], r[512];
	unsigned int i;
	int n;

	for (i = 0; i < len; i++)
		m[i] = (uint8_t)(seq * 31 + i);
	memcpy(m, &seq, 4);
	if (write(fd, m, len) != (ssize_t)len)
		return -errno;
	n = poll(&p, 1, 10000);
	if (n != 1)
		return n == 0 ? -ETIMEDOUT : -errno;
	if (p.revents & (POLLERR | POLLHUP))
		return -EPIPE;
	n = read(fd, r, sizeof(r));
	if (n < 0)
		return -errno;
	return n == (int)len && !memcmp(m, r, len) ? 0 : -1;
}

/* The stream during the crash: echoes until an error. */
struct stream {
	int fd;
	unsigned long ok;
	int err;
	int running;	/* atomic */
};

static void *stream_fn(void *arg)
{
	struct stream *s = arg;
	uint32_t seq = 0;
	int r;

	while ((r = echo_once(s->fd, seq++, 64)) == 0)
		__atomic_add_fetch(&s->ok, 1, __ATOMIC_RELEASE);
	s->err = r;
	__atomic_store_n(&s->running, 0, __ATOMIC_RELEASE);
	return NULL;
}

static int state_is(const char *want)
{
	char p[256], buf[32];

	snprintf(p, sizeof(p), "%s/state", rproc);
	return read_line(p, buf, sizeof(buf)) == 0 && !strcmp(buf, want);
}

static int wait_state(const char *want, double secs)
{
	double end = now() + secs;

	while (!state_is(want)) {
		if (now() > end)
			return -1;
		sleep_ms(5);
	}
	return 0;
}

static unsigned long total_echoes, stream_echoes, stopped_errors;

static void free_coredumps(void);

/* One full cycle; 0 or -1 with @why. */
static int run_cycle(unsigned int n)
{
	char p[256];
	unsigned int dst, k, m;
	struct stream s = { 0 };
	pthread_t th;
	ino_t ino;
	int fd, r;
	double end;

	snprintf(p, sizeof(p), "%s/state", rproc);
	r = write_file(p, "start");
	if (r || !state_is("running")) {
		snprintf(why, sizeof(why), "start: %d", r);
		return -1;
	}
	if (wait_chan(0, &dst, 20) || echo_chan(&ino, &dst)) {
		snprintf(why, sizeof(why), "no echo channel after boot");
		return -1;
	}
	/* traffic, then a stream in flight while the core crashes */
	s.fd = open_ept("soak-rl-a", dst);
	if (s.fd < 0) {
		snprintf(why, sizeof(why), "endpoint a: %s", strerror(errno));
		return -1;
	}
	m = 1 + rnd(20);
	for (k = 0; k < m; k++) {
		r = echo_once(s.fd, k, 16 + rnd(480));
		if (r) {
			snprintf(why, sizeof(why), "echo %u/%u before crash: %d", k, m, r);
			close(s.fd);
			return -1;
		}
		total_echoes++;
	}
	s.running = 1;
	if (pthread_create(&th, NULL, stream_fn, &s)) {
		close(s.fd);
		snprintf(why, sizeof(why), "pthread_create");
		return -1;
	}
	end = now() + 5;
	while (!__atomic_load_n(&s.ok, __ATOMIC_ACQUIRE) &&
	       __atomic_load_n(&s.running, __ATOMIC_ACQUIRE) && now() < end)
		sleep_ms(1);
	snprintf(p, sizeof(p), "%s/crash", rdbg);
	r = write_file(p, "2");
	/* the sender must see an error, not hang */
	end = now() + 20;
	while (__atomic_load_n(&s.running, __ATOMIC_ACQUIRE) && now() < end)
		sleep_ms(5);
	if (__atomic_load_n(&s.running, __ATOMIC_ACQUIRE)) {
		snprintf(why, sizeof(why), "%u: stream still running 20 s after the crash", n);
		/* leave the thread: the run is failed anyway */
		return -1;
	}
	pthread_join(th, NULL);
	stream_echoes += s.ok;
	close(s.fd);
	if (r) {
		snprintf(why, sizeof(why), "crash write: %d", r);
		return -1;
	}
	/* recovery: a new channel, echo again */
	if (wait_chan(ino, &dst, 20) || wait_state("running", 10)) {
		snprintf(why, sizeof(why), "no recovery after the crash");
		return -1;
	}
	free_coredumps();
	fd = open_ept("soak-rl-b", dst);
	if (fd < 0) {
		snprintf(why, sizeof(why), "endpoint b: %s", strerror(errno));
		return -1;
	}
	m = 1 + rnd(20);
	for (k = 0; k < m; k++) {
		r = echo_once(fd, k, 16 + rnd(480));
		if (r) {
			snprintf(why, sizeof(why), "echo %u/%u after recovery: %d", k, m, r);
			close(fd);
			return -1;
		}
		total_echoes++;
	}
	/* stop with the endpoint open: it must fail afterwards */
	snprintf(p, sizeof(p), "%s/state", rproc);
	r = write_file(p, "stop");
	if (r || !state_is("offline")) {
		snprintf(why, sizeof(why), "stop: %d", r);
		close(fd);
		return -1;
	}
	if (echo_once(fd, 0, 16) != 0)
		stopped_errors++;
	close(fd);
	return 0;
}

/*
 * Caches whose frees wait for a lazy purge (vmap_area) or an RCU callback
 * (the VFS objects drop_caches releases), and PREEMPT_RT's page-table
 * locks; tests/guest/lib.sh's SLAB_LAZY says why they are not counted.
 * ampsoc allocates from none of them.
 */
static bool slab_lazy(const char *name)
{
	static const char * const lazy[] = {
		"vmap_area", "dentry", "inode_cache", "proc_inode_cache",
		"lsm_inode_cache", "filp", "shmem_inode_cache", "page->ptl",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(lazy); i++)
		if (!strcmp(name, lazy[i]))
			return true;
	return false;
}

/* Active slab objects in the other caches, after shrinking every cache. */
static long active_slab(void)
{
	char name[64];
	char line[512], p[300];
	struct dirent *e;
	long total = 0, act;
	FILE *f;
	DIR *d;

	write_file("/proc/sys/vm/drop_caches", "2");
	d = opendir("/sys/kernel/slab");
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "/sys/kernel/slab/%.200s/shrink", e->d_name);
		write_file(p, "1");
	}
	if (d)
		closedir(d);
	f = fopen("/proc/slabinfo", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %ld", name, &act) == 2 &&
		    !slab_lazy(name))
			total += act;
	fclose(f);
	return total;
}

struct cache {
	char name[64];
	long active;
};

static void slab_snapshot(struct cache *c, unsigned int *n)
{
	char line[512];
	FILE *f = fopen("/proc/slabinfo", "r");

	*n = 0;
	while (f && *n < 512 && fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %ld", c[*n].name, &c[*n].active) == 2)
			(*n)++;
	if (f)
		fclose(f);
}

/* Name the caches that grew, for the log. */
static void slab_diff(const struct cache *a, unsigned int na,
		      const struct cache *b, unsigned int nb)
{
	unsigned int i, j;

	for (j = 0; j < nb; j++)
		for (i = 0; i < na; i++)
			if (!strcmp(a[i].name, b[j].name) &&
			    b[j].active > a[i].active)
				ktap_diag("  slab %s %ld -> %ld", b[j].name,
					  a[i].active, b[j].active);
}

/* A crash leaves a devcoredump until it is read or freed: free it. */
static void free_coredumps(void)
{
	DIR *d = opendir("/sys/class/devcoredump");
	struct dirent *e;
	char p[320];

	while (d && (e = readdir(d))) {
		if (strncmp(e->d_name, "devcd", 5))
			continue;
		snprintf(p, sizeof(p), "/sys/class/devcoredump/%.200s/data",
			 e->d_name);
		write_file(p, "1");
	}
	if (d)
		closedir(d);
}

/* As vmap_areas in tests/guest/lib.sh: neither lazy nor thread stacks. */
static long vmap_areas(void)
{
	char line[512];
	long n = 0;
	FILE *f = fopen("/proc/vmallocinfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strstr(line, "unpurged") &&
		    !strstr(line, "alloc_thread_stack_node"))
			n++;
	fclose(f);
	return n;
}

/* A leak of one object per cycle shows as @cycles: the bound is half. */
static long slab_bound(unsigned int cycles)
{
	return cycles / 2 > 50 ? cycles / 2 : 50;
}

int main(int argc, char **argv)
{
	unsigned int cycles, warmup, i, done = 0;
	static struct cache before[512], after[512];
	unsigned int nbefore = 0, nafter = 0;
	long s0, s1, v0, v1;
	double t0, t;
	bool ok = true;

	ktap_plan(0);
	if (argc != 6) {
		ktap_ok(false, "usage: soak_remote RPROC DEBUGFS CYCLES WARMUP SEED");
		return ktap_exit();
	}
	rproc = argv[1];
	rdbg = argv[2];
	cycles = atoi(argv[3]);
	warmup = atoi(argv[4]);
	rng = strtoull(argv[5], NULL, 0) ?: 1;
	ktap_diag("seed %s, %u cycles after %u warm-up cycles", argv[5], cycles,
		  warmup);
	active_slab();	/* the shrink files' own inodes, before counting */
	for (i = 0; i < warmup && ok; i++)
		ok = run_cycle(i) == 0;
	if (!ktap_ok(ok, "warmup_cycles (%u)", i)) {
		ktap_diag("%s", why);
		return ktap_exit();
	}
	stopped_errors = 0;
	s0 = active_slab();
	slab_snapshot(before, &nbefore);
	v0 = vmap_areas();
	t0 = now();
	for (i = 0; i < cycles; i++) {
		if (run_cycle(i)) {
			ktap_diag("cycle %u: %s", i, why);
			break;
		}
		done++;
	}
	t = now() - t0;
	/*
	 * Objects freed after an RCU grace period (dentries, files) may
	 * still count at the first look: take the lowest of a few looks. A
	 * leak stays.
	 */
	s1 = active_slab();
	for (i = 0; i < 5 && s1 - s0 >= slab_bound(cycles); i++) {
		long s = active_slab();

		if (s < s1)
			s1 = s;
	}
	v1 = vmap_areas();
	slab_snapshot(after, &nafter);
	slab_diff(before, nbefore, after, nafter);
	ktap_diag("%u cycles in %.1f s (%.2f s per cycle); %lu checked echoes,",
		  done, t, done ? t / done : 0.0, total_echoes);
	ktap_diag("%lu more in streams cut by the crash", stream_echoes);
	ktap_diag("active slab objects %ld -> %ld (%+ld); vmalloc areas %ld -> %ld",
		  s0, s1, s1 - s0, v0, v1);
	ktap_ok(done == cycles, "all_cycles (%u/%u)", done, cycles);
	ktap_ok(stopped_errors == done, "endpoint_fails_after_stop (%lu/%u)",
		stopped_errors, done);
	ktap_ok(s0 > 0 && s1 - s0 < slab_bound(cycles), "slab_no_leak (%+ld, bound %ld)",
		s1 - s0, slab_bound(cycles));
	ktap_ok(v1 - v0 < (long)cycles / 2, "vmalloc_no_leak (%+ld, bound %ld)",
		v1 - v0, (long)cycles / 2);
	printf("1..%u\n", ktap_num);
	return ktap_exit();
}
