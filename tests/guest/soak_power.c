// SPDX-License-Identifier: GPL-2.0
/*
 * The power campaign on the virtual SoC: random runtime-PM operations on
 * every peripheral and on a second remote core, with system suspend/resume
 * cycles mixed in, while a thread keeps sequence-numbered rpmsg traffic
 * going to the echo service of a running core. After every operation:
 *
 * - in one locked snapshot per domain (ampsoc_pd's pm_genpd_summary), no
 *   device is active in a domain that is off; a device forced on with
 *   power/control is active;
 * - once no transition is in flight (polled, 10 s at most), the kernel's
 *   and the SoC model's domain states agree, the power controller's
 *   completed requests equal the model's counters, a subdomain that is on
 *   has its parent on, and the model counted no violation and no garbage.
 *
 * At the end every device is idle and every domain without a user is off
 * in both views with on and off counts balanced; the traffic lost,
 * duplicated, reordered or damaged nothing. The seed is printed; the same
 * seed replays the same operations.
 *
 * Usage: soak_power -v VSOC_DEBUGFS -C CTRL_DEV -e ECHO_ADDR [-r DSP_RPROC]
 *        [-s SEED] [-n OPS] [-c CYCLES] [-t SECONDS] [-a ALARM_SECONDS]
 *        [-w WAKE_PORT]
 *
 * With -w (the wakeup host service's serial port), the cycles rotate a
 * real s2idle in too, woken at the RTC alarm's time.
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
#include <time.h>
#include <unistd.h>
#include <linux/rpmsg.h>

#include "guest_util.h"
#include "ktap_user.h"

#define PD		"/sys/kernel/debug/ampsoc_pd"
#define PLAT		"/sys/bus/platform/devices"
#define MAX_DEVS	16
#define MAX_DOMS	16
#define SETTLE_MS	10000
#define WINDOW		4
#define MSG_LEN		32
#define MSG_MAGIC	0x50574b53	/* "SKWP" */

enum kind { K_TIMER, K_SENSOR, K_DMA, K_SIMPLE };

struct dev {
	char name[64];
	char path[128];
	enum kind kind;
	bool forced;	/* power/control is "on" */
	bool running;	/* a periodic timer runs */
};

struct dom {
	char name[32];
	char parent[32];
	bool always_on;
	bool kon;	/* kernel: on */
	bool active;	/* a device is active in it (snapshot) */
	unsigned long kcnt[2], mcnt[2];
	char mstate[16];
};

static struct dev devs[MAX_DEVS];
static struct dom doms[MAX_DOMS];
static unsigned int ndevs, ndoms;
static const char *vsoc, *ctrl_path, *dsp;
static unsigned int echo_addr;
static unsigned long long rng;
static unsigned int violations, mviol;
static bool dsp_up;
static char why[512];
static char wake_in[16] = "+3";

/* ---- helpers ---------------------------------------------------------- */

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

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int write_attr(const char *dir, const char *attr, const char *s)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", dir, attr);
	return write_file(p, s);
}

/* Whole file into @buf (NUL-terminated); length or -1. */
static int read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	size_t n = 0;
	ssize_t r;

	if (fd < 0)
		return -1;
	while (n < len - 1 && (r = read(fd, buf + n, len - 1 - n)) > 0)
		n += r;
	close(fd);
	buf[n] = '\0';
	return n;
}

static int read_attr(const char *dir, const char *attr, char *buf, size_t len)
{
	char p[256];
	int n;

	snprintf(p, sizeof(p), "%s/%s", dir, attr);
	n = read_file(p, buf, len);
	if (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	return n;
}

static struct dom *dom_by_name(const char *name)
{
	unsigned int i;

	for (i = 0; i < ndoms; i++)
		if (!strcmp(doms[i].name, name))
			return &doms[i];
	return NULL;
}

/* ---- discovery ---------------------------------------------------------- */

static int discover(void)
{
	static char buf[16384];
	char *line, *save;
	struct dirent *e;
	DIR *d;

	snprintf(why, sizeof(why), "%s/board", vsoc);
	if (read_file(why, buf, sizeof(buf)) <= 0)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char name[32], parent[32];
		unsigned int idx, flags;

		if (sscanf(line, "domain %u %31s parent %31s flags %x", &idx,
			   name, parent, &flags) == 4 && ndoms < MAX_DOMS) {
			snprintf(doms[ndoms].name, sizeof(doms[ndoms].name), "%s", name);
			snprintf(doms[ndoms].parent, sizeof(doms[ndoms].parent),
				 "%s", strcmp(parent, "-") ? parent : "");
			doms[ndoms].always_on = flags & 1;
			ndoms++;
		}
	}
	d = opendir(PLAT);
	if (!d)
		return -1;
	while ((e = readdir(d)) && ndevs < MAX_DEVS) {
		struct dev *v = &devs[ndevs];
		char tmp[64];

		if (strncmp(e->d_name, "vsoc-", 5))
			continue;
		snprintf(v->path, sizeof(v->path), PLAT "/%.63s", e->d_name);
		if (read_attr(v->path, "domain", tmp, sizeof(tmp)) <= 0)
			continue;
		if (!strncmp(e->d_name, "vsoc-timer", 10))
			v->kind = K_TIMER;
		else if (!strncmp(e->d_name, "vsoc-sensor", 11))
			v->kind = K_SENSOR;
		else if (!strncmp(e->d_name, "vsoc-dma", 8))
			v->kind = K_DMA;
		else
			v->kind = K_SIMPLE;
		snprintf(v->name, sizeof(v->name), "%.63s", e->d_name);
		ndevs++;
	}
	closedir(d);
	return ndoms && ndevs ? 0 : -1;
}

/* ---- invariants ----------------------------------------------------------- */

/*
 * One locked snapshot per domain: no active device in a domain that is
 * off. Also fills kon/active. Returns 0 or -1 with @why set.
 */
static int check_snapshot(void)
{
	static char buf[16384];
	char *line, *save;
	struct dom *cur = NULL;
	unsigned int i;

	if (read_file(PD "/pm_genpd_summary", buf, sizeof(buf)) <= 0) {
		snprintf(why, sizeof(why), "cannot read pm_genpd_summary");
		return -1;
	}
	for (i = 0; i < ndoms; i++)
		doms[i].active = false;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char a[160], b[32];

		if (!strncmp(line, "    /", 5)) {
			if (sscanf(line, "%159s %31s", a, b) != 2 || !cur)
				continue;
			if (!strcmp(b, "active")) {
				cur->active = true;
				if (!cur->kon) {
					snprintf(why, sizeof(why),
						 "%s active in domain %s, which is off",
						 a, cur->name);
					return -1;
				}
			}
			continue;
		}
		if (line[0] == ' ' || line[0] == '-' || !strncmp(line, "domain ", 7))
			continue;
		if (sscanf(line, "%159s %31s", a, b) != 2)
			continue;
		cur = dom_by_name(a);
		if (cur)
			cur->kon = !strcmp(b, "on");
	}
	for (i = 0; i < ndevs; i++) {
		char st[32];

		if (!devs[i].forced)
			continue;
		read_attr(devs[i].path, "power/runtime_status", st, sizeof(st));
		if (strcmp(st, "active")) {
			snprintf(why, sizeof(why), "%s forced on but %s",
				 devs[i].name, st);
			return -1;
		}
	}
	return 0;
}

/* Kernel and model agree (no transition in flight). 0, or 1 with @why. */
static int agree(void)
{
	static char buf[8192];
	char *line, *save;
	unsigned int i;

	for (i = 0; i < ndoms; i++) {
		char p[128], st[32];

		snprintf(p, sizeof(p), PD "/%.31s/current_state", doms[i].name);
		if (read_file(p, st, sizeof(st)) <= 0)
			return 1;
		doms[i].kon = !strncmp(st, "on", 2);
	}
	snprintf(why, sizeof(why), "%s/power_stats", vsoc);
	if (read_file(why, buf, sizeof(buf)) <= 0)
		return 1;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char name[32];
		unsigned long on, off;
		struct dom *d;

		if (sscanf(line, "domain %31s on_count %lu %*s %*s %*s %*s off_count %lu",
			   name, &on, &off) != 3)
			continue;
		d = dom_by_name(name);
		if (d) {
			d->kcnt[0] = on;
			d->kcnt[1] = off;
		}
	}
	snprintf(why, sizeof(why), "%s/telemetry", vsoc);
	if (read_file(why, buf, sizeof(buf)) <= 0)
		return 1;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char name[32], st[16];
		unsigned long on, off;
		unsigned int v;
		struct dom *d;

		if (sscanf(line, "violations %u", &v) == 1)
			mviol = v;
		if (sscanf(line, "garbage %u", &v) == 1 && v)
			mviol += 1000000;
		if (sscanf(line, "domain %31s state %15s on_count %lu off_count %lu",
			   name, st, &on, &off) != 4)
			continue;
		d = dom_by_name(name);
		if (d) {
			snprintf(d->mstate, sizeof(d->mstate), "%s", st);
			d->mcnt[0] = on;
			d->mcnt[1] = off;
		}
	}
	for (i = 0; i < ndoms; i++) {
		struct dom *d = &doms[i], *p;

		if (strcmp(d->mstate, d->kon ? "on" : "off")) {
			snprintf(why, sizeof(why), "domain %s: kernel %s, model %s",
				 d->name, d->kon ? "on" : "off", d->mstate);
			return 1;
		}
		if (d->kcnt[0] != d->mcnt[0] || d->kcnt[1] != d->mcnt[1]) {
			snprintf(why, sizeof(why),
				 "domain %s: kernel on/off %lu/%lu, model %lu/%lu",
				 d->name, d->kcnt[0], d->kcnt[1], d->mcnt[0],
				 d->mcnt[1]);
			return 1;
		}
		p = d->parent[0] ? dom_by_name(d->parent) : NULL;
		if (p && d->kon && !p->kon) {
			snprintf(why, sizeof(why), "domain %s on, parent %s off",
				 d->name, p->name);
			return 1;
		}
	}
	if (mviol) {
		snprintf(why, sizeof(why), "model: %u violations (+1000000 if garbage)",
			 mviol);
		return 1;
	}
	return 0;
}

static int settle(void)
{
	double end = now() + SETTLE_MS / 1000.0;

	while (agree()) {
		if (mviol || now() > end)
			return -1;
		usleep(2000);
	}
	return 0;
}

/* Both checks; counts and reports a violation (the first few in full). */
static bool invariants(const char *after)
{
	if (check_snapshot() == 0 && settle() == 0)
		return true;
	if (++violations <= 5)
		ktap_diag("violation after %s: %s", after, why);
	return false;
}

/* ---- rpmsg traffic ------------------------------------------------------ */

static int stop_traffic;
static unsigned long t_sent, t_recv, t_bad, t_lost;

static uint32_t pattern(uint32_t seq, unsigned int i)
{
	return seq * 2654435761u + i;
}

static void fill(uint8_t *m, uint32_t seq)
{
	uint32_t w[MSG_LEN / 4];
	unsigned int i;

	w[0] = MSG_MAGIC;
	w[1] = seq;
	for (i = 2; i < MSG_LEN / 4; i++)
		w[i] = pattern(seq, i);
	memcpy(m, w, MSG_LEN);
}

static int open_ept(void)
{
	struct rpmsg_endpoint_info info = { .src = RPMSG_ADDR_ANY,
					    .dst = echo_addr };
	char p[64], buf[64];
	int ctrl, n, i, fd;

	strcpy(info.name, "soak-power");
	ctrl = open(ctrl_path, O_RDWR);
	if (ctrl < 0)
		return -1;
	n = ioctl(ctrl, RPMSG_CREATE_EPT_IOCTL, &info);
	close(ctrl);
	if (n)
		return -1;
	for (n = 0; n < 256; n++) {
		snprintf(p, sizeof(p), "/sys/class/rpmsg/rpmsg%d", n);
		if (read_attr(p, "name", buf, sizeof(buf)) <= 0 ||
		    strcmp(buf, "soak-power"))
			continue;
		snprintf(p, sizeof(p), "/dev/rpmsg%d", n);
		for (i = 0; i < 1000; i++) {
			fd = open(p, O_RDWR);
			if (fd >= 0)
				return fd;
			usleep(5000);
		}
	}
	return -1;
}

/* Print a file's lines as KTAP diagnostics, each prefixed with @tag. */
static void diag_file(const char *tag, const char *path)
{
	static char buf[4096];
	char *line, *save;

	if (read_file(path, buf, sizeof(buf)) <= 0)
		return;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		ktap_diag("  %s: %s", tag, line);
}

/*
 * Messages stopped coming back: say what each side has counted, so a
 * report tells a message that never left from one whose echo never came.
 */
static void stall_report(uint32_t next_tx, uint32_t next_rx)
{
	char p[320];
	struct dirent *e;
	DIR *d;

	ktap_diag("traffic stalled: %u sent, %u echoed, seq %u awaited",
		  next_tx, next_rx, next_rx);
	d = opendir("/sys/kernel/debug/ampsoc_rpmsg");
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "/sys/kernel/debug/ampsoc_rpmsg/%.64s/stats",
			 e->d_name);
		diag_file(e->d_name, p);
	}
	if (d)
		closedir(d);
	snprintf(p, sizeof(p), "%s/telemetry", vsoc);
	diag_file("telemetry", p);
}

static void *traffic_fn(void *arg)
{
	int fd = *(int *)arg;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	uint32_t next_tx = 0, next_rx = 0;
	uint8_t m[MSG_LEN], r[MSG_LEN + 16];

	for (;;) {
		int n;

		while (!__atomic_load_n(&stop_traffic, __ATOMIC_ACQUIRE) &&
		       next_tx - next_rx < WINDOW) {
			fill(m, next_tx);
			if (write(fd, m, MSG_LEN) != MSG_LEN) {
				if (errno == EINTR)
					continue;
				t_bad++;
				return NULL;
			}
			next_tx++;
			t_sent++;
		}
		if (next_rx == next_tx)
			break;
		/* generous: a real S3 cycle takes seconds */
		n = poll(&pfd, 1, 60000);
		if (n < 0 && errno == EINTR)
			continue;
		if (n != 1) {
			t_lost += next_tx - next_rx;
			stall_report(next_tx, next_rx);
			return NULL;
		}
		n = read(fd, r, sizeof(r));
		if (n < 0 && errno == EINTR)
			continue;
		fill(m, next_rx);
		if (n != MSG_LEN || memcmp(r, m, MSG_LEN)) {
			uint32_t seq;

			memcpy(&seq, r + 4, 4);
			if (!t_bad++)
				fprintf(stderr, "rpmsg: got %d bytes seq %u, expected seq %u\n",
					n, seq, next_rx);
		}
		next_rx++;
		t_recv++;
	}
	return NULL;
}

/* ---- operations --------------------------------------------------------- */

static const char *const op_names[] = {
	"control_on", "control_auto", "touch", "use", "autosuspend_delay",
	"timer_stop", "dsp_toggle", "wait_idle",
};

#define NOPS ARRAY_SIZE(op_names)
static unsigned long op_count[NOPS], op_err[NOPS];

static int use(struct dev *v)
{
	switch (v->kind) {
	case K_TIMER:
		if (rnd(2)) {
			v->running = true;
			return write_attr(v->path, "start", "300000 periodic");
		}
		return write_attr(v->path, "start", "200000");
	case K_SENSOR:
		return write_attr(v->path, "sample", "4 20000");
	case K_DMA:
		return write_attr(v->path, "start", rnd(2) ? "copy 512" : "crc32 256");
	default:
		return write_attr(v->path, "touch", "1");
	}
}

/* Wait (3 s at most) until every device left to autosuspend has. */
static void wait_idle(void)
{
	double end = now() + 3;
	unsigned int i = 0;
	char st[32];

	while (i < ndevs && now() < end) {
		if (!devs[i].forced && !devs[i].running) {
			read_attr(devs[i].path, "power/runtime_status", st,
				  sizeof(st));
			if (strcmp(st, "suspended")) {
				usleep(5000);
				continue;
			}
		}
		i++;
	}
}

static int do_op(unsigned int op, struct dev *v, char *desc, size_t len)
{
	static const char *const delays[] = { "0", "10", "50", "200" };
	const char *dl;
	int ret = 0;

	switch (op) {
	case 0:
		ret = write_attr(v->path, "power/control", "on");
		if (!ret)
			v->forced = true;
		break;
	case 1:
		ret = write_attr(v->path, "power/control", "auto");
		if (!ret)
			v->forced = false;
		break;
	case 2:
		ret = write_attr(v->path, "touch", "1");
		break;
	case 3:
		ret = use(v);
		break;
	case 4:
		dl = delays[rnd(4)];
		ret = write_attr(v->path, "power/autosuspend_delay_ms", dl);
		snprintf(desc, len, "%s %s %s", op_names[op], v->name, dl);
		return ret;
	case 5:
		if (v->kind == K_TIMER) {
			ret = write_attr(v->path, "stop", "1");
			v->running = false;
		}
		break;
	case 7:
		/* let autosuspend take every idle device and its domain down */
		wait_idle();
		snprintf(desc, len, "%s", op_names[op]);
		return 0;
	case 6:
		snprintf(desc, len, "%s %s", op_names[op], dsp_up ? "stop" : "start");
		ret = write_attr(dsp, "state", dsp_up ? "stop" : "start");
		if (!ret)
			dsp_up = !dsp_up;
		return ret;
	}
	snprintf(desc, len, "%s %s", op_names[op], v->name);
	return ret;
}

/* ---- system sleep ------------------------------------------------------- */

#define NCYCLES		4
/* the ACPI power button's wakeup source: one activation per event */
#define PWRBTN_EVENTS	"/sys/devices/LNXSYSTM:00/LNXPWRBN:00/power/wakeup_active_count"

static const char *const cycle_names[NCYCLES] = { "pm_test_devices",
	"pm_test_platform", "s3_rtc", "s2idle_rtc" };
static unsigned long cycle_ok[NCYCLES], cycle_tried[NCYCLES];
/* the wakeup service's port (tests/qemu/services/wakeup), or -1 */
static int wake_fd = -1;
static unsigned int ncycle_types = 3;

static unsigned long suspend_successes(void)
{
	char buf[32];

	if (read_file("/sys/power/suspend_stats/success", buf, sizeof(buf)) <= 0)
		return 0;
	return strtoul(buf, NULL, 10);
}

static unsigned long pwrbtn_events(void)
{
	char buf[32];

	if (read_file(PWRBTN_EVENTS, buf, sizeof(buf)) <= 0)
		return 0;
	return strtoul(buf, NULL, 10);
}

/*
 * Send @req to the wakeup service, then "sync": the number of events it
 * has raised in all, once it has handled @req; -1 if it did not answer
 * within 10 s. Lines other than the answer ("fired EPOCH") are skipped.
 */
static long wake_sync(const char *req)
{
	double end = now() + 10;
	struct pollfd pfd = { .fd = wake_fd, .events = POLLIN };
	char buf[256];
	size_t have = 0;

	snprintf(buf, sizeof(buf), "%ssync\n", req);
	if (write(wake_fd, buf, strlen(buf)) != (ssize_t)strlen(buf))
		return -1;
	for (;;) {
		char *nl;
		ssize_t n;
		int ms;

		while ((nl = memchr(buf, '\n', have))) {
			unsigned long presses;
			bool match;

			*nl = '\0';
			match = sscanf(buf, "synced %lu", &presses) == 1;
			have -= nl + 1 - buf;
			memmove(buf, nl + 1, have);
			if (match)
				return presses;
		}
		if (have == sizeof(buf))
			have = 0;
		ms = (int)((end - now()) * 1000);
		if (ms <= 0 || poll(&pfd, 1, ms) != 1)
			return -1;
		n = read(wake_fd, buf + have, sizeof(buf) - have);
		if (n < 0 && errno != EINTR)
			return -1;
		if (n > 0)
			have += n;
	}
}

static unsigned long s2idle_by_alarm;

/*
 * Real suspend-to-idle, woken at the RTC alarm's time: the write's result
 * (0 or -errno), or 1 with @why set when the wake protocol failed.
 * QEMU wakes only an S3 guest at the alarm, so the wakeup service raises
 * the ACPI power button when the guest's RTC reaches it (again every few
 * seconds while the guest sleeps on: tests/qemu/services/wakeup). The
 * cycle ends only once every press the service raised has been handled
 * here and it has promised no more: one arriving later would wake the
 * next cycle at the wrong time.
 */
static int s2idle_cycle(void)
{
	unsigned long ev0 = pwrbtn_events();
	long p0, p1;
	char buf[64];
	double end;
	int ret;

	p0 = wake_sync("");
	write_file("/sys/power/pm_test", "none");
	write_file("/sys/class/rtc/rtc0/wakealarm", "0");
	write_file("/sys/class/rtc/rtc0/wakealarm", wake_in);
	if (p0 < 0 ||
	    read_file("/sys/class/rtc/rtc0/wakealarm", buf, sizeof(buf)) <= 0) {
		snprintf(why, sizeof(why), "s2idle: %s",
			 p0 < 0 ? "no answer from the wakeup service" : "no wake alarm");
		return 1;
	}
	snprintf(buf, sizeof(buf), "alarm %lu\n", strtoul(buf, NULL, 10));
	if (write(wake_fd, buf, strlen(buf)) != (ssize_t)strlen(buf)) {
		snprintf(why, sizeof(why), "s2idle: wake port: %s", strerror(errno));
		return 1;
	}
	ret = write_file("/sys/power/state", "freeze");
	/* woken early (a doorbell may wake it), no press is to come */
	p1 = wake_sync("cancel\nawake\n");
	if (p1 < 0) {
		snprintf(why, sizeof(why), "s2idle: no answer from the wakeup service");
		return 1;
	}
	end = now() + 10;
	while (pwrbtn_events() - ev0 < (unsigned long)(p1 - p0) && now() < end)
		usleep(1000);
	if (pwrbtn_events() - ev0 != (unsigned long)(p1 - p0)) {
		snprintf(why, sizeof(why), "s2idle: %ld wake events raised, %lu handled",
			 p1 - p0, pwrbtn_events() - ev0);
		return 1;
	}
	if (p1 > p0)
		s2idle_by_alarm++;
	return ret;
}

static int sleep_cycle(unsigned int type)
{
	unsigned long s0 = suspend_successes();
	int ret;

	cycle_tried[type]++;
	if (type == 3) {
		ret = s2idle_cycle();
	} else {
		if (type == 2) {
			write_file("/sys/power/pm_test", "none");
			write_file("/sys/power/mem_sleep", "deep");
			write_file("/sys/class/rtc/rtc0/wakealarm", "0");
			/* seconds ahead: the suspend must be entered before it fires */
			write_file("/sys/class/rtc/rtc0/wakealarm", wake_in);
		} else {
			write_file("/sys/power/pm_test", type ? "platform" : "devices");
		}
		ret = write_file("/sys/power/state", "mem");
		write_file("/sys/power/pm_test", "none");
	}
	if (ret > 0)
		return -1;
	if (ret || suspend_successes() != s0 + 1) {
		snprintf(why, sizeof(why), "%s: write %d, successes %lu -> %lu",
			 cycle_names[type], ret, s0, suspend_successes());
		return -1;
	}
	cycle_ok[type]++;
	return 0;
}

/* ---- the end ------------------------------------------------------------ */

static int all_idle(void)
{
	unsigned int i;

	if (check_snapshot())
		return 1;
	for (i = 0; i < ndevs; i++) {
		char st[32];

		read_attr(devs[i].path, "power/runtime_status", st, sizeof(st));
		if (strcmp(st, "suspended")) {
			snprintf(why, sizeof(why), "%s still %s", devs[i].name, st);
			return 1;
		}
	}
	for (i = 0; i < ndoms; i++)
		if (!doms[i].always_on && doms[i].kon && !doms[i].active) {
			snprintf(why, sizeof(why), "domain %s on with no user",
				 doms[i].name);
			return 1;
		}
	return agree();
}

int main(int argc, char **argv)
{
	unsigned int nops = 1000, ncycles = 100, budget = 3000, i, every, done = 0;
	unsigned int cycles_done = 0, bad_cycles = 0;
	double t0, t_end;
	pthread_t th;
	int opt, fd;
	bool ok;

	rng = (unsigned long long)time(NULL) ^ ((unsigned long long)getpid() << 32);
	while ((opt = getopt(argc, argv, "v:C:e:r:s:n:c:t:a:w:")) != -1) {
		switch (opt) {
		case 'v':
			vsoc = optarg;
			break;
		case 'C':
			ctrl_path = optarg;
			break;
		case 'e':
			echo_addr = strtoul(optarg, NULL, 0);
			break;
		case 'r':
			dsp = optarg;
			break;
		case 's':
			rng = strtoull(optarg, NULL, 0);
			break;
		case 'n':
			nops = atoi(optarg);
			break;
		case 'c':
			ncycles = atoi(optarg);
			break;
		case 't':
			budget = atoi(optarg);
			break;
		case 'a':
			snprintf(wake_in, sizeof(wake_in), "+%u", atoi(optarg));
			break;
		case 'w':
			wake_fd = open(optarg, O_RDWR | O_NOCTTY | O_CLOEXEC);
			if (wake_fd < 0) {
				perror(optarg);
				return 2;
			}
			ncycle_types = NCYCLES;
			break;
		default:
			return 2;
		}
	}
	ktap_plan(0);
	if (!rng)
		rng = 1;
	ktap_diag("seed %llu (replay with -s %llu), %u operations, %u sleep cycles, budget %u s",
		  rng, rng, nops, ncycles, budget);
	ok = vsoc && ctrl_path && echo_addr && discover() == 0 &&
	     (wake_fd < 0 || !access(PWRBTN_EVENTS, R_OK));
	if (!ktap_ok(ok, "discover (%u domains, %u devices)", ndoms, ndevs))
		return ktap_exit();
	write_file("/sys/module/suspend/parameters/pm_test_delay", "0");
	if (!ktap_ok(invariants("start"), "invariants_at_start"))
		return ktap_exit();
	fd = open_ept();
	if (!ktap_ok(fd >= 0 && !pthread_create(&th, NULL, traffic_fn, &fd),
		     "traffic_started"))
		return ktap_exit();

	t0 = now();
	t_end = t0 + budget;
	every = ncycles ? (nops + ncycles - 1) / ncycles : 0;
	if (!every)
		every = 1;
	for (i = 0; i < nops && now() < t_end; i++) {
		unsigned int op = rnd(32);
		struct dev *v = &devs[rnd(ndevs)];
		char desc[96];

		/* weights (of 32): on 7, auto 6, touch 4, use 8, delay 1,
		 * timer stop 1, dsp 2, wait for idle 3
		 */
		op = op < 7 ? 0 : op < 13 ? 1 : op < 17 ? 2 : op < 25 ? 3 :
		     op < 26 ? 4 : op < 27 ? 5 : op < 29 ? 6 : 7;
		if (op == 6 && !dsp)
			op = 2;
		op_count[op]++;
		if (do_op(op, v, desc, sizeof(desc))) {
			op_err[op]++;
			if (violations++ < 5)
				ktap_diag("operation %u (%s) failed: %s", i, desc,
					  strerror(errno));
		}
		invariants(desc);
		done++;
		if (ncycles && cycles_done < ncycles && (i + 1) % every == 0) {
			unsigned int type = cycles_done % ncycle_types;

			if (sleep_cycle(type)) {
				bad_cycles++;
				if (violations++ < 5)
					ktap_diag("cycle %u: %s", cycles_done, why);
			}
			cycles_done++;
			snprintf(desc, sizeof(desc), "sleep cycle %u (%s)",
				 cycles_done, cycle_names[type]);
			invariants(desc);
		}
	}
	while (ncycles && cycles_done < ncycles && now() < t_end) {
		if (sleep_cycle(cycles_done % ncycle_types))
			bad_cycles++;
		cycles_done++;
		invariants("sleep cycle");
	}
	ktap_diag("%u operations and %u sleep cycles in %.1f s", done,
		  cycles_done, now() - t0);
	for (i = 0; i < NOPS; i++)
		ktap_diag("  %-18s %lu (%lu failed)", op_names[i], op_count[i],
			  op_err[i]);
	for (i = 0; i < ncycle_types; i++)
		ktap_diag("  %-18s %lu/%lu", cycle_names[i], cycle_ok[i],
			  cycle_tried[i]);
	if (wake_fd >= 0)
		ktap_diag("  s2idle woken by the alarm's event %lu times", s2idle_by_alarm);
	ktap_ok(done == nops, "all_operations_done (%u/%u)", done, nops);
	ktap_ok(cycles_done == ncycles && !bad_cycles,
		"all_sleep_cycles_done (%u/%u, %u failed)", cycles_done,
		ncycles, bad_cycles);

	/* back to idle: timers stopped, control auto, dsp down */
	for (i = 0; i < ndevs; i++) {
		if (devs[i].kind == K_TIMER)
			write_attr(devs[i].path, "stop", "1");
		write_attr(devs[i].path, "power/control", "auto");
		devs[i].forced = false;
	}
	if (dsp_up && !write_attr(dsp, "state", "stop"))
		dsp_up = false;
	__atomic_store_n(&stop_traffic, 1, __ATOMIC_RELEASE);
	pthread_join(th, NULL);
	close(fd);
	ktap_diag("traffic: %lu sent, %lu received, %lu lost, %lu bad", t_sent,
		  t_recv, t_lost, t_bad);
	ktap_ok(t_sent && t_sent == t_recv && !t_lost && !t_bad,
		"rpmsg_nothing_lost (%lu/%lu)", t_recv, t_sent);

	{
		double end = now() + 15;

		while ((ok = all_idle() == 0) == false && now() < end)
			usleep(10000);
	}
	if (!ok)
		ktap_diag("not idle: %s", why);
	ktap_ok(ok, "all_idle_at_end");
	ok = true;
	for (i = 0; i < ndoms; i++) {
		struct dom *d = &doms[i];
		long bal = (long)d->mcnt[0] - (long)d->mcnt[1];

		ktap_diag("  domain %-10s %s on %lu off %lu", d->name, d->mstate,
			  d->mcnt[0], d->mcnt[1]);
		if (!d->always_on && bal != (d->kon ? 1 : 0)) {
			ktap_diag("domain %s: on %lu off %lu but %s", d->name,
				  d->mcnt[0], d->mcnt[1], d->mstate);
			ok = false;
		}
	}
	ktap_ok(ok, "counters_balanced");
	ktap_ok(mviol == 0, "model_no_violations (%u)", mviol);
	ktap_ok(violations == 0, "no_invariant_violations (%u)", violations);
	printf("1..%u\n", ktap_num);
	return ktap_exit();
}
