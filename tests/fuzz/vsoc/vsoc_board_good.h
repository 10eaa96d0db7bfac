/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Valid board tables from the SoC model's writer (vsoc_board_good.c), in
 * types both the model's and the kernel shim's headers agree on.
 */
#ifndef _AMPSOC_VSOC_BOARD_GOOD_H
#define _AMPSOC_VSOC_BOARD_GOOD_H

#include <stddef.h>
#include <stdint.h>

/* Write a valid table for a built-in board into @buf; returns its size. */
size_t vsoc_fuzz_good_table(uint8_t *buf, size_t len);

/* The table the model publishes for board file @text (@n bytes), or 0. */
size_t vsoc_fuzz_board_table(const char *text, size_t n, uint8_t *buf,
			     size_t len);

#endif /* _AMPSOC_VSOC_BOARD_GOOD_H */
