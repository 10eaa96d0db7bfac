// SPDX-License-Identifier: GPL-2.0
/*
 * rpmsg across a real system suspend: a checked stream from the loopback
 * remote is read through /dev/rpmsgN (Debian's <linux/rpmsg.h> only) before,
 * across and after an ACPI S3 suspend woken by the RTC alarm; nothing may be
 * lost, duplicated or reordered, and an echo must work after resume.
 *
 * Usage: rpmsg_sleep CTRL_DEV COUNT
 *
 * Late mode, against a real remote core running ampsoc-rpmsg-echo: once per
 * LEVEL ("devices", "platform": /sys/power/pm_test, whose delay must exceed
 * MS; "mem": a real suspend to RAM woken by the RTC 4 s later; "awake": no
 * suspend, the control), ask the
 * "ampsoc-later" service at DST for a reply MS milliseconds ahead, then
 * suspend at once. The reply is due while Linux sleeps and nothing comes
 * after it to ring the doorbell again: it must still reach /dev/rpmsgN
 * after resume, whole.
 *
 * Usage: rpmsg_sleep late CTRL_DEV DST MS LEVEL...
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
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

#define LB_CTL	"/sys/kernel/debug/ampsoc_rpmsg_lb/ctl"
#define ECHO	0x400
#define STREAM	0x600
#define ADDR	0x3800

/* Read @n checked messages; returns how many were wrong. */
static unsigned int read_checked(int fd, unsigned int n, uint32_t *next)
{
	unsigned int bad = 0, i;
	uint8_t buf[128];
	struct pollfd p = { .fd = fd, .events = POLLIN };

	for (i = 0; i < n; i++) {
		uint32_t seq, crc;
		int r;

		if (poll(&p, 1, 20000) != 1) {
			ktap_diag("no message after seq %u (%u to go)", *next, n - i);
			return bad + n - i;
		}
		r = read(fd, buf, sizeof(buf));
		if (r != 64) {
			if (!bad++)
				ktap_diag("read returned %d (errno %d)", r, errno);
			continue;
		}
		memcpy(&seq, buf + 4, 4);
		memcpy(&crc, buf + 8, 4);
		if (seq != *next || crc != lb_crc32(buf + 12, 64 - 12)) {
			if (!bad++)
				ktap_diag("got seq %u, expected %u, crc %s", seq,
					  *next, crc == lb_crc32(buf + 12, 52) ?
					  "ok" : "bad");
		}
		*next = seq + 1;
	}
	return bad;
}

static double clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One "ampsoc-later" request across one suspend at @level. */
static void late_one(int fd, uint32_t ms, const char *level)
{
	bool real = !strcmp(level, "mem");
	double b0, m0, awake, slept;
	struct pollfd p = { .fd = fd, .events = POLLIN };
	uint8_t req[4 + 32];
	char want[32], got[64];
	int n, r;

	snprintf(want, sizeof(want), "late-%s", level);
	n = strlen(want);	/* a long LEVEL is cut, never overflows req */
	memcpy(req, &ms, sizeof(ms));
	memcpy(req + sizeof(ms), want, n);
	write_file("/sys/power/pm_test", real || !strcmp(level, "awake") ? "none" : level);
	if (real) {
		write_file("/sys/class/rtc/rtc0/wakealarm", "0");
		write_file("/sys/class/rtc/rtc0/wakealarm", "+4");
	}
	b0 = clock_s(CLOCK_BOOTTIME);
	m0 = clock_s(CLOCK_MONOTONIC);
	if (!ktap_ok(write(fd, req, sizeof(ms) + n) == (ssize_t)(sizeof(ms) + n),
		     "late_request_%s", level))
		return;
	/* "awake": the same request without a suspend, as the control. */
	r = strcmp(level, "awake") ? write_file("/sys/power/state", "mem") : 0;
	/* CLOCK_MONOTONIC stands still while the system is suspended. */
	awake = clock_s(CLOCK_MONOTONIC) - m0;
	slept = clock_s(CLOCK_BOOTTIME) - b0 - awake;
	ktap_ok(r == 0, "late_suspend_%s (%d)", level, r);
	ktap_diag("%s: reply due after %u ms; until resume %.0f ms awake, %.0f ms asleep",
		  level, ms, awake * 1000, slept * 1000);
	n = poll(&p, 1, 20000) == 1 ? read(fd, got, sizeof(got)) : -1;
	ktap_ok(n == (int)strlen(want) && !memcmp(got, want, n),
		"late_reply_after_%s (%d bytes)", level, n);
	/*
	 * "mem" must really have slept through the reply's due time: asleep
	 * longer than the delay and, even counting every awake millisecond as
	 * before the sleep, asleep before it was due.
	 */
	if (real)
		ktap_ok(slept * 1000 > ms && awake * 1000 < ms,
			"late_reply_was_due_in_sleep");
}

static int do_late(int argc, char **argv)
{
	uint32_t ms = atoi(argv[4]);
	int ctrl, fd, i;

	ctrl = open(argv[2], O_RDWR);
	fd = ctrl < 0 ? -1 : rpmsg_ept_open(ctrl, "late", RPMSG_ADDR_ANY,
					   strtoul(argv[3], NULL, 0), NULL);
	if (!ktap_ok(fd >= 0, "late_endpoint"))
		return ktap_exit();
	for (i = 5; i < argc; i++)
		late_one(fd, ms, argv[i]);
	write_file("/sys/power/pm_test", "none");
	close(fd);
	close(ctrl);
	printf("1..%u\n", ktap_num);
	return ktap_exit();
}

int main(int argc, char **argv)
{
	unsigned int count = argc > 2 ? atoi(argv[2]) : 3000, first = 200;
	uint32_t next = 0;
	char cmd[64], buf[16];
	int ctrl, fd, e, r;

	ktap_plan(0);
	if (argc > 5 && !strcmp(argv[1], "late"))
		return do_late(argc, argv);
	ctrl = open(argc > 1 ? argv[1] : "/dev/rpmsg_ctrl0", O_RDWR);
	if (!ktap_ok(ctrl >= 0, "open_ctrl"))
		ktap_exit();
	fd = rpmsg_ept_open(ctrl, "sleep-stream", ADDR, STREAM, NULL);
	e = rpmsg_ept_open(ctrl, "sleep-echo", RPMSG_ADDR_ANY, ECHO, NULL);
	if (!ktap_ok(fd >= 0 && e >= 0, "endpoints"))
		ktap_exit();
	snprintf(cmd, sizeof(cmd), "stream %d %u 64", ADDR, count);
	ktap_ok(write_file(LB_CTL, cmd) == 0, "stream_started");
	ktap_ok(read_checked(fd, first, &next) == 0, "before_sleep_%u_ok", first);

	write_file("/sys/class/rtc/rtc0/wakealarm", "0");
	write_file("/sys/class/rtc/rtc0/wakealarm", "+3");
	r = write_file("/sys/power/state", "mem");
	ktap_ok(r == 0, "suspend_resume (%d)", r);

	ktap_ok(read_checked(fd, count - first, &next) == 0,
		"after_resume_rest_in_order");
	ktap_ok(next == count, "nothing_lost (%u/%u)", next, count);
	ktap_ok(write(e, "awake", 5) == 5 && read(e, buf, sizeof(buf)) == 5 &&
		!memcmp(buf, "awake", 5), "echo_after_resume");
	close(fd);
	close(e);
	close(ctrl);
	printf("1..%u\n", ktap_num);
	return ktap_exit();
}
