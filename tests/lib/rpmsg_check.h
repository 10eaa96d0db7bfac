/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The check protocol: checked rpmsg traffic between Linux's
 * tests/guest/rpmsg_check.c and the firmware tests/firmware/rpmsg-check.c,
 * which both include this header (the firmware through its SDK's CRC, a
 * hosted program through zlib's).
 *
 * Every data message, in both directions, is a 16-byte header (struct
 * chk_hdr, little endian) and a payload; @len is the whole message's
 * length, header included. @crc is the
 * CRC-32 (IEEE) of @seq, @len and @flags (the header's bytes 4 to 11)
 * followed by the payload. Sequence numbers count per conversation (per
 * pair of addresses and per direction) from 0; a message flagged
 * CHK_F_START starts the count again.
 */
#ifndef _AMPSOC_RPMSG_CHECK_H
#define _AMPSOC_RPMSG_CHECK_H

#include <stddef.h>
#include <stdint.h>

#if __STDC_HOSTED__
#include <zlib.h>
#define chk_crc32(crc, p, n) ((uint32_t)crc32((crc), (const void *)(p), (n)))
#else
#include <amp/crc32.h>
#define chk_crc32(crc, p, n) amp_crc32((crc), (p), (n))
#endif

#define CHK_MAGIC	0x4b484321u	/* "!CHK" */
#define CHK_F_START	1u		/* restart this conversation's count */

struct chk_hdr {
	uint32_t magic;
	uint32_t seq;
	uint16_t len;
	uint16_t flags;
	uint32_t crc;
} __attribute__((packed));

/* The CRC a message with header @h and @n bytes of @payload must carry. */
static inline uint32_t chk_crc(const struct chk_hdr *h, const void *payload,
			       size_t n)
{
	return chk_crc32(chk_crc32(0, &h->seq, 8), payload, n);
}

/*
 * The payloads' and sizes' pseudo-random numbers (xorshift32), the same on
 * both sides; a zero state stays zero.
 */
static inline uint32_t chk_xorshift(uint32_t *s)
{
	uint32_t x = *s;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*s = x;
	return x;
}

#endif /* _AMPSOC_RPMSG_CHECK_H */
