/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CRC-32 (IEEE 802.3: reflected, polynomial 0xedb88320), with zlib's
 * crc32() calling convention, so that firmware and host programs (which
 * use zlib itself) compute the same value the same way:
 * amp_crc32(0, p, n) is the CRC of n bytes, and a CRC over several pieces
 * is the result of one piece passed as @crc for the next.
 */
#ifndef _AMP_CRC32_H
#define _AMP_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* The CRC-32 of @len bytes at @buf, continuing @crc (0 to start). */
uint32_t amp_crc32(uint32_t crc, const void *buf, size_t len);

#endif /* _AMP_CRC32_H */
