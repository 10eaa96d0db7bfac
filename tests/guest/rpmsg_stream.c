// SPDX-License-Identifier: GPL-2.0
/*
 * Flow control end to end with a real remote core: the "ampsoc-source"
 * service of ampsoc-rpmsg-echo streams COUNT messages of SIZE bytes (each
 * starting with its u32 sequence number, byte i of it being seq + i) to a
 * /dev/rpmsgN that reads nothing until the firmware's trace says Linux
 * paused it, then reads them all. Every message must arrive once, in
 * order, whole, with nothing dropped, and the firmware must have been
 * paused. Debian's <linux/rpmsg.h> only.
 *
 * Usage: rpmsg_stream CTRL_DEV DST COUNT SIZE TRACE_FILE
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "guest_util.h"
#include "ktap_user.h"

#define WAIT_S	30

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Whether @file (the remote's trace) holds @text; @out gets its line. */
static bool trace_has(const char *file, const char *text, char *out, size_t size)
{
	char line[256];
	bool found = false;
	FILE *f = fopen(file, "r");

	while (f && !found && fgets(line, sizeof(line), f)) {
		found = strstr(line, text);
		if (found && out)
			snprintf(out, size, "%s", line);
	}
	if (f)
		fclose(f);
	return found;
}

/* Poll the trace (no fixed sleep: a bounded wait for a line). */
static bool trace_wait(const char *file, const char *text, char *out, size_t size)
{
	double end = now_s() + WAIT_S;

	while (!trace_has(file, text, out, size)) {
		if (now_s() > end)
			return false;
		usleep(10000);
	}
	return true;
}

static long sysfs_long(int minor, const char *attr)
{
	char path[96], buf[32];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/rpmsg/rpmsg%d/%s", minor, attr);
	f = fopen(path, "r");
	if (f && fgets(buf, sizeof(buf), f))
		v = strtol(buf, NULL, 0);
	if (f)
		fclose(f);
	return v;
}

/* Read @count messages of @size; returns how many were wrong or missing. */
static unsigned int read_stream(int fd, uint32_t count, uint32_t size)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	unsigned int bad = 0;
	uint8_t *buf = malloc(size + 1);
	uint32_t next, seq, i;
	ssize_t r;

	for (next = 0; buf && next < count; next++) {
		if (poll(&p, 1, WAIT_S * 1000) != 1) {
			ktap_diag("nothing after seq %u", next);
			bad += count - next;
			break;
		}
		r = read(fd, buf, size + 1);
		seq = UINT32_MAX;
		if (r == (ssize_t)size)
			memcpy(&seq, buf, sizeof(seq));
		for (i = sizeof(seq); seq == next && i < size; i++)
			if (buf[i] != (uint8_t)(seq + i))
				seq = UINT32_MAX - 1;
		if (seq != next && !bad++)
			ktap_diag("message %u: %zd bytes, seq %u", next, r, seq);
		if (seq < count)
			next = seq;
	}
	free(buf);
	return buf ? bad : count;
}

int main(int argc, char **argv)
{
	uint32_t req[2];
	char line[256] = "";
	const char *trace;
	int ctrl, fd, minor = -1;
	unsigned int pauses = 0, sent = 0;

	ktap_plan(0);
	if (argc != 6) {
		fprintf(stderr, "usage: %s CTRL_DEV DST COUNT SIZE TRACE_FILE\n", argv[0]);
		return 2;
	}
	req[0] = strtoul(argv[3], NULL, 0);
	req[1] = strtoul(argv[4], NULL, 0);
	trace = argv[5];
	ctrl = open(argv[1], O_RDWR);
	fd = ctrl < 0 ? -1 : rpmsg_ept_open(ctrl, "stream-fc", RPMSG_ADDR_ANY,
					    strtoul(argv[2], NULL, 0), &minor);
	if (!ktap_ok(fd >= 0, "endpoint"))
		return ktap_exit();
	ktap_ok(write(fd, req, sizeof(req)) == sizeof(req), "request_%u_of_%u",
		req[0], req[1]);
	/* Read nothing until the full queue has paused the firmware. */
	ktap_ok(trace_wait(trace, "source paused by Linux", line, sizeof(line)),
		"firmware_paused_by_slow_reader");
	ktap_diag("%s", strtok(line, "\n") ?: "");
	ktap_ok(read_stream(fd, req[0], req[1]) == 0,
		"all_%u_in_order_and_whole", req[0]);
	ktap_ok(sysfs_long(minor, "dropped") == 0, "nothing_dropped (%ld)",
		sysfs_long(minor, "dropped"));
	line[0] = 0;
	if (trace_wait(trace, "source done", line, sizeof(line)))
		sscanf(strstr(line, "source done"), "source done: %u sent, paused %u",
		       &sent, &pauses);
	ktap_diag("firmware: %u sent, paused %u times", sent, pauses);
	ktap_ok(sent == req[0] && pauses >= 1, "firmware_sent_all_and_was_paused");
	close(fd);
	close(ctrl);
	printf("1..%u\n", ktap_num);
	return ktap_exit();
}
