// SPDX-License-Identifier: GPL-2.0
/*
 * Checked rpmsg traffic with a real remote core running ampsoc-rpmsg-check
 * (tests/firmware/rpmsg-check.c), through /dev/rpmsg_ctrlN and
 * /dev/rpmsgN with Debian's <linux/rpmsg.h> only.
 *
 * Every message in both directions carries a magic, a per-conversation
 * sequence number, its length and a CRC-32 of all that and the payload;
 * sizes are pseudo-random up to the MTU. Each endpoint keeps at most
 * WINDOW messages in flight (below the char device's rx bound, so nothing
 * may be dropped), all endpoints at once from one poll() loop. Linux checks
 * every reply; the firmware checks every message and its counters are read
 * back over the "ampsoc-check-ctl" channel.
 *
 * Usage:
 *   rpmsg_check integrity CTRL NEPT COUNT
 *	NEPT endpoints to the "ampsoc-check" channel, COUNT messages in all.
 *   rpmsg_check many CTRL NCH COUNT CYCLES
 *	CYCLES times: the firmware announces NCH channels "ampsoc-check-I"
 *	(they must appear on /sys/bus/rpmsg), one endpoint per channel,
 *	COUNT messages over all of them at once, interleaving checked; then
 *	the firmware destroys them (they must disappear).
 *   rpmsg_check crash CTRL NEPT
 *	Traffic, then writer and reader threads on NEPT endpoints while the
 *	firmware stalls (writers block on a full ring) and crashes: every
 *	thread must get an error (not a send timeout) and nobody may hang.
 *   rpmsg_check sleep CTRL NEPT LEVEL...
 *	Traffic runs from a thread while the main thread suspends the system
 *	once per LEVEL ("devices", "platform": /sys/power/pm_test; "mem": a
 *	real suspend to RAM woken by the RTC); traffic must progress after
 *	each resume, and nothing be lost, duplicated or reordered.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <linux/rpmsg.h>

#include "guest_util.h"
#include "ktap_user.h"
#include "rpmsg_check.h"

#define MAX_EPT		64
#define WINDOW		8
#define STALL_MS	20000

struct ept {
	int fd, minor;
	char name[32];
	uint32_t tx_seq, rx_seq, rng;
	unsigned long sent, recvd, bad, target;
};

static int ctrl, ctl_fd = -1;
static uint32_t mtu = 496;
static struct ept epts[MAX_EPT];
static unsigned int nr_epts;
static unsigned long linux_switches;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY), n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return n;
}

/* The dst of the channel named exactly @name on /sys/bus/rpmsg, or -1. */
static long chan_dst(const char *name)
{
	char path[512], buf[64];
	struct dirent *d;
	long dst = -1;
	DIR *dir;

	dir = opendir("/sys/bus/rpmsg/devices");
	if (!dir)
		return -1;
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/bus/rpmsg/devices/%s/name", d->d_name);
		if (read_file(path, buf, sizeof(buf)) < 0 || strcmp(buf, name))
			continue;
		snprintf(path, sizeof(path), "/sys/bus/rpmsg/devices/%s/dst", d->d_name);
		if (read_file(path, buf, sizeof(buf)) > 0)
			dst = strtol(buf, NULL, 0);
		break;
	}
	closedir(dir);
	return dst;
}

/* Wait up to @ms for channel @name to be present (@want) or gone. */
static long wait_chan(const char *name, bool want, int ms)
{
	long dst;

	for (; ms > 0; ms -= 10) {
		dst = chan_dst(name);
		if (want ? dst >= 0 : dst < 0)
			return want ? dst : 0;
		usleep(10000);
	}
	return -1;
}

/* Create an endpoint @name to @dst and open its /dev/rpmsgN. */
static int open_ept(const char *name, uint32_t dst, int *minor)
{
	struct rpmsg_endpoint_info info = { .src = RPMSG_ADDR_ANY, .dst = dst };
	char path[64], buf[64];
	int n, i, fd;

	strncpy(info.name, name, sizeof(info.name) - 1);
	if (ioctl(ctrl, RPMSG_CREATE_EPT_IOCTL, &info))
		return -1;
	for (n = 0; n < 1024; n++) {
		snprintf(path, sizeof(path), "/sys/class/rpmsg/rpmsg%d/name", n);
		if (read_file(path, buf, sizeof(buf)) < 0 || strcmp(buf, name))
			continue;
		snprintf(path, sizeof(path), "/dev/rpmsg%d", n);
		for (i = 0; i < 2000; i++) {
			fd = open(path, O_RDWR | O_NONBLOCK);
			if (fd >= 0) {
				if (minor)
					*minor = n;
				return fd;
			}
			usleep(5000);
		}
		return -1;
	}
	return -1;
}

static void close_ept(int fd)
{
	ioctl(fd, RPMSG_DESTROY_EPT_IOCTL);
	close(fd);
}

/* Send one control command; its one-line answer goes to @out. */
static int ctl(char *out, size_t size, const char *fmt, ...)
{
	struct pollfd p = { .fd = ctl_fd, .events = POLLIN };
	char cmd[64];
	va_list ap;
	int n;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (write(ctl_fd, cmd, strlen(cmd)) != (ssize_t)strlen(cmd)) {
		ktap_diag("control %s: write: %s", cmd, strerror(errno));
		return -1;
	}
	if (poll(&p, 1, 10000) != 1) {
		ktap_diag("control %s: no answer", cmd);
		return -1;
	}
	n = read(ctl_fd, out, size - 1);
	if (n < 0)
		return -1;
	out[n] = '\0';
	return 0;
}

/* A counter from the firmware's "stats" answer. */
static long stat_of(const char *stats, const char *key)
{
	char k[40];
	const char *p;

	snprintf(k, sizeof(k), "%s ", key);
	for (p = stats; (p = strstr(p, k)); p += strlen(k))
		if (p == stats || p[-1] == ' ')
			return strtol(p + strlen(k), NULL, 10);
	return -1;
}

static int open_ctl(void)
{
	char stats[256];
	long dst = wait_chan("ampsoc-check-ctl", true, 20000);

	if (dst < 0)
		return -1;
	ctl_fd = open_ept("chk-ctl", dst, NULL);
	if (ctl_fd < 0)
		return -1;
	/* The ctl endpoint is used blocking. */
	fcntl(ctl_fd, F_SETFL, 0);
	if (ctl(stats, sizeof(stats), "stats"))
		return -1;
	mtu = stat_of(stats, "mtu");
	return mtu >= sizeof(struct chk_hdr) ? 0 : -1;
}

static void ept_reset(struct ept *e, unsigned long target)
{
	e->tx_seq = 0;
	e->rx_seq = 0;
	e->rng = 0x2545f491u * (uint32_t)(e - epts + 1);
	e->sent = 0;
	e->recvd = 0;
	e->bad = 0;
	e->target = target;
}

/* Send the next checked message on @e; 0, 1 if the ring is full, -1. */
static int ept_send(struct ept *e)
{
	uint8_t buf[65536];
	struct chk_hdr h;
	uint32_t len, i;

	len = sizeof(h) + chk_xorshift(&e->rng) % (mtu - sizeof(h) + 1);
	for (i = sizeof(h); i < len; i++)
		buf[i] = (uint8_t)(e->tx_seq * 31 + i * 7 + (e->rng >> (i & 15)));
	h.magic = CHK_MAGIC;
	h.seq = e->tx_seq;
	h.len = len;
	h.flags = e->tx_seq ? 0 : CHK_F_START;
	h.crc = chk_crc(&h, buf + sizeof(h), len - sizeof(h));
	memcpy(buf, &h, sizeof(h));
	if (write(e->fd, buf, len) == (ssize_t)len) {
		e->tx_seq++;
		e->sent++;
		return 0;
	}
	if (errno == EAGAIN || errno == ENOMEM)
		return 1;
	if (!e->bad++)
		ktap_diag("%s: write %u bytes: %s", e->name, len, strerror(errno));
	return -1;
}

/* Read and check what is queued on @e; -1 on a read error. */
static int ept_recv(struct ept *e)
{
	static struct ept *last;
	uint8_t buf[65536];
	struct chk_hdr h;
	ssize_t n;

	for (;;) {
		n = read(e->fd, buf, sizeof(buf));
		if (n < 0)
			return errno == EAGAIN ? 0 : -1;
		e->recvd++;
		if (last && last != e)
			linux_switches++;
		last = e;
		memcpy(&h, buf, sizeof(h));
		if (n < (ssize_t)sizeof(h) || h.magic != CHK_MAGIC || h.len != n ||
		    h.crc != chk_crc(&h, buf + sizeof(h), n - sizeof(h)) ||
		    h.seq != e->rx_seq || !h.seq != !!(h.flags & CHK_F_START)) {
			if (!e->bad++)
				ktap_diag("%s: reply %lu: %zd B, magic %#x len %u seq %u/%u crc %s",
					  e->name, e->recvd, n, h.magic, h.len, h.seq,
					  e->rx_seq, n >= (ssize_t)sizeof(h) &&
					  h.crc == chk_crc(&h, buf + sizeof(h), n - sizeof(h)) ?
					  "ok" : "bad");
		}
		e->rx_seq = h.seq + 1;
	}
}

static int stop_traffic;

/* Whether @e has more to send. */
static bool ept_more(const struct ept *e)
{
	if (e->target)
		return e->sent < e->target;
	return !__atomic_load_n(&stop_traffic, __ATOMIC_RELAXED);
}

static unsigned long total_recvd;

/*
 * Run all endpoints until each has sent and received its target (0: until
 * stop_traffic, then drain). Returns 0, or -1 on an error or a stall.
 */
static int traffic(void)
{
	struct pollfd p[MAX_EPT];
	unsigned int i, done;
	int ret = 0, r;

	for (;;) {
		done = 0;
		for (i = 0; i < nr_epts; i++) {
			struct ept *e = &epts[i];
			bool more = ept_more(e);

			p[i].fd = e->fd;
			p[i].events = POLLIN;
			while (more && e->sent - e->recvd < WINDOW) {
				r = ept_send(e);
				if (r < 0)
					return -1;
				if (r)
					break;
				more = ept_more(e);
			}
			if (!more && e->recvd >= e->sent)
				done++;
		}
		if (done == nr_epts)
			return ret;
		r = poll(p, nr_epts, STALL_MS);
		if (r <= 0) {
			ktap_diag("stalled: %s", r ? strerror(errno) : "timeout");
			for (i = 0; i < nr_epts; i++)
				ktap_diag("  %s: sent %lu received %lu", epts[i].name,
					  epts[i].sent, epts[i].recvd);
			return -1;
		}
		for (i = 0; i < nr_epts; i++) {
			if (!p[i].revents)
				continue;
			if (p[i].revents & (POLLERR | POLLHUP)) {
				ktap_diag("%s: poll %#x", epts[i].name, p[i].revents);
				return -1;
			}
			if (ept_recv(&epts[i]))
				return -1;
		}
		__atomic_store_n(&total_recvd, 0, __ATOMIC_RELAXED);
		for (i = 0; i < nr_epts; i++)
			__atomic_add_fetch(&total_recvd, epts[i].recvd, __ATOMIC_RELAXED);
	}
}

/* Check both sides' counters after a run of @count messages. */
static void check_totals(const char *what, unsigned long count, unsigned int peers)
{
	unsigned long sent = 0, recvd = 0, bad = 0, dropped = 0;
	char stats[256], path[64], buf[32];
	unsigned int i;

	for (i = 0; i < nr_epts; i++) {
		sent += epts[i].sent;
		recvd += epts[i].recvd;
		bad += epts[i].bad;
		snprintf(path, sizeof(path), "/sys/class/rpmsg/rpmsg%d/dropped", epts[i].minor);
		if (read_file(path, buf, sizeof(buf)) > 0)
			dropped += strtoul(buf, NULL, 10);
	}
	ktap_ok(bad == 0, "%s_linux_checks (%lu replies, %lu bad)", what, recvd, bad);
	ktap_ok(sent == count && recvd == count && dropped == 0,
		"%s_linux_nothing_lost (sent %lu received %lu of %lu, dropped %lu)",
		what, sent, recvd, count, dropped);
	if (!ktap_ok(!ctl(stats, sizeof(stats), "stats"), "%s_firmware_stats", what))
		return;
	ktap_diag("firmware: %s", stats);
	ktap_ok(stat_of(stats, "bad_magic") == 0 && stat_of(stats, "bad_len") == 0 &&
		stat_of(stats, "bad_crc") == 0 && stat_of(stats, "bad_seq") == 0,
		"%s_firmware_checks", what);
	ktap_ok(stat_of(stats, "rx") == (long)count && stat_of(stats, "tx") == (long)count &&
		stat_of(stats, "tx_fail") == 0, "%s_firmware_nothing_lost", what);
	if (peers)
		ktap_ok(stat_of(stats, "peers") == peers, "%s_firmware_conversations (%u)",
			what, peers);
	/*
	 * Interleaving: with a window of WINDOW per endpoint the firmware
	 * sees the conversation change about once per window (a quarter of
	 * that is required); a serialised run would see nr_epts - 1 changes.
	 */
	if (nr_epts > 1)
		ktap_ok(stat_of(stats, "switches") >= (long)(count / WINDOW / 4) &&
			linux_switches >= count / WINDOW / 4,
			"%s_interleaved (firmware %ld, linux %lu switches)", what,
			stat_of(stats, "switches"), linux_switches);
}

static int setup_epts(unsigned int n, const char *prefix, long dst0, bool per_chan)
{
	unsigned int i;
	long dst = dst0;

	for (i = 0; i < n; i++) {
		snprintf(epts[i].name, sizeof(epts[i].name), "%s%u", prefix, i);
		if (per_chan) {
			char chan[32];

			snprintf(chan, sizeof(chan), "ampsoc-check-%u", i);
			dst = chan_dst(chan);
		}
		epts[i].fd = dst < 0 ? -1 : open_ept(epts[i].name, dst, &epts[i].minor);
		if (epts[i].fd < 0) {
			ktap_diag("endpoint %s to %ld: %s", epts[i].name, dst, strerror(errno));
			nr_epts = i;
			return -1;
		}
	}
	nr_epts = n;
	return 0;
}

static void close_epts(void)
{
	while (nr_epts)
		close_ept(epts[--nr_epts].fd);
}

static void run_checked(const char *what, unsigned long count, unsigned int peers)
{
	unsigned int i;
	char out[64];
	double t;
	int r;

	linux_switches = 0;
	for (i = 0; i < nr_epts; i++)
		ept_reset(&epts[i], count / nr_epts + (i < count % nr_epts));
	ctl(out, sizeof(out), "reset");
	t = now_s();
	r = traffic();
	t = now_s() - t;
	ktap_ok(r == 0, "%s_traffic_completes", what);
	ktap_diag("%s: %lu messages of 16..%u B on %u endpoints in %.2f s (%.0f/s)",
		  what, count, mtu, nr_epts, t, count / t);
	check_totals(what, count, peers);
}

static int do_integrity(unsigned int n, unsigned long count)
{
	long dst = wait_chan("ampsoc-check", true, 20000);

	ktap_ok(dst >= 0, "check_channel");
	if (!ktap_ok(setup_epts(n, "chk", dst, false) == 0, "endpoints_%u", n))
		return 1;
	run_checked("integrity", count, n);
	close_epts();
	return 0;
}

static int do_many(unsigned int n, unsigned long count, unsigned int cycles)
{
	char out[64], name[32];
	unsigned int c, i, bad;

	for (c = 0; c < cycles; c++) {
		for (i = 0, bad = 0; i < n; i++)
			if (ctl(out, sizeof(out), "add %u", i) || strncmp(out, "ok", 2))
				bad++;
		ktap_ok(bad == 0, "cycle%u_firmware_announces_%u", c, n);
		for (i = 0, bad = 0; i < n; i++) {
			snprintf(name, sizeof(name), "ampsoc-check-%u", i);
			if (wait_chan(name, true, 10000) < 0)
				bad++;
		}
		ktap_ok(bad == 0, "cycle%u_%u_channels_appear", c, n);
		if (!ktap_ok(setup_epts(n, "chan", 0, true) == 0, "cycle%u_endpoints", c))
			return 1;
		run_checked(c ? "again" : "channels", count, n);
		close_epts();
		for (i = 0, bad = 0; i < n; i++)
			if (ctl(out, sizeof(out), "del %u", i) || strcmp(out, "ok"))
				bad++;
		ktap_ok(bad == 0, "cycle%u_firmware_destroys", c);
		for (i = 0, bad = 0; i < n; i++) {
			snprintf(name, sizeof(name), "ampsoc-check-%u", i);
			if (wait_chan(name, false, 10000) < 0)
				bad++;
		}
		ktap_ok(bad == 0, "cycle%u_channels_disappear", c);
	}
	return 0;
}

/* ---- crash in the middle of traffic -------------------------------------- */

struct worker {
	pthread_t tid;
	struct ept *e;
	bool writer;
	unsigned long ops;
	int err;
	double end;
	bool finished;
};

static void *worker_fn(void *arg)
{
	struct worker *w = arg;
	uint8_t buf[65536];
	ssize_t n;

	/* Blocking I/O from here: a hang is what we look for. */
	for (;;) {
		if (w->writer) {
			struct chk_hdr h = { .magic = CHK_MAGIC, .seq = w->e->tx_seq,
					     .len = 64 };

			h.crc = chk_crc(&h, buf + sizeof(h), 64 - sizeof(h));
			memcpy(buf, &h, sizeof(h));
			n = write(w->e->fd, buf, 64);
			if (n == 64)
				w->e->tx_seq++;
		} else {
			n = read(w->e->fd, buf, sizeof(buf));
		}
		if (n <= 0)
			break;
		w->ops++;
	}
	w->err = n < 0 ? errno : 0;
	w->end = now_s();
	__atomic_store_n(&w->finished, true, __ATOMIC_RELEASE);
	return NULL;
}

static int do_crash(unsigned int n)
{
	struct worker w[2 * MAX_EPT];
	unsigned int i, done, errs, timeouts;
	unsigned long written = 0;
	double t0, worst = 0;
	long dst = wait_chan("ampsoc-check", true, 20000);
	char out[64];

	if (!ktap_ok(dst >= 0 && setup_epts(n, "crash", dst, false) == 0,
		     "endpoints_%u", n))
		return 1;
	run_checked("before_crash", 200 * n, n);
	for (i = 0; i < n; i++)
		fcntl(epts[i].fd, F_SETFL, 0);
	/* The firmware stops serving Linux, waits 1.5 s, then faults. */
	ktap_ok(!ctl(out, sizeof(out), "crash 1500") && !strcmp(out, "ok"), "crash_ordered");
	t0 = now_s();
	memset(w, 0, sizeof(w));
	for (i = 0; i < 2 * n; i++) {
		w[i].e = &epts[i / 2];
		w[i].writer = !(i & 1);
		pthread_create(&w[i].tid, NULL, worker_fn, &w[i]);
	}
	/* Every thread must return well before the 15 s send timeout. */
	for (;;) {
		for (i = 0, done = 0; i < 2 * n; i++)
			done += __atomic_load_n(&w[i].finished, __ATOMIC_ACQUIRE);
		if (done == 2 * n || now_s() - t0 > 12)
			break;
		usleep(20000);
	}
	ktap_ok(done == 2 * n, "no_thread_hangs (%u of %u returned)", done, 2 * n);
	if (done != 2 * n)
		return 1;
	for (i = 0, errs = 0, timeouts = 0; i < 2 * n; i++) {
		pthread_join(w[i].tid, NULL);
		errs += w[i].err != 0;
		timeouts += w[i].err == ETIMEDOUT;
		if (w[i].end - t0 > worst)
			worst = w[i].end - t0;
		if (w[i].writer)
			written += w[i].ops;
	}
	ktap_diag("writers queued %lu messages; last thread returned %.2f s after the order",
		  written, worst);
	for (i = 0; i < 2 * n; i += 2)
		if (w[i].err)
			break;
	if (i < 2 * n)
		ktap_diag("e.g. writer %u: %s, reader: %s", i / 2, strerror(w[i].err),
			  strerror(w[i + 1].err));
	/* The ring holds 256 buffers: the writers must have filled it. */
	ktap_ok(written >= 128, "writers_filled_the_ring (%lu)", written);
	ktap_ok(errs == 2 * n && timeouts == 0,
		"blocked_io_gets_an_error (%u errors, %u timeouts of %u)", errs, timeouts, 2 * n);
	for (i = 0; i < n; i++)
		ktap_ok(write(epts[i].fd, "x", 1) < 0 && errno == EPIPE, "old_endpoint%u_epipe", i);
	while (nr_epts)
		close(epts[--nr_epts].fd);
	close(ctl_fd);
	return 0;
}

/* ---- system sleep with traffic ------------------------------------------- */

static void *traffic_fn(void *arg)
{
	*(int *)arg = traffic();
	return NULL;
}

/* Wait (60 s at most) for @more further replies. */
static bool progress(unsigned long more)
{
	unsigned long start = __atomic_load_n(&total_recvd, __ATOMIC_RELAXED);
	double t = now_s();

	while (now_s() - t < 60) {
		if (__atomic_load_n(&total_recvd, __ATOMIC_RELAXED) >= start + more)
			return true;
		usleep(10000);
	}
	return false;
}

static int do_sleep(unsigned int n, int nlevels, char **levels)
{
	unsigned long total = 0;
	long dst = wait_chan("ampsoc-check", true, 20000);
	pthread_t tid;
	char ok0[32], ok1[32], out[64];
	int i, r, tr = -1;

	if (!ktap_ok(dst >= 0 && setup_epts(n, "sleep", dst, false) == 0,
		     "endpoints_%u", n))
		return 1;
	for (i = 0; i < (int)n; i++)
		ept_reset(&epts[i], 0);
	ctl(out, sizeof(out), "reset");
	pthread_create(&tid, NULL, traffic_fn, &tr);
	ktap_ok(progress(500), "traffic_before_sleep");
	for (i = 0; i < nlevels; i++) {
		bool real = !strcmp(levels[i], "mem");

		read_file("/sys/power/suspend_stats/success", ok0, sizeof(ok0));
		write_file("/sys/power/pm_test", real ? "none" : levels[i]);
		if (real) {
			write_file("/sys/class/rtc/rtc0/wakealarm", "0");
			write_file("/sys/class/rtc/rtc0/wakealarm", "+3");
		}
		r = write_file("/sys/power/state", "mem");
		read_file("/sys/power/suspend_stats/success", ok1, sizeof(ok1));
		ktap_ok(r == 0 && (!real || atol(ok1) == atol(ok0) + 1),
			"suspend_%s (%d, successes %s -> %s)", levels[i], r, ok0, ok1);
		ktap_ok(progress(500), "traffic_after_%s", levels[i]);
	}
	write_file("/sys/power/pm_test", "none");
	__atomic_store_n(&stop_traffic, 1, __ATOMIC_RELAXED);
	pthread_join(tid, NULL);
	ktap_ok(tr == 0, "traffic_drains");
	for (i = 0; i < (int)n; i++)
		total += epts[i].sent;
	ktap_diag("%lu messages over %u endpoints across %d suspends", total, n, nlevels);
	check_totals("sleep", total, n);
	close_epts();
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	unsigned int n = argc > 3 ? atoi(argv[3]) : 1;
	int ret = 1;

	ktap_plan(0);
	if (argc < 4 || n < 1 || n > MAX_EPT) {
		fprintf(stderr, "usage: see the source\n");
		return 2;
	}
	ctrl = open(argv[2], O_RDWR);
	if (!ktap_ok(ctrl >= 0, "open_ctrl"))
		return ktap_exit();
	if (!ktap_ok(open_ctl() == 0, "control_channel (mtu %u)", mtu))
		return ktap_exit();
	if (!strcmp(mode, "integrity") && argc > 4)
		ret = do_integrity(n, strtoul(argv[4], NULL, 0));
	else if (!strcmp(mode, "many") && argc > 5)
		ret = do_many(n, strtoul(argv[4], NULL, 0), atoi(argv[5]));
	else if (!strcmp(mode, "crash"))
		ret = do_crash(n);
	else if (!strcmp(mode, "sleep"))
		ret = do_sleep(n, argc - 4, argv + 4);
	else
		fprintf(stderr, "unknown mode %s\n", mode);
	if (ctl_fd >= 0 && strcmp(mode, "crash"))
		close_ept(ctl_fd);
	close(ctrl);
	printf("1..%u\n", ktap_num);
	return ret ? 1 : ktap_exit();
}
