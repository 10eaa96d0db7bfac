/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the board-table fuzz target and its unit test: build a valid
 * table with the SoC model's writer, run the kernel parser on a table,
 * and check what it accepted.
 */
#ifndef _AMPSOC_VSOC_BOARD_FUZZ_H
#define _AMPSOC_VSOC_BOARD_FUZZ_H

#include "vsoc_board_shim.h"
#include <ampsoc/vsoc.h>
#include "vsoc_board_good.h"

/* Re-compute the header checksum of @t (@len bytes readable). */
void vsoc_fuzz_fix_checksum(uint8_t *t, size_t len);

/*
 * Parse @t (@len bytes) as the driver does, on a device with 16 + @extra_vec
 * vectors whose shared memory and peer ID match the header. Returns the
 * parser's result; aborts if an accepted board breaks a promise.
 */
int vsoc_fuzz_run(const uint8_t *t, size_t len, unsigned int extra_vec);

#endif /* _AMPSOC_VSOC_BOARD_FUZZ_H */
