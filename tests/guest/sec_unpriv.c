// SPDX-License-Identifier: GPL-2.0
/*
 * Only root may create or destroy rpmsg endpoints and boot or stop remote
 * processors. Mainline relies on the file modes for this (devtmpfs nodes
 * 0600 root, sysfs attributes 0644, debugfs 0700) and on CAP_MKNOD for
 * making another node; so does ampsoc. As root, this program first shows
 * that every operation works (an endpoint is created, the processor is
 * running), then a child drops to nobody (setresgid/setgroups/setresuid
 * 65534, which clears every capability) and tries each operation: every
 * one must fail with EACCES or EPERM, and afterwards nothing changed.
 *
 * Usage: sec_unpriv RPROC_SYSFS_DIR RPROC_DEBUGFS_DIR CTRL_DEV
 *        (the processor runs a firmware that announces rpmsg channels)
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/rpmsg.h>

#include "ktap_user.h"

#define NOBODY	65534

static const char *rproc, *rdbg, *ctrl;
static char ept[64], cdev[64], chan[300];

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	if (!fgets(buf, len, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* The /dev/rpmsgN of the endpoint called @name, or -1. */
static int find_ept(const char *name, char *dev, size_t len)
{
	char path[96], buf[64];
	int n;

	for (n = 0; n < 256; n++) {
		snprintf(path, sizeof(path), "/sys/class/rpmsg/rpmsg%d/name", n);
		if (read_line(path, buf, sizeof(buf)) == 0 && !strcmp(buf, name)) {
			snprintf(dev, len, "/dev/rpmsg%d", n);
			return 0;
		}
	}
	return -1;
}

/* The first announced channel (its sysfs directory), for driver_override. */
static int find_channel(void)
{
	DIR *d = opendir("/sys/bus/rpmsg/devices");
	struct dirent *e;
	int ret = -1;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (strstr(e->d_name, ".ampsoc-echo.")) {
			snprintf(chan, sizeof(chan), "/sys/bus/rpmsg/devices/%s",
				 e->d_name);
			ret = 0;
			break;
		}
	}
	closedir(d);
	return ret;
}

/* One refused operation: it must fail with EACCES or EPERM. */
static void refused(int ret, int err, const char *what)
{
	bool ok = ret < 0 && (err == EACCES || err == EPERM);

	if (!ok)
		ktap_diag("%s: returned %d, errno %d (%s)", what, ret, err,
			  strerror(err));
	ktap_ok(ok, "unpriv_%s_refused", what);
}

static void try_open(const char *path, int flags, const char *what)
{
	int fd = open(path, flags);
	int err = errno;

	if (fd >= 0)
		close(fd);
	refused(fd, err, what);
}

static void try_write(const char *dir, const char *attr, const char *val)
{
	char path[340], what[48];
	int fd, ret, err;

	snprintf(path, sizeof(path), "%s/%s", dir, attr);
	snprintf(what, sizeof(what), "write_%s", attr);
	fd = open(path, O_WRONLY);
	err = errno;
	if (fd >= 0) {
		ret = write(fd, val, strlen(val));
		err = errno;
		close(fd);
		fd = ret < 0 ? -1 : 0;
	}
	refused(fd, err, what);
}

static void unprivileged(void)
{
	struct rpmsg_endpoint_info info = { .src = RPMSG_ADDR_ANY,
					    .dst = RPMSG_ADDR_ANY };
	char path[340];
	struct stat st;
	int ret, err;

	if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
	    setresuid(NOBODY, NOBODY, NOBODY)) {
		ktap_ok(false, "drop_to_nobody (errno %d)", errno);
		return;
	}
	ktap_ok(geteuid() == NOBODY && getegid() == NOBODY, "running_as_nobody");

	/* endpoints: create (ctrl ioctls) and destroy (eptdev ioctl) */
	try_open(ctrl, O_RDWR, "open_ctrl_rdwr");
	try_open(ctrl, O_RDONLY, "open_ctrl_rdonly");
	try_open(ept, O_RDWR, "open_ept");
	try_open(ept, O_RDONLY, "open_ept_rdonly");
	/* nor may a node of one's own reach the same device */
	if (stat(ctrl, &st) == 0) {
		ret = mknod("/tmp/ctrl-copy", S_IFCHR | 0666, st.st_rdev);
		err = errno;
		if (ret == 0) {
			int fd = open("/tmp/ctrl-copy", O_RDWR);

			if (fd >= 0 &&
			    ioctl(fd, RPMSG_CREATE_EPT_IOCTL, &info) == 0)
				ktap_diag("endpoint created through a copied node");
			if (fd >= 0)
				close(fd);
			unlink("/tmp/ctrl-copy");
		}
		refused(ret, err, "mknod_ctrl");
	} else {
		ktap_ok(false, "unpriv_mknod_ctrl_refused # stat failed");
	}

	/* processors: boot/stop by sysfs and by /dev/remoteprocN */
	try_write(rproc, "state", "stop");
	try_write(rproc, "firmware", "ampsoc-hello.elf");
	try_write(rproc, "recovery", "disabled");
	try_write(rproc, "coredump", "disabled");
	try_open(cdev, O_WRONLY, "open_remoteproc_cdev");
	try_open(cdev, O_RDONLY, "open_remoteproc_cdev_rdonly");
	snprintf(path, sizeof(path), "%s/crash", rdbg);
	try_open(path, O_WRONLY, "debugfs_crash");

	/* unbinding a channel or binding it to another driver */
	try_write(chan, "driver_override", "rpmsg_chrdev");
	snprintf(path, sizeof(path), "%s/driver", chan);
	try_write(path, "unbind", strrchr(chan, '/') + 1);
}

int main(int argc, char **argv)
{
	struct rpmsg_endpoint_info info = { .src = RPMSG_ADDR_ANY,
					    .dst = RPMSG_ADDR_ANY };
	char path[160], buf[64];
	unsigned int base;
	int fd, status, i;
	pid_t pid;

	ktap_plan(0);
	if (argc != 4) {
		ktap_ok(false, "usage: sec_unpriv RPROC_DIR DEBUGFS_DIR CTRL_DEV");
		return ktap_exit();
	}
	rproc = argv[1];
	rdbg = argv[2];
	ctrl = argv[3];
	snprintf(cdev, sizeof(cdev), "/dev/%s", strrchr(rproc, '/') + 1);

	/* root: each operation works */
	ktap_ok(getuid() == 0, "starts_as_root");
	snprintf(path, sizeof(path), "%s/state", rproc);
	ktap_ok(read_line(path, buf, sizeof(buf)) == 0 && !strcmp(buf, "running"),
		"root_processor_running");
	fd = open(ctrl, O_RDWR);
	strcpy(info.name, "sec-ept");
	ktap_ok(fd >= 0 && ioctl(fd, RPMSG_CREATE_EPT_IOCTL, &info) == 0,
		"root_creates_endpoint");
	if (fd >= 0)
		close(fd);
	ktap_ok(find_ept("sec-ept", ept, sizeof(ept)) == 0, "root_endpoint_node");
	for (i = 0; i < 1000 && access(ept, F_OK); i++)
		usleep(5000);
	if (!ktap_ok(find_channel() == 0, "channel_found"))
		return ktap_exit();
	fd = open(cdev, O_RDWR);
	ktap_ok(fd >= 0, "root_opens_remoteproc_cdev");
	if (fd >= 0)
		close(fd);

	/*
	 * The child numbers its points after ours and exits with how many
	 * it printed; a failed one shows as "not ok" in the output.
	 */
	fflush(stdout);
	base = ktap_num;
	pid = fork();
	if (pid == 0) {
		unprivileged();
		fflush(stdout);
		_exit(ktap_num - base);
	}
	if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status))
		ktap_num += WEXITSTATUS(status);
	ktap_ok(pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) >= 15,
		"unprivileged_child_ran_every_check");

	/* nothing changed */
	ktap_ok(read_line(path, buf, sizeof(buf)) == 0 && !strcmp(buf, "running"),
		"processor_still_running");
	ktap_ok(find_ept("sec-ept", buf, sizeof(buf)) == 0 && !strcmp(buf, ept),
		"endpoint_still_there");
	fd = open(ept, O_RDWR);
	ktap_ok(fd >= 0 && ioctl(fd, RPMSG_DESTROY_EPT_IOCTL) == 0,
		"root_destroys_endpoint");
	if (fd >= 0)
		close(fd);
	printf("1..%u\n", ktap_num);
	return ktap_exit();
}
