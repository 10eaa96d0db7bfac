/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The firmware SDK's libc subset: error numbers, with Linux's values. There
 * is no errno variable: SDK functions return negative error numbers.
 */
#ifndef _AMP_ERRNO_H
#define _AMP_ERRNO_H

#define EPERM		1
#define ENOENT		2
#define EIO		5
#define EBADF		9
#define EAGAIN		11
#define ENOMEM		12
#define EBUSY		16
#define EEXIST		17
#define ENODEV		19
#define EINVAL		22
#define ENOSPC		28
#define ERANGE		34
#define EDEADLK		35
#define ENAMETOOLONG	36
#define EPROTO		71
#define EBADMSG		74
#define EOVERFLOW	75
#define EMSGSIZE	90
#define EOPNOTSUPP	95
#define ENOTCONN	107
#define ETIMEDOUT	110
#define EALREADY	114

#endif /* _AMP_ERRNO_H */
