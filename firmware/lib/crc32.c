// SPDX-License-Identifier: GPL-2.0
/*
 * The SDK's CRC-32 (amp/crc32.h): the only freestanding copy in the tree;
 * everything hosted uses zlib's crc32(). A 256-entry table, filled on
 * first use: emulated cores run the checker at a few instructions a byte.
 * Not reentrant on the very first call, which a single-threaded firmware
 * does not mind.
 */
#include <amp/crc32.h>

static uint32_t crc_table[256];

static void crc_table_fill(void)
{
	uint32_t c, i, k;

	for (i = 0; i < 256; i++) {
		c = i;
		for (k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xedb88320u & -(c & 1));
		crc_table[i] = c;
	}
}

uint32_t amp_crc32(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint32_t c = ~crc;

	if (!crc_table[1])
		crc_table_fill();
	while (len--)
		c = crc_table[(c ^ *p++) & 0xff] ^ (c >> 8);
	return ~c;
}
