// SPDX-License-Identifier: GPL-2.0
/*
 * Remote coverage of the rpmsg transport (docs/rpmsg.md, "Coverage for a
 * remote fuzzer"): a task that enabled kcov remote collection with a
 * common handle and wrote a non-zero number to
 * /sys/kernel/debug/ampsoc_rpmsg/kcov_handle gets the coverage of the rx
 * passes, which run in kernel threads on the remote's behalf; writing 0
 * stops it. The messages come from the loopback remote (its debugfs
 * "ctl"), sent to an address with no endpoint. Skipped on a kernel
 * without kcov (Debian's).
 *
 * Usage: rpmsg_kcov VIRTIO_DEVICE   (the transport's, e.g. virtio0)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <linux/kcov.h>

#include "guest_util.h"
#include "ktap_user.h"

#define COVER_WORDS	(64 * 1024)
#define HANDLE		"/sys/kernel/debug/ampsoc_rpmsg/kcov_handle"
#define LB_CTL		"/sys/kernel/debug/ampsoc_rpmsg_lb/ctl"
#define MODULE		"[ampsoc_rpmsg_virtio]"

static char stats_path[256];

/* A counter of the transport's debugfs stats, or -1. */
static long long stat_of(const char *key)
{
	return kv_file_get(stats_path, key);
}

/* The loopback remote sends one message to 4096; wait until it is counted. */
static bool one_rx_pass(void)
{
	long long u0 = stat_of("unknown_dst");
	struct timespec ts = { 0, 1000000 };
	int i;

	if (u0 < 0 || write_file(LB_CTL, "send 1024 4096 kcov"))
		return false;
	for (i = 0; i < 10000; i++) {
		if (stat_of("unknown_dst") > u0)
			return true;
		nanosleep(&ts, NULL);
	}
	return false;
}

/* The address range of the transport's functions, from /proc/kallsyms. */
static bool module_range(unsigned long *lo, unsigned long *hi)
{
	char line[256], type, name[128], mod[64];
	unsigned long a;
	FILE *f = fopen("/proc/kallsyms", "r");

	*lo = ~0ul;
	*hi = 0;
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx %c %127s %63s", &a, &type, name, mod) != 4 ||
		    strcmp(mod, MODULE) || (type != 't' && type != 'T') || !a)
			continue;
		if (a < *lo)
			*lo = a;
		if (a > *hi)
			*hi = a;
	}
	fclose(f);
	*hi += 4096;	/* the last function's body */
	return *lo < *hi;
}

int main(int argc, char **argv)
{
	struct kcov_remote_arg *arg;
	unsigned long lo, hi, *cover, n, i, in_module = 0;
	unsigned long long handle;
	char buf[64];
	FILE *f;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: %s VIRTIO_DEVICE\n", argv[0]);
		return 2;
	}
	snprintf(stats_path, sizeof(stats_path),
		 "/sys/kernel/debug/ampsoc_rpmsg/%s/stats", argv[1]);
	ktap_plan(3);
	fd = open("/sys/kernel/debug/kcov", O_RDWR);
	if (fd < 0) {
		ktap_skip("kernel without kcov", "handle_stored");
		ktap_skip("kernel without kcov", "rx_pass_covered");
		ktap_skip("kernel without kcov", "nothing_when_off");
		return ktap_exit();
	}
	if (ioctl(fd, KCOV_INIT_TRACE, COVER_WORDS)) {
		perror("KCOV_INIT_TRACE");
		return 1;
	}
	cover = mmap(NULL, COVER_WORDS * sizeof(unsigned long),
		     PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	arg = calloc(1, sizeof(*arg));
	if (cover == MAP_FAILED || !arg) {
		perror("mmap");
		return 1;
	}
	arg->trace_mode = KCOV_TRACE_PC;
	arg->area_size = COVER_WORDS;
	handle = kcov_remote_handle(KCOV_SUBSYSTEM_COMMON, getpid() & 0xffffffffu);
	arg->common_handle = handle;
	if (ioctl(fd, KCOV_REMOTE_ENABLE, arg)) {
		perror("KCOV_REMOTE_ENABLE");
		return 1;
	}

	/* Writing any non-zero number stores this task's common handle. */
	buf[0] = '\0';
	f = NULL;
	if (!write_file(HANDLE, "1"))
		f = fopen(HANDLE, "r");
	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	ktap_ok(strtoull(buf, NULL, 0) == handle, "handle_stored");

	__atomic_store_n(&cover[0], 0, __ATOMIC_RELAXED);
	if (!KTAP_CHECK(module_range(&lo, &hi)) || !KTAP_CHECK(one_rx_pass())) {
		ktap_ok(false, "rx_pass_covered");
	} else {
		n = __atomic_load_n(&cover[0], __ATOMIC_RELAXED);
		for (i = 0; i < n && i + 1 < COVER_WORDS; i++)
			in_module += cover[i + 1] >= lo && cover[i + 1] < hi;
		ktap_diag("%lu PCs, %lu in ampsoc_rpmsg_virtio", n, in_module);
		ktap_ok(in_module > 0, "rx_pass_covered");
	}

	write_file(HANDLE, "0");
	__atomic_store_n(&cover[0], 0, __ATOMIC_RELAXED);
	ktap_ok(KTAP_CHECK(one_rx_pass()) &&
		__atomic_load_n(&cover[0], __ATOMIC_RELAXED) == 0,
		"nothing_when_off");
	ioctl(fd, KCOV_DISABLE, 0);
	close(fd);
	return ktap_exit();
}
