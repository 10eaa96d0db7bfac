/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ampsoc SoC model: the board-table checker, which is the kernel's own
 * (drivers/vsoc/vsoc_board.c, built on the host behind kshim/). This
 * header uses only standard types, so that the model's sources (which
 * never see the kernel's type names) and the seam (which sees only those)
 * can both include it.
 */
#ifndef _SOCMODEL_TABLE_CHECK_H
#define _SOCMODEL_TABLE_CHECK_H

#include <stddef.h>
#include <stdint.h>

/*
 * Check a board table as Linux does when it probes the SoC (the same
 * code): @len bytes are readable at @table, @shm_size is the size of the
 * shared memory. The guest's peer ID is taken from the table and every
 * MSI-X vector the device can have is offered, so only what the table
 * says itself is judged. Not thread-safe (the kernel's message goes
 * through one static buffer).
 * Returns 0, or -1 with the kernel's message in @err.
 */
int table_check(const void *table, size_t len, uint64_t shm_size,
		char *err, size_t errlen);

#endif /* _SOCMODEL_TABLE_CHECK_H */
