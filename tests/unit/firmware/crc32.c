// SPDX-License-Identifier: GPL-2.0
/*
 * The SDK's freestanding CRC-32 (firmware/lib/crc32.c) against zlib's
 * crc32(), which every hosted program uses: the same value for the
 * standard check input, for every length up to a few KiB, and when a
 * buffer is fed in pieces. KTAP on stdout.
 */
#include <stdint.h>
#include <stdlib.h>
#include <zlib.h>

#include <amp/crc32.h>

#include "ktap_user.h"

int main(void)
{
	static uint8_t buf[4096 + 7];
	unsigned int n, cut, bad = 0;
	uint32_t s = 0x2545f491;

	ktap_plan(4);
	/* CRC-32/ISO-HDLC's published check value */
	ktap_ok(amp_crc32(0, "123456789", 9) == 0xcbf43926, "check_value");
	ktap_ok(amp_crc32(0, buf, 0) == 0 && amp_crc32(0x1234, buf, 0) == 0x1234,
		"empty_input_keeps_crc");
	for (n = 0; n < sizeof(buf); n++) {
		s ^= s << 13;
		s ^= s >> 17;
		s ^= s << 5;
		buf[n] = (uint8_t)s;
	}
	for (n = 0; n <= sizeof(buf); n++)
		if (amp_crc32(0, buf, n) != (uint32_t)crc32(0, buf, n))
			bad++;
	ktap_ok(!bad, "matches_zlib_every_length");
	bad = 0;
	for (cut = 0; cut <= sizeof(buf); cut += 97)
		if (amp_crc32(amp_crc32(0, buf, cut), buf + cut, sizeof(buf) - cut) !=
		    (uint32_t)crc32(0, buf, sizeof(buf)))
			bad++;
	ktap_ok(!bad, "pieces_continue");
	return ktap_exit();
}
