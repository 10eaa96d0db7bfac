// SPDX-License-Identifier: GPL-2.0
/*
 * rpmsg userspace ABI test, written against Debian's <linux/rpmsg.h> only
 * (plus mainline's two post-6.1 flow-control ioctl numbers, defined below
 * when the header lacks them). Needs one loopback remote with flow control
 * (ampsoc_rpmsg_lb nr_devices=1) and its debugfs control file.
 *
 * Usage: rpmsg_abi [CTRL_DEV]   (default /dev/rpmsg_ctrl0)
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
#include <sys/wait.h>
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

#define LB_CTL		"/sys/kernel/debug/ampsoc_rpmsg_lb/ctl"
#define LB_STATS	"/sys/kernel/debug/ampsoc_rpmsg_lb/stats"
#define ECHO		0x400
#define STREAM		0x600
#define MY_ADDR		0x3000

static const char *ctrl_path = "/dev/rpmsg_ctrl0";

static int lb_ctl(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int lb_ctl(const char *fmt, ...)
{
	char buf[160];
	va_list ap;
	int fd, n, ret;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fd = open(LB_CTL, O_WRONLY);
	if (fd < 0)
		return -errno;
	ret = write(fd, buf, n) == n ? 0 : -errno;
	close(fd);
	return ret;
}

static long long lb_stat(const char *key)
{
	return kv_file_get(LB_STATS, key);
}

/* Find /dev/rpmsgN whose sysfs name is @name; returns N or -1. */
static int find_eptdev(const char *name)
{
	char path[300], buf[64];
	struct dirent *de;
	int found = -1;
	DIR *d = opendir("/sys/class/rpmsg");

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		FILE *f;
		int n;

		if (sscanf(de->d_name, "rpmsg%d", &n) != 1 ||
		    strncmp(de->d_name, "rpmsg_", 6) == 0)
			continue;
		snprintf(path, sizeof(path), "/sys/class/rpmsg/%s/name", de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f)) {
			buf[strcspn(buf, "\n")] = '\0';
			if (!strcmp(buf, name))
				found = n;
		}
		fclose(f);
	}
	closedir(d);
	return found;
}

static int wait_path(const char *path, int want)
{
	int i;

	for (i = 0; i < 2000; i++) {
		if ((access(path, F_OK) == 0) == want)
			return 0;
		usleep(5000);
	}
	return -1;
}

static int create_ept(int ctrl, const char *name, uint32_t src, uint32_t dst,
		      char *dev, size_t devlen)
{
	struct rpmsg_endpoint_info info = { .src = src, .dst = dst };
	int n;

	strncpy(info.name, name, sizeof(info.name) - 1);
	if (ioctl(ctrl, RPMSG_CREATE_EPT_IOCTL, &info))
		return -errno;
	n = find_eptdev(name);
	if (n < 0)
		return -ENOENT;
	snprintf(dev, devlen, "/dev/rpmsg%d", n);
	return wait_path(dev, 1) ? -ENOENT : 0;
}

static int wait_readable(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, ms) == 1 && (p.revents & POLLIN);
}

struct tagged {
	uint32_t magic, seq, crc;
	uint8_t data[];
};

static void test_echo(int ctrl)
{
	char dev[64], buf[600], big[600];
	unsigned int i, ok = 1, bad = 0;
	struct pollfd p;
	int fd, fd2, r;

	if (!ktap_ok(create_ept(ctrl, "abi-echo", MY_ADDR, ECHO, dev,
				sizeof(dev)) == 0, "create_ept"))
		return;
	fd = open(dev, O_RDWR);
	if (!ktap_ok(fd >= 0, "open_eptdev"))
		return;
	fd2 = open(dev, O_RDWR);
	ktap_ok(fd2 < 0 && errno == EBUSY, "second_open_ebusy");
	if (fd2 >= 0)
		close(fd2);

	p = (struct pollfd){ .fd = fd, .events = POLLOUT | POLLIN };
	ktap_ok(poll(&p, 1, 1000) == 1 && (p.revents & POLLOUT) &&
		!(p.revents & POLLIN), "poll_writable_not_readable");
	ktap_ok(write(fd, "hello", 5) == 5, "write");
	ktap_ok(wait_readable(fd, 5000), "poll_readable_after_echo");
	r = read(fd, buf, sizeof(buf));
	ktap_ok(r == 5 && !memcmp(buf, "hello", 5), "read_echo");

	fcntl(fd, F_SETFL, O_NONBLOCK);
	r = read(fd, buf, sizeof(buf));
	ktap_ok(r < 0 && errno == EAGAIN, "nonblock_read_eagain");
	fcntl(fd, F_SETFL, 0);

	memset(big, 0x5a, sizeof(big));
	r = write(fd, big, 497);
	ktap_ok(r < 0 && errno == EMSGSIZE, "oversized_write_emsgsize");
	ktap_ok(write(fd, big, 496) == 496, "mtu_write");
	ktap_ok(read(fd, buf, 10) == 10, "short_read_truncates");

	ktap_ok(ioctl(fd, _IO(0xb5, 0x7f)) < 0 && errno == EINVAL,
		"bad_ioctl_einval");
	ktap_ok(ioctl(fd, RPMSG_SET_INCOMING_FLOWCONTROL, 2) < 0 &&
		errno == EINVAL, "flowcontrol_bad_arg_einval");
	ktap_ok(ioctl(fd, RPMSG_GET_OUTGOING_FLOWCONTROL, (int *)8) < 0 &&
		errno == EFAULT, "flowcontrol_bad_pointer_efault");

	/* random sizes, checked in userspace */
	srand(42);
	for (i = 0; i < 2000 && ok; i++) {
		struct tagged *t = (void *)big;
		unsigned int len = 12 + rand() % (496 - 12 + 1), j;

		for (j = 12; j < len; j++)
			big[j] = rand();
		t->magic = 0x434d5041;
		t->seq = i;
		t->crc = lb_crc32(t->data, len - 12);
		ok = write(fd, big, len) == (ssize_t)len;
		r = read(fd, buf, sizeof(buf));
		if (r != (int)len || memcmp(buf, big, len))
			bad++;
	}
	ktap_ok(ok && !bad, "echo_2000_random_sizes");
	ktap_ok(lb_stat("bad_crc") == 0, "remote_saw_no_bad_crc");
	close(fd);
}

/* Is @pid asleep in the kernel ('S' or 'D' in /proc/PID/stat)? */
static int proc_asleep(pid_t pid)
{
	char path[64], line[256], *p;
	FILE *f;
	int ok = 0;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fgets(line, sizeof(line), f)) {
		p = strrchr(line, ')');
		ok = p && (p[2] == 'S' || p[2] == 'D');
	}
	fclose(f);
	return ok;
}

static void test_flow_control(int ctrl)
{
	char dev[64], buf[128], path[300];
	unsigned int got = 0, bad = 0, next = 0;
	int fd, flow = -1, r, n;
	long long paused0, msgs0;
	struct pollfd p;
	int st;
	pid_t pid;
	FILE *f;

	if (!ktap_ok(create_ept(ctrl, "abi-fc", MY_ADDR + 1, ECHO, dev,
				sizeof(dev)) == 0, "fc_create_ept"))
		return;
	fd = open(dev, O_RDWR);
	if (!ktap_ok(fd >= 0, "fc_open"))
		return;
	ktap_ok(ioctl(fd, RPMSG_GET_OUTGOING_FLOWCONTROL, &flow) == 0 &&
		flow == 1, "outgoing_flow_initially_on");
	lb_ctl("pause %d 1", MY_ADDR + 1);
	p = (struct pollfd){ .fd = fd, .events = POLLPRI };
	ktap_ok(poll(&p, 1, 5000) == 1 && (p.revents & POLLPRI),
		"poll_pri_on_flow_change");
	ktap_ok(ioctl(fd, RPMSG_GET_OUTGOING_FLOWCONTROL, &flow) == 0 &&
		flow == 0, "outgoing_flow_paused_by_remote");
	fcntl(fd, F_SETFL, O_NONBLOCK);
	r = write(fd, "x", 1);
	ktap_ok(r < 0 && errno == EAGAIN, "paused_nonblock_write_eagain");
	fcntl(fd, F_SETFL, 0);
	/* a blocking write waits for the remote to resume, then goes out */
	msgs0 = lb_stat("msgs");
	pid = fork();
	if (pid == 0)
		_exit(write(fd, "y", 1) == 1 ? 0 : 1);
	for (n = 0; pid > 0 && n < 2000 && !proc_asleep(pid); n++)
		usleep(5000);
	ktap_ok(pid > 0 && proc_asleep(pid) && lb_stat("msgs") == msgs0,
		"paused_write_blocks");
	lb_ctl("pause %d 0", MY_ADDR + 1);
	r = pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
	    !WEXITSTATUS(st);
	for (n = 0; n < 2000 && lb_stat("msgs") < msgs0 + 1; n++)
		usleep(5000);
	ktap_ok(r && lb_stat("msgs") == msgs0 + 1, "paused_write_sent_on_resume");
	r = poll(&p, 1, 5000);
	ktap_ok(r == 1 && ioctl(fd, RPMSG_GET_OUTGOING_FLOWCONTROL, &flow) == 0 &&
		flow == 1, "outgoing_flow_resumed");

	paused0 = lb_stat("fc_paused");
	r = ioctl(fd, RPMSG_SET_INCOMING_FLOWCONTROL, 1) == 0 &&
	    ioctl(fd, RPMSG_SET_INCOMING_FLOWCONTROL, 0) == 0;
	for (n = 0; n < 2000 && lb_stat("fc_paused") != paused0 + 1; n++)
		usleep(5000);
	ktap_ok(r && lb_stat("fc_paused") == paused0 + 1,
		"set_incoming_flowcontrol");
	close(fd);

	/* a slow reader: 500 messages through a 64-deep queue, none lost */
	if (!ktap_ok(create_ept(ctrl, "abi-slow", MY_ADDR + 2, STREAM, dev,
				sizeof(dev)) == 0, "slow_create_ept"))
		return;
	fd = open(dev, O_RDWR);
	if (!ktap_ok(fd >= 0, "slow_open"))
		return;
	lb_ctl("stream %d 500 64", MY_ADDR + 2);
	/* read nothing until the queue has filled and paused the sender */
	for (r = 0; r < 2000 && lb_stat("fc_paused") <= paused0 + 1; r++)
		usleep(5000);
	ktap_ok(lb_stat("fc_paused") > paused0 + 1, "slow_reader_paused_sender");
	while (got < 500 && wait_readable(fd, 10000)) {
		struct tagged *t = (void *)buf;

		r = read(fd, buf, sizeof(buf));
		if (r != 64 || t->seq != next ||
		    t->crc != lb_crc32(t->data, 64 - 12))
			bad++;
		next = t->seq + 1;
		got++;
	}
	ktap_ok(got == 500 && !bad, "slow_reader_no_loss_no_reorder");
	n = find_eptdev("abi-slow");
	snprintf(path, sizeof(path), "/sys/class/rpmsg/rpmsg%d/dropped", n);
	f = fopen(path, "r");
	r = -1;
	if (f) {
		if (fscanf(f, "%d", &r) != 1)
			r = -1;
		fclose(f);
	}
	ktap_ok(r == 0, "slow_reader_nothing_dropped");
	close(fd);
}

static void test_destroy_and_dev(int ctrl)
{
	struct rpmsg_endpoint_info info = { .src = 0x3100, .dst = RPMSG_ADDR_ANY };
	char dev[64], buf[16];
	struct pollfd p;
	int fd, r;

	if (!ktap_ok(create_ept(ctrl, "abi-destroy", RPMSG_ADDR_ANY, ECHO, dev,
				sizeof(dev)) == 0, "destroy_create_ept"))
		return;
	fd = open(dev, O_RDWR);
	ktap_ok(fd >= 0 && ioctl(fd, RPMSG_DESTROY_EPT_IOCTL) == 0,
		"destroy_ept_ioctl");
	r = read(fd, buf, sizeof(buf));
	ktap_ok(r < 0 && errno == EPIPE, "read_after_destroy_epipe");
	r = write(fd, "x", 1);
	ktap_ok(r < 0 && errno == EPIPE, "write_after_destroy_epipe");
	p = (struct pollfd){ .fd = fd, .events = POLLIN | POLLOUT };
	ktap_ok(poll(&p, 1, 0) == 1 && (p.revents & (POLLERR | POLLHUP)),
		"poll_after_destroy_err");
	ktap_ok(wait_path(dev, 0) == 0, "node_removed");
	close(fd);

	ktap_ok(ioctl(ctrl, RPMSG_CREATE_EPT_IOCTL, (void *)8) < 0 &&
		errno == EFAULT, "ctrl_bad_pointer_efault");
	/* as mainline, the argument is read first: give a valid one */
	ktap_ok(ioctl(ctrl, _IO(0xb5, 0x7f), &info) < 0 && errno == EINVAL,
		"ctrl_bad_ioctl_einval");
	/* the address is claimed at open: a second endpoint on it fails */
	{
		char d1[64], d2[64];
		int fd1 = -1, fd2 = -1;

		if (create_ept(ctrl, "dup1", 77, ECHO, d1, sizeof(d1)) == 0 &&
		    create_ept(ctrl, "dup2", 77, ECHO, d2, sizeof(d2)) == 0) {
			fd1 = open(d1, O_RDWR);
			fd2 = open(d2, O_RDWR);
		}
		ktap_ok(fd1 >= 0 && fd2 < 0 && errno == EINVAL,
			"taken_address_open_einval");
		if (fd1 >= 0)
			close(fd1);
		if (fd2 >= 0)
			close(fd2);
	}

	/* local channel through CREATE_DEV/RELEASE_DEV, announced to the remote */
	memset(&info, 0, sizeof(info));
	strcpy(info.name, "abi-dev");
	info.src = 0x3100;
	info.dst = RPMSG_ADDR_ANY;
	ktap_ok(ioctl(ctrl, RPMSG_CREATE_DEV_IOCTL, &info) == 0, "create_dev");
	ktap_ok(access("/sys/bus/rpmsg/devices/virtio0.abi-dev.12544.-1", F_OK) == 0,
		"create_dev_channel_in_sysfs");
	ktap_ok(ioctl(ctrl, RPMSG_CREATE_DEV_IOCTL, &info) < 0, "create_dev_twice_fails");
	ktap_ok(ioctl(ctrl, RPMSG_RELEASE_DEV_IOCTL, &info) == 0, "release_dev");
	ktap_ok(access("/sys/bus/rpmsg/devices/virtio0.abi-dev.12544.-1", F_OK) != 0,
		"release_dev_channel_gone");
	ktap_ok(ioctl(ctrl, RPMSG_RELEASE_DEV_IOCTL, &info) < 0, "release_dev_twice_fails");

	/*
	 * The bus's own devices cannot be released: releasing the control
	 * device through itself once deadlocked the ioctl (found by
	 * fuzz_userspace).
	 */
	memset(&info, 0, sizeof(info));
	info.src = RPMSG_ADDR_ANY;
	info.dst = RPMSG_ADDR_ANY;
	strcpy(info.name, "rpmsg_ctrl");
	ktap_ok(ioctl(ctrl, RPMSG_RELEASE_DEV_IOCTL, &info) < 0 && errno == EPERM,
		"release_dev_of_ctrl_refused");
	strcpy(info.name, "rpmsg_ns");
	ktap_ok(ioctl(ctrl, RPMSG_RELEASE_DEV_IOCTL, &info) < 0 && errno == EPERM,
		"release_dev_of_ns_refused");
	strcpy(info.name, "abi-dev");
	ktap_ok(ioctl(ctrl, RPMSG_CREATE_DEV_IOCTL, &info) == 0 &&
		ioctl(ctrl, RPMSG_RELEASE_DEV_IOCTL, &info) == 0,
		"ctrl_works_after_refusal");
}

struct reader {
	int fd;
	int ret;
	int err;
};

static void *reader_fn(void *arg)
{
	struct reader *rd = arg;
	char buf[64];

	rd->ret = read(rd->fd, buf, sizeof(buf));
	rd->err = errno;
	return NULL;
}

static void test_close_racing_rx(int ctrl)
{
	char dev[64];
	int i, fd, opened = 0;

	if (!ktap_ok(create_ept(ctrl, "abi-race", MY_ADDR + 3, STREAM, dev,
				sizeof(dev)) == 0, "race_create_ept"))
		return;
	for (i = 0; i < 50; i++) {
		fd = open(dev, O_RDWR);
		if (fd < 0)
			break;
		opened++;
		lb_ctl("stream %d 100 32", MY_ADDR + 3);
		wait_readable(fd, 2000);
		close(fd);
	}
	ktap_ok(opened == 50, "close_racing_rx_50_times");
}

static void test_remote_removal(int ctrl)
{
	struct reader rd = { .ret = 0 };
	char dev[64];
	pthread_t th;
	time_t t0;
	int fd, r;

	if (!ktap_ok(create_ept(ctrl, "abi-gone", RPMSG_ADDR_ANY, ECHO, dev,
				sizeof(dev)) == 0, "removal_create_ept"))
		return;
	fd = open(dev, O_RDWR);
	rd.fd = fd;
	pthread_create(&th, NULL, reader_fn, &rd);
	t0 = time(NULL);
	ktap_ok(lb_ctl("remove") == 0, "remote_removed");
	pthread_join(th, NULL);
	ktap_ok(rd.ret < 0 && rd.err == EPIPE, "blocked_reader_gets_epipe");
	r = write(fd, "x", 1);
	ktap_ok(r < 0 && errno == EPIPE, "write_after_removal_epipe");
	ktap_ok(time(NULL) - t0 < 10, "no_15s_wait");
	r = ioctl(ctrl, RPMSG_CREATE_EPT_IOCTL, &(struct rpmsg_endpoint_info){
		.name = "late", .src = RPMSG_ADDR_ANY, .dst = ECHO });
	ktap_ok(r < 0 && errno == ENODEV, "ctrl_after_removal_enodev");
	close(fd);
	ktap_ok(lb_ctl("add shm fc") == 0 &&
		wait_path("/dev/rpmsg_ctrl1", 1) == 0, "remote_back");
}

int main(int argc, char **argv)
{
	int ctrl;

	if (argc > 1)
		ctrl_path = argv[1];
	ktap_plan(0);
	ctrl = open(ctrl_path, O_RDWR);
	if (!ktap_ok(ctrl >= 0, "open_ctrl %s", ctrl_path))
		ktap_exit();
	test_echo(ctrl);
	test_flow_control(ctrl);
	test_destroy_and_dev(ctrl);
	test_close_racing_rx(ctrl);
	test_remote_removal(ctrl);
	close(ctrl);
	printf("1..%u\n", ktap_num);
	return ktap_exit();
}
