// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the board-file parser. Any input must either parse
 * into a board whose table passes the consumer-side check, or fail with
 * a "file:line: " message; never crash or read out of bounds.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"

/* libFuzzer's entry point, named through the assembler */
int fuzz_one(const uint8_t *data, size_t size) __asm__("LLVMFuzzerTestOneInput");

int fuzz_one(const uint8_t *data, size_t size)
{
	static struct board b;
	static uint8_t table[VSOC_MAX_TABLE_SIZE];
	char err[BOARD_ERR_LEN];

	if (board_parse(&b, "fuzz.ini", (const char *)data, size, err,
			sizeof(err))) {
		if (strncmp(err, "fuzz.ini:", 9))
			abort();
		return 0;
	}
	memset(table, 0, sizeof(table));
	if (board_write_table(&b, table) > VSOC_MAX_TABLE_SIZE)
		abort();
	if (table_check(table, sizeof(table), b.shm_size, err, sizeof(err)))
		abort();	/* the model would publish a table it rejects */
	return 0;
}
