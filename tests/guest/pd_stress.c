// SPDX-License-Identifier: GPL-2.0
/*
 * pd_stress: hammer the fake SoC's devices (ampsoc_pdfake_test) from
 * several threads with real runtime PM requests through sysfs
 * (power/control on/auto, busy references), then let everything go idle
 * and check that every domain is off, in our view and in the fake
 * hardware's, with zero counters and no driver callback ever run while
 * its domain's hardware was off.
 *
 * usage: pd_stress [-t threads] [-n operations per thread]
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "guest_util.h"
#include "ktap_user.h"

#define DEVDIR	"/sys/bus/platform/drivers/ampsoc-pdfake"
#define PD	"/sys/kernel/debug/ampsoc_pd"
#define FAKE	"/sys/kernel/debug/ampsoc_pdfake"
#define VIEW	"/sys/kernel/ampsoc_pd"
#define MAXDEV	128

static char devs[MAXDEV][256];
static int ndev;
static int nops = 2000;
static int round_ops;
static unsigned long ops_done[16];
static unsigned long op_errors;

static const char * const domains[] = {
	"fake_top", "fake_mid", "fake_leaf", "fake_side", "fake_wake",
	"fake_qos",
};

static int write_str(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	close(fd);
	return n < 0 ? -errno : 0;
}

static int read_str(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = 0;
	return 0;
}

static int dev_write(int i, const char *attr, const char *val)
{
	char path[160];

	snprintf(path, sizeof(path), DEVDIR "/%s/%s", devs[i], attr);
	return write_str(path, val);
}

static void *worker(void *arg)
{
	long id = (long)arg;
	unsigned int seed = (unsigned int)(time(NULL) ^ (id * 7919));
	int held[MAXDEV] = { 0 };
	int i;

	while (ops_done[id] < (unsigned long)round_ops) {
		int d = rand_r(&seed) % ndev;
		int op = rand_r(&seed) % 4;
		int ret = 0;

		switch (op) {
		case 0:
			ret = dev_write(d, "power/control", "on");
			break;
		case 1:
			ret = dev_write(d, "power/control", "auto");
			break;
		case 2:
			if (held[d] < 3 && !dev_write(d, "busy", "1"))
				held[d]++;
			break;
		case 3:
			if (held[d] && !dev_write(d, "busy", "0"))
				held[d]--;
			break;
		}
		if (ret)
			__atomic_add_fetch(&op_errors, 1, __ATOMIC_RELAXED);
		ops_done[id]++;
	}
	for (i = 0; i < ndev; i++)
		while (held[i]-- > 0)
			dev_write(i, "busy", "0");
	return NULL;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(a, b);
}

static int find_devices(void)
{
	DIR *dir = opendir(DEVDIR);
	struct dirent *e;

	if (!dir)
		return -errno;
	while ((e = readdir(dir)) && ndev < MAXDEV)
		if (!strncmp(e->d_name, "ampsoc-pdfake.", 14) &&
		    strlen(e->d_name) < sizeof(devs[0]))
			memcpy(devs[ndev++], e->d_name, strlen(e->d_name) + 1);
	closedir(dir);
	qsort(devs, ndev, sizeof(devs[0]), cmp_str);
	return ndev;
}

/* Domain off in our view and in the fake hardware's. */
static int domain_off(const char *name)
{
	char path[160], buf[128];

	snprintf(path, sizeof(path), PD "/%s/current_state", name);
	if (read_str(path, buf, sizeof(buf)) || strncmp(buf, "off-", 4))
		return 0;
	snprintf(path, sizeof(path), FAKE "/%s", name);
	if (read_str(path, buf, sizeof(buf)))
		return 0;
	return !strncmp(buf, "hw=off ", 7);
}

static int all_off(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(domains); i++)
		if (!domain_off(domains[i]))
			return 0;
	return 1;
}

static long view_count(const char *dom, const char *attr)
{
	char path[160], buf[64];

	snprintf(path, sizeof(path), VIEW "/%s/%s", dom, attr);
	if (read_str(path, buf, sizeof(buf)))
		return -1;
	return strtol(buf, NULL, 10);
}

int main(int argc, char **argv)
{
	pthread_t th[16];
	int threads = 4, opt, i, waited, round;
	unsigned long total = 0;
	char buf[64];
	bool counters_ok = true;
	long on_total;

	while ((opt = getopt(argc, argv, "t:n:")) != -1) {
		if (opt == 't')
			threads = atoi(optarg);
		else if (opt == 'n')
			nops = atoi(optarg);
	}
	if (threads < 1 || threads > 16)
		threads = 4;

	ktap_plan(6);
	if (!ktap_ok(find_devices() > 0, "devices_found")) {
		ktap_diag("no %s/ampsoc-pdfake.* devices", DEVDIR);
		return ktap_exit();
	}
	round_ops = (nops + 1) / 2;
	ktap_diag("%d devices, %d threads, %d operations each in two rounds",
		  ndev, threads, 2 * round_ops);

	/*
	 * Two rounds with an idle SoC between them, so that the run switches
	 * power whatever the threads' timing: four threads can keep every
	 * domain on through a whole round.
	 */
	for (round = 0; round < 2; round++) {
		for (i = 0; i < threads; i++) {
			ops_done[i] = 0;
			pthread_create(&th[i], NULL, worker, (void *)(long)i);
		}
		for (i = 0; i < threads; i++) {
			pthread_join(th[i], NULL);
			total += ops_done[i];
		}
		for (i = 0; i < ndev; i++)
			dev_write(i, "power/control", "auto");
		/* Wait on the condition (autosuspend then power-off work). */
		for (waited = 0; waited < 2000 && !all_off(); waited++)
			usleep(10000);
		ktap_diag("round %d: %s after %d ms", round + 1,
			  all_off() ? "all domains off" : "a domain still on",
			  waited * 10);
	}
	ktap_diag("%lu operations, %lu refused", total, op_errors);
	ktap_ok(total > 0 && op_errors == 0, "operations_accepted");
	ktap_ok(all_off(), "all_domains_off_after_idle");

	for (i = 0; i < (int)(ARRAY_SIZE(domains)); i++) {
		if (view_count(domains[i], "active_count") != 0 ||
		    view_count(domains[i], "sd_count") != 0) {
			ktap_diag("%s: active_count %ld sd_count %ld", domains[i],
				  view_count(domains[i], "active_count"),
				  view_count(domains[i], "sd_count"));
			counters_ok = false;
		}
	}
	ktap_ok(counters_ok, "counters_back_to_zero");
	ktap_ok(!read_str(FAKE "/violations", buf, sizeof(buf)) &&
		!strcmp(buf, "0"), "no_callback_with_hw_off");
	/*
	 * The run really switched power: some domain came back on after
	 * going off, at the latest in the second round. Which one depends on
	 * the threads' timing, so count them all.
	 */
	on_total = 0;
	for (i = 0; i < (int)(ARRAY_SIZE(domains)); i++)
		on_total += view_count(domains[i], "on_count");
	ktap_diag("%ld power-ons over %d domains", on_total,
		  (int)ARRAY_SIZE(domains));
	ktap_ok(on_total > (long)ARRAY_SIZE(domains), "domains_cycled");
	return ktap_exit();
}
