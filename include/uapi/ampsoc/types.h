/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fixed-width types of every ampsoc wire format (include/uapi/ampsoc/).
 *
 * The headers in this folder are shared by the Linux modules, the SoC model
 * and host tools (hosted C), and the firmware SDK (freestanding, its own
 * libc, no <linux/types.h>). They spell fields with the kernel's uapi names:
 * __u8.. __u64 for native values, __le16.. __le64 for little-endian wire
 * values. In the kernel those come from <linux/types.h>, where the __le
 * types are sparse-checked (__bitwise). Elsewhere this file defines them as
 * the same C types <linux/types.h> uses, so that a host program may include
 * either first; outside the kernel the wire order is the CPU's, and every
 * core ampsoc builds for is little-endian.
 */
#ifndef _UAPI_AMPSOC_TYPES_H
#define _UAPI_AMPSOC_TYPES_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "ampsoc's wire formats are little-endian; this CPU is not"
#endif
#ifndef _LINUX_TYPES_H
typedef unsigned char __u8;
typedef unsigned short __u16;
typedef unsigned int __u32;
typedef unsigned long long __u64;
typedef unsigned short __le16;
typedef unsigned int __le32;
typedef unsigned long long __le64;
#endif
#endif

/* Fail the build unless @cond holds (a size or offset both sides rely on). */
#define AMPSOC_ABI_CHECK(name, cond) \
	extern char ampsoc_abi_check_##name[(cond) ? 1 : -1]

#endif /* _UAPI_AMPSOC_TYPES_H */
