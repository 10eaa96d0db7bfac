/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers shared by the guest test programs: ARRAY_SIZE(), writing
 * a sysfs or debugfs attribute, the CRC-32 the checked rpmsg streams
 * carry and opening a new rpmsg endpoint device.
 * Header-only, like ktap_user.h.
 */
#ifndef AMPSOC_GUEST_UTIL_H
#define AMPSOC_GUEST_UTIL_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/rpmsg.h>
#include <zlib.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* Write @s to @path in one write(); 0 or -errno. */
static inline int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) != (ssize_t)strlen(s))
		ret = -errno;
	close(fd);
	return ret;
}

/* The value of @key in a file of "key value" lines (debugfs stats), or -1. */
static inline long long kv_file_get(const char *path, const char *key)
{
	char line[128], k[64];
	long long v, r = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %lld", k, &v) == 2 && !strcmp(k, key))
			r = v;
	fclose(f);
	return r;
}

/*
 * CRC-32 of @n bytes at @p as the loopback remote (ampsoc_rpmsg_lb) checks
 * it, the kernel's crc32_le(~0, p, n): zlib's CRC without its final
 * inversion.
 */
static inline uint32_t lb_crc32(const void *p, size_t n)
{
	return ~(uint32_t)crc32(0, p, n);
}

/*
 * Create an endpoint named @name (@src, @dst) through the rpmsg_ctrl device
 * @ctrl and open its /dev/rpmsgN (found by name in /sys/class/rpmsg);
 * stores N in @minor if not NULL. Returns the descriptor, or -1.
 */
static inline int rpmsg_ept_open(int ctrl, const char *name, uint32_t src,
				 uint32_t dst, int *minor)
{
	struct rpmsg_endpoint_info info = { .src = src, .dst = dst };
	size_t len = strlen(name);
	char path[300], buf[64];
	struct dirent *de;
	int n, i, fd = -1;
	DIR *d;

	strncpy(info.name, name, sizeof(info.name) - 1);
	if (ioctl(ctrl, RPMSG_CREATE_EPT_IOCTL, &info))
		return -1;
	d = opendir("/sys/class/rpmsg");
	while (d && (de = readdir(d))) {
		FILE *f;
		bool match;

		if (!strncmp(de->d_name, "rpmsg_", 6) ||
		    sscanf(de->d_name, "rpmsg%d", &n) != 1)
			continue;
		snprintf(path, sizeof(path), "/sys/class/rpmsg/%s/name", de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		match = fgets(buf, sizeof(buf), f) && !strncmp(buf, name, len) &&
			buf[len] == '\n';
		fclose(f);
		if (!match)
			continue;
		if (minor)
			*minor = n;
		snprintf(path, sizeof(path), "/dev/rpmsg%d", n);
		/* The node appears when udev (mdev) gets to it. */
		for (i = 0; i < 1000 && fd < 0; i++) {
			fd = open(path, O_RDWR);
			if (fd < 0)
				usleep(5000);
		}
		break;
	}
	if (d)
		closedir(d);
	return fd;
}

#endif
