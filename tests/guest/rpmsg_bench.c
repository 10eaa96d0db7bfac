// SPDX-License-Identifier: GPL-2.0
/*
 * rpmsg benchmark, userspace side: echo round trip and one-way throughput
 * at 16, 64 and 496-byte payloads through /dev/rpmsgN (Debian's
 * <linux/rpmsg.h> only), against the loopback remote. Prints
 * "name value unit" lines for tests/bench/rpmsg_transport.sh; each figure
 * is the best of ROUNDS runs (the host is shared).
 *
 * Usage: rpmsg_bench CTRL_DEV [RTT_ITERS [TPUT_MSGS]]
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <linux/rpmsg.h>

#define ECHO	0x400
#define SINK	0x500
#define ROUNDS	3

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static long long sink_count(void)
{
	char line[128];
	long long v = -1;
	FILE *f = fopen("/sys/kernel/debug/ampsoc_rpmsg_lb/stats", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "sink_msgs %lld", &v) == 1)
			break;
	fclose(f);
	return v;
}

static int open_ept(int ctrl, const char *name, uint32_t dst)
{
	struct rpmsg_endpoint_info info = { .src = RPMSG_ADDR_ANY, .dst = dst };
	char path[300], buf[64], dev[64];
	struct dirent *de;
	int n, i, fd;
	DIR *d;

	strncpy(info.name, name, sizeof(info.name) - 1);
	if (ioctl(ctrl, RPMSG_CREATE_EPT_IOCTL, &info))
		return -1;
	d = opendir("/sys/class/rpmsg");
	while (d && (de = readdir(d))) {
		FILE *f;

		if (sscanf(de->d_name, "rpmsg%d", &n) != 1 ||
		    !strncmp(de->d_name, "rpmsg_", 6))
			continue;
		snprintf(path, sizeof(path), "/sys/class/rpmsg/%s/name", de->d_name);
		f = fopen(path, "r");
		if (f && fgets(buf, sizeof(buf), f) &&
		    !strncmp(buf, name, strlen(name)) && buf[strlen(name)] == '\n') {
			snprintf(dev, sizeof(dev), "/dev/rpmsg%d", n);
			fclose(f);
			closedir(d);
			for (i = 0; i < 1000; i++) {
				fd = open(dev, O_RDWR);
				if (fd >= 0)
					return fd;
				usleep(5000);
			}
			return -1;
		}
		if (f)
			fclose(f);
	}
	if (d)
		closedir(d);
	return -1;
}

int main(int argc, char **argv)
{
	static const int sizes[] = { 16, 64, 496 };
	int rtt_iters = argc > 2 ? atoi(argv[2]) : 2000;
	int tput = argc > 3 ? atoi(argv[3]) : 20000;
	char buf[512] = { 0 };
	uint64_t t0, ns, echo_best[3] = { 0 };
	int ctrl, e, s, i, r;
	long long base;

	if (argc < 2)
		return 2;
	ctrl = open(argv[1], O_RDWR);
	if (ctrl < 0) {
		perror(argv[1]);
		return 1;
	}
	e = open_ept(ctrl, "bench-echo", ECHO);
	s = open_ept(ctrl, "bench-sink", SINK);
	if (e < 0 || s < 0) {
		fprintf(stderr, "rpmsg_bench: cannot create endpoints\n");
		return 1;
	}
	/* The host is shared: every figure keeps the best of ROUNDS rounds. */
	for (r = 0; r < ROUNDS; r++) {
		for (i = 0; i < 3; i++) {
			int n, sz = sizes[i];

			t0 = now_ns();
			for (n = 0; n < rtt_iters; n++) {
				if (write(e, buf, sz) != sz ||
				    read(e, buf, sizeof(buf)) != sz) {
					fprintf(stderr, "rpmsg_bench: echo failed: %s\n",
						strerror(errno));
					return 1;
				}
			}
			ns = now_ns() - t0;
			if (!r || ns < echo_best[i])
				echo_best[i] = ns;
		}
	}
	for (i = 0; i < 3; i++)
		printf("user_echo_rtt_%d %llu ns\n", sizes[i],
		       (unsigned long long)(echo_best[i] / rtt_iters));
	for (i = 0; i < 3; i++) {
		int n, sz = sizes[i], w;

		ns = 0;
		for (r = 0; r < ROUNDS; r++) {
			base = sink_count();
			t0 = now_ns();
			for (n = 0; n < tput; n++) {
				if (write(s, buf, sz) != sz) {
					fprintf(stderr, "rpmsg_bench: write failed: %s\n",
						strerror(errno));
					return 1;
				}
			}
			for (w = 0; w < 100000 && sink_count() < base + tput; w++)
				usleep(100);
			if (sink_count() < base + tput) {
				fprintf(stderr, "rpmsg_bench: the sink lost messages\n");
				return 1;
			}
			t0 = now_ns() - t0;
			if (!r || t0 < ns)
				ns = t0;
		}
		printf("user_tput_%d %llu msg/s\n", sz,
		       (unsigned long long)(tput * 1000000000ull / ns));
		printf("user_mbps_%d %llu MB/s\n", sz,
		       (unsigned long long)((uint64_t)tput * sz * 1000ull / ns));
	}
	return 0;
}
