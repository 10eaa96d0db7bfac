// SPDX-License-Identifier: GPL-2.0
/*
 * rpmsg benchmark, userspace side: echo round trip and one-way throughput
 * at 16, 64 and 496-byte payloads through /dev/rpmsgN (Debian's
 * <linux/rpmsg.h> only), against the loopback remote, next to the same
 * two baselines taken from userspace with one system call per step as
 * /dev/rpmsgN takes (the remote's debugfs "ping" and "raw" files: a raw
 * doorbell round trip and the raw 496-byte slot ring). Prints
 * "name value unit" lines for tests/bench/rpmsg_transport.sh; each figure
 * is the best of ROUNDS runs (default 3), and a round trip is a round's
 * median. Each round measures the baseline, then each size. With ROUNDS 1
 * the script runs it once per round of the benchmark and keeps every
 * round (docs/benchmarks.md).
 *
 * Usage: rpmsg_bench CTRL_DEV [RTT_ITERS [TPUT_MSGS [ROUNDS]]]
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

#include "guest_util.h"

#define ECHO	0x400
#define SINK	0x500

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

#define LB_DIR	"/sys/kernel/debug/ampsoc_rpmsg_lb/"

/* One counter of the remote's stats, or -1. */
static long long lb_stat(const char *key)
{
	char line[128], k[64];
	long long v = -1, x;
	FILE *f = fopen(LB_DIR "stats", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %lld", k, &x) == 2 && !strcmp(k, key)) {
			v = x;
			break;
		}
	fclose(f);
	return v;
}

/* Wait up to 10 s until the remote's counter @key reaches @n. */
static int lb_wait_stat(const char *key, long long n)
{
	int w;

	for (w = 0; w < 100000 && lb_stat(key) < n; w++)
		usleep(100);
	return lb_stat(key) >= n ? 0 : -1;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * @iters round trips of @len bytes: write then read on @fd. Returns the
 * median in ns and stores the total in @total, or returns 0 on a failure.
 */
static uint64_t round_trips(int fd, char *buf, int len, int iters,
			    uint64_t *t, uint64_t *total)
{
	uint64_t t0 = now_ns(), t1;
	int n, want = len ? len : 1;

	for (n = 0; n < iters; n++) {
		t1 = now_ns();
		if (write(fd, buf, len) != len || read(fd, buf, 512) != want) {
			fprintf(stderr, "rpmsg_bench: round trip failed: %s\n",
				strerror(errno));
			return 0;
		}
		t[n] = now_ns() - t1;
	}
	*total = now_ns() - t0;
	qsort(t, iters, sizeof(*t), cmp_u64);
	return t[iters / 2];
}

/*
 * @count one-way writes of @len bytes on @fd, until the remote's @key
 * counter has seen them all; ns, or 0 on a failure.
 */
static uint64_t one_way(int fd, char *buf, int len, int count, const char *key)
{
	long long base = lb_stat(key);
	uint64_t t0 = now_ns();
	int n;

	for (n = 0; n < count; n++) {
		if (write(fd, buf, len) != len) {
			fprintf(stderr, "rpmsg_bench: write failed: %s\n",
				strerror(errno));
			return 0;
		}
	}
	if (base < 0 || lb_wait_stat(key, base + count)) {
		fprintf(stderr, "rpmsg_bench: the remote lost messages (%s)\n", key);
		return 0;
	}
	return now_ns() - t0;
}

static void print_rtt(const char *name, uint64_t med, uint64_t total, int iters)
{
	printf("%s %llu ns\n", name, (unsigned long long)med);
	printf("%s_mean %llu ns\n", name, (unsigned long long)(total / iters));
}

static void print_tput(const char *who, int sz, uint64_t ns, int count)
{
	printf("%s_tput_%d %llu msg/s\n", who, sz,
	       (unsigned long long)(count * 1000000000ull / ns));
	printf("%s_mbps_%d %llu MB/s\n", who, sz,
	       (unsigned long long)((uint64_t)count * sz * 1000ull / ns));
}

int main(int argc, char **argv)
{
	static const int sizes[] = { 16, 64, 496 };
	int rtt_iters = argc > 2 ? atoi(argv[2]) : 2000;
	int tput = argc > 3 ? atoi(argv[3]) : 20000;
	int rounds = argc > 4 ? atoi(argv[4]) : 3;
	uint64_t med[4], mean[4], tp[4], m, total, ns;
	char buf[512] = { 0 };
	int ctrl, e, s, ping, raw, i, r;
	uint64_t *t;

	if (argc < 2 || rtt_iters < 1 || tput < 1 || rounds < 1)
		return 2;
	t = calloc(rtt_iters, sizeof(*t));
	ctrl = open(argv[1], O_RDWR);
	if (!t || ctrl < 0) {
		perror(argv[1]);
		return 1;
	}
	e = rpmsg_ept_open(ctrl, "bench-echo", RPMSG_ADDR_ANY, ECHO, NULL);
	s = rpmsg_ept_open(ctrl, "bench-sink", RPMSG_ADDR_ANY, SINK, NULL);
	ping = open(LB_DIR "ping", O_RDWR);
	raw = open(LB_DIR "raw", O_WRONLY);
	if (e < 0 || s < 0 || ping < 0 || raw < 0) {
		fprintf(stderr, "rpmsg_bench: cannot open the endpoints or the baselines\n");
		return 1;
	}
	/*
	 * Every round measures the baseline and then each size (interleaved),
	 * and every figure keeps its best round.
	 */
	for (r = 0; r < rounds; r++) {
		for (i = 0; i < 4; i++) {
			m = i ? round_trips(e, buf, sizes[i - 1], rtt_iters, t, &total)
			      : round_trips(ping, buf, 1, rtt_iters, t, &total);
			if (!m)
				return 1;
			if (!r || m < med[i])
				med[i] = m;
			if (!r || total < mean[i])
				mean[i] = total;
		}
	}
	print_rtt("user_doorbell_rtt", med[0], mean[0], rtt_iters);
	for (i = 0; i < 3; i++) {
		snprintf(buf, sizeof(buf), "user_echo_rtt_%d", sizes[i]);
		print_rtt(buf, med[i + 1], mean[i + 1], rtt_iters);
	}
	memset(buf, 0, sizeof(buf));
	for (r = 0; r < rounds; r++) {
		for (i = 0; i < 4; i++) {
			ns = i ? one_way(s, buf, sizes[i - 1], tput, "sink_msgs")
			       : one_way(raw, buf, 496, tput, "raw_consumed");
			if (!ns)
				return 1;
			if (!r || ns < tp[i])
				tp[i] = ns;
		}
	}
	print_tput("user_raw_ring", 496, tp[0], tput);
	for (i = 0; i < 3; i++)
		print_tput("user", sizes[i], tp[i + 1], tput);
	free(t);
	return 0;
}
