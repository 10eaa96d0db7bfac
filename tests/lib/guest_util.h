/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers shared by the guest test programs: ARRAY_SIZE(), writing
 * a sysfs or debugfs attribute and the CRC-32 the checked rpmsg streams
 * carry.
 * Header-only, like ktap_user.h.
 */
#ifndef AMPSOC_GUEST_UTIL_H
#define AMPSOC_GUEST_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

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

/*
 * CRC-32 of @n bytes at @p: reflected polynomial 0xedb88320, initial value
 * ~0 and no final inversion, as the loopback remote checks it.
 */
static inline uint32_t crc32_sw(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffff;
	int k;

	while (n--) {
		c ^= *p++;
		for (k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xedb88320 & -(c & 1));
	}
	return c;
}

#endif
