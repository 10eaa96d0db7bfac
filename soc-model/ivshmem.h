/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ampsoc SoC model: the server side of QEMU's ivshmem client-server
 * protocol (docs/specs/ivshmem-spec.txt in QEMU): 8-byte little-endian
 * messages, some carrying one file descriptor (SCM_RIGHTS).
 */
#ifndef _SOCMODEL_IVSHMEM_H
#define _SOCMODEL_IVSHMEM_H

#include <stdint.h>

#define IVSHMEM_PROTOCOL_VERSION	0

/* One peer as the server announces it: an ID and one fd per vector. */
struct ivshmem_peer {
	uint16_t id;
	const int *fds;		/* nr_vectors fds, may repeat */
};

/* Send one message, with @fd attached when >= 0. 0 or -errno. */
int ivshmem_send(int sock, int64_t value, int fd);

/*
 * Greet a new client: version, its @id, the shared memory, the @nr_peers
 * other @peers, then its own @own_fds. 0 or -errno.
 */
int ivshmem_greet(int sock, uint16_t id, int shm_fd,
		  const struct ivshmem_peer *peers, unsigned int nr_peers,
		  const int *own_fds, unsigned int nr_vectors);

/*
 * Client side, for tests: receive one message; *fd is -1 when none came.
 * Returns 0, -EPROTO on a short or malformed message, -errno otherwise.
 */
int ivshmem_recv(int sock, int64_t *value, int *fd);

/* Create a UNIX listening socket at @path (unlinking a stale one). */
int unix_listen(const char *path);

#endif /* _SOCMODEL_IVSHMEM_H */
