// SPDX-License-Identifier: GPL-2.0
/*
 * ampsoc SoC model: ivshmem server protocol messages.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "ivshmem.h"

int ivshmem_send(int sock, int64_t value, int fd)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} ctl;
	uint64_t le = (uint64_t)value;	/* x86: already little-endian */
	struct iovec iov = { .iov_base = &le, .iov_len = sizeof(le) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t n;

	if (fd >= 0) {
		struct cmsghdr *c;

		memset(&ctl, 0, sizeof(ctl));
		msg.msg_control = ctl.buf;
		msg.msg_controllen = sizeof(ctl.buf);
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	do {
		n = sendmsg(sock, &msg, MSG_NOSIGNAL);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return n == sizeof(le) ? 0 : -EPROTO;
}

int ivshmem_greet(int sock, uint16_t id, int shm_fd,
		  const struct ivshmem_peer *peers, unsigned int nr_peers,
		  const int *own_fds, unsigned int nr_vectors)
{
	unsigned int p, v;
	int r;

	r = ivshmem_send(sock, IVSHMEM_PROTOCOL_VERSION, -1);
	if (!r)
		r = ivshmem_send(sock, id, -1);
	if (!r)
		r = ivshmem_send(sock, -1, shm_fd);
	for (p = 0; !r && p < nr_peers; p++)
		for (v = 0; !r && v < nr_vectors; v++)
			r = ivshmem_send(sock, peers[p].id, peers[p].fds[v]);
	for (v = 0; !r && v < nr_vectors; v++)
		r = ivshmem_send(sock, id, own_fds[v]);
	return r;
}

int ivshmem_recv(int sock, int64_t *value, int *fd)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} ctl;
	uint64_t le;
	struct iovec iov = { .iov_base = &le, .iov_len = sizeof(le) };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = ctl.buf, .msg_controllen = sizeof(ctl.buf),
	};
	struct cmsghdr *c;
	ssize_t n;

	*fd = -1;
	do {
		n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	for (c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS &&
		    c->cmsg_len == CMSG_LEN(sizeof(int)))
			memcpy(fd, CMSG_DATA(c), sizeof(int));
	if (n != sizeof(le) || (msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC))) {
		if (*fd >= 0)
			close(*fd);
		*fd = -1;
		return -EPROTO;
	}
	*value = (int64_t)le;
	return 0;
}

int unix_listen(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	struct stat st;
	int s;

	if (strlen(path) >= sizeof(a.sun_path))
		return -ENAMETOOLONG;
	strcpy(a.sun_path, path);
	/* replace only a stale socket, never another kind of file */
	if (!lstat(path, &st)) {
		if (!S_ISSOCK(st.st_mode))
			return -EEXIST;
		unlink(path);
	}
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (s < 0)
		return -errno;
	if (bind(s, (struct sockaddr *)&a, sizeof(a)) || listen(s, 4)) {
		int e = -errno;

		close(s);
		return e;
	}
	return s;
}
